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
 * Keys this isolate verified, for `ttlMs`: a busy key costs one D1 lookup per isolate every few
 * seconds instead of one per request. Only live keys are kept; an unknown key is always looked up
 * (a key made a moment ago works at once). Keyed by the key as presented: the isolate holds each
 * request's key anyway, for as long as the request, and hashing it on every call was a tenth of a
 * cached call's CPU (the database still stores and matches only the hash). Bounded to
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

  get(presented: string): VerifiedKey | undefined {
    const entry = this.entries.get(presented);
    if (!entry) return undefined;
    if (this.now() < entry.expiresAt) return entry.key;
    this.entries.delete(presented);
    return undefined;
  }

  set(presented: string, key: VerifiedKey): void {
    const now = this.now();
    // Entries are in the order they expire (one TTL for all): the expired ones are at the front,
    // and go now, so no key stays in memory long past its TTL.
    for (const [held, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(held);
    }
    this.entries.delete(presented);
    this.entries.set(presented, { key, expiresAt: now + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** How many keys are held (expired ones included until the next `set`). */
  get size(): number {
    return this.entries.size;
  }

  /** A key revoked or reset here stops working here at once. */
  forgetKey(keyId: string): void {
    for (const [presented, entry] of this.entries) if (entry.key.keyId === keyId) this.entries.delete(presented);
  }

  /** A user suspended (or otherwise changed) here is looked up again on their next request. */
  forgetUser(userId: string): void {
    for (const [presented, entry] of this.entries) if (entry.key.user.id === userId) this.entries.delete(presented);
  }
}

/** This isolate's cache: module state lives as long as the isolate. */
export const verifiedKeys = new VerifiedKeyCache();
