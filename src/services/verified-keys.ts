import type { Caller } from "../db/schema";
import { SECOND } from "../lib/time";

/**
 * How long an isolate trusts a key it verified before asking D1 again: the longest a revoked or
 * reset key, or a suspended account, keeps working in an isolate other than the one that made the
 * change (that one forgets at once). Stated in docs/decisions.md.
 */
export const VERIFIED_KEY_TTL_MS = 5 * SECOND;

export interface VerifiedKey {
  keyId: string;
  /** When `last_used_at` was last written (or read): it is written at most once a minute per isolate. */
  lastUsedAt: string | null;
  /** The owner, without the balance: a balance held here would be stale, so nobody can read one from a cached key. */
  user: Caller;
}

/**
 * Keys this isolate verified, by the SHA-256 of the presented key, for `ttlMs`: a busy key costs
 * one D1 lookup per isolate every few seconds instead of one per request. Only live keys are
 * kept; an unknown key is always looked up (a key made a moment ago works at once). Bounded to
 * `maxEntries`, oldest first out.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, { key: VerifiedKey; expiresAt: number }>();

  constructor(
    private readonly ttlMs = VERIFIED_KEY_TTL_MS,
    private readonly maxEntries = 10_000,
    // Read at each call (not captured once), so a test's clock is the one it reads.
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(keyHash: string): VerifiedKey | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry.key;
    this.entries.delete(keyHash);
    return undefined;
  }

  set(keyHash: string, key: VerifiedKey): void {
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { key, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A key revoked or reset here stops working here at once. */
  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.key.keyId === keyId) this.entries.delete(hash);
  }

  /** A user suspended (or otherwise changed) here is looked up again on their next request. */
  forgetUser(userId: string): void {
    for (const [hash, entry] of this.entries) if (entry.key.user.id === userId) this.entries.delete(hash);
  }
}

/** This isolate's cache: module state lives as long as the isolate. */
export const verifiedKeys = new VerifiedKeyCache();
