import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, callerColumns, users } from "../db/schema";
import { randomBase62, sha256Hex } from "../lib/crypto";
import { MINUTE, nowIso } from "../lib/time";
import { type VerifiedKey, verifiedKeys } from "./verified-keys";

/**
 * API keys look like `dr_live_<32 base62 chars>` (about 190 bits of entropy). Only the SHA-256
 * of a key is stored (a fast hash is right for random secrets: there is nothing to brute-force);
 * `prefix` keeps the first characters so a user can tell keys apart.
 */
const KEY_PREFIX = "dr_live_";
const KEY_RANDOM_LENGTH = 32;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;
const KEY_FORMAT = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_RANDOM_LENGTH}}$`);
/** `last_used_at` is written at most this often per key, to keep writes off the hot path. */
const LAST_USED_RESOLUTION_MS = MINUTE;

type ApiKeyRow = typeof apiKeys.$inferSelect;

async function newKeyMaterial() {
  const plaintext = KEY_PREFIX + randomBase62(KEY_RANDOM_LENGTH);
  return { plaintext, prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH), keyHash: await sha256Hex(plaintext) };
}

/** The name of a key created without one: its prefix, so keys can still be told apart ("Key dr_live_Ab3x"). */
const defaultName = (prefix: string) => `Key ${prefix}`;

export function apiKeyDto(row: ApiKeyRow) {
  // Keys created before names were given by default have none stored.
  return { id: row.id, name: row.name ?? defaultName(row.prefix), prefix: row.prefix, created_at: row.createdAt, last_used_at: row.lastUsedAt };
}

export async function createApiKey(db: Db, userId: string, name: string | null) {
  const { plaintext, prefix, keyHash } = await newKeyMaterial();
  const [row] = await db
    .insert(apiKeys)
    .values({ id: crypto.randomUUID(), userId, name: name ?? defaultName(prefix), prefix, keyHash, createdAt: nowIso() })
    .returning();
  return { row: row!, plaintext };
}

export async function listApiKeys(db: Db, userId: string) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}

const ownLiveKey = (userId: string, id: string) => and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));

/** Revokes a key of `userId`; false when there is no such live key (unknown, revoked, or another user's). */
export async function revokeApiKey(db: Db, userId: string, id: string): Promise<boolean> {
  const revoked = await db.update(apiKeys).set({ revokedAt: nowIso() }).where(ownLiveKey(userId, id)).returning({ id: apiKeys.id });
  verifiedKeys.forgetKey(id);
  return revoked.length > 0;
}

/**
 * Replaces a key's secret in place (same id and name): the old plaintext stops working at once.
 * A default name follows the new prefix.
 */
export async function resetApiKey(db: Db, userId: string, id: string) {
  const { plaintext, prefix, keyHash } = await newKeyMaterial();
  const [row] = await db
    .update(apiKeys)
    .set({
      prefix,
      keyHash,
      createdAt: nowIso(),
      lastUsedAt: null,
      name: sql`case when ${apiKeys.name} is null or ${apiKeys.name} = 'Key ' || ${apiKeys.prefix} then ${defaultName(prefix)} else ${apiKeys.name} end`,
    })
    .where(ownLiveKey(userId, id))
    .returning();
  verifiedKeys.forgetKey(id);
  return row ? { row, plaintext } : null;
}

/**
 * The live key and its owner (without the balance), from this isolate's cache of verified keys
 * when it verified this key less than VERIFIED_KEY_TTL_MS ago, else in one D1 query; null for
 * anything that is not a live key.
 */
export async function authenticateApiKey(db: Db, presented: string): Promise<VerifiedKey | null> {
  if (!KEY_FORMAT.test(presented)) return null;
  const cached = verifiedKeys.get(presented);
  if (cached) return cached;
  const keyHash = await sha256Hex(presented);
  const found = await db
    .select({ keyId: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt, user: callerColumns })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .get();
  if (!found) return null;
  verifiedKeys.set(presented, found);
  return found;
}

/** Records use of a key unless it was recorded less than a minute ago; null when nothing to write. */
export function touchApiKey(db: Db, key: VerifiedKey): Promise<unknown> | null {
  const now = Date.now();
  if (key.lastUsedAt && now - Date.parse(key.lastUsedAt) < LAST_USED_RESOLUTION_MS) return null;
  // The cached key remembers the write, so a busy key is written once a minute, not once a request.
  key.lastUsedAt = new Date(now).toISOString();
  return db.update(apiKeys).set({ lastUsedAt: key.lastUsedAt }).where(eq(apiKeys.id, key.keyId));
}
