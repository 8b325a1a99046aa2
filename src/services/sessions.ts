import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { refreshTokens, type UserRow, users } from "../db/schema";
import type { Config } from "../env";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { DAY, isoAfter, nowIso } from "../lib/time";
import { issueAccessToken } from "./access-tokens";

/**
 * Sessions. A login starts a family of refresh tokens; every refresh rotates to a new token in
 * the same family. Refresh tokens are opaque, random, stored only as SHA-256, valid 30 days.
 * A rotated token presented again means it leaked (or a client raced itself): the whole family
 * is revoked, which also ends every access token issued for it.
 */
const REFRESH_TOKEN_TTL_MS = 30 * DAY;

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

async function issueRefreshToken(db: Db, userId: string, familyId: string): Promise<string> {
  const token = randomToken("rt_");
  await db.insert(refreshTokens).values({
    id: crypto.randomUUID(),
    familyId,
    userId,
    tokenHash: await sha256Hex(token),
    createdAt: nowIso(),
    expiresAt: isoAfter(REFRESH_TOKEN_TTL_MS),
  });
  return token;
}

export async function startSession(db: Db, config: Config, userId: string): Promise<SessionTokens> {
  const familyId = crypto.randomUUID();
  const refreshToken = await issueRefreshToken(db, userId, familyId);
  return { refreshToken, accessToken: await issueAccessToken(config, { userId, sessionId: familyId }) };
}

async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: nowIso() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every session of a user, except `keepFamilyId` (the one changing its password). */
export async function revokeUserSessions(db: Db, userId: string, keepFamilyId?: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: nowIso() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined));
}

const invalidRefresh = () => ApiError.unauthorized("Invalid or expired refresh token.");

/** Exchanges a refresh token for a new pair; the presented token is spent. */
export async function refreshSession(db: Db, config: Config, presented: string): Promise<SessionTokens & { user: UserRow }> {
  const row = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .get();
  if (!row || row.revokedAt) throw invalidRefresh();
  if (row.rotatedAt) {
    await revokeFamily(db, row.familyId);
    throw ApiError.unauthorized("Refresh token reuse detected; the session has been ended.");
  }
  if (row.expiresAt <= nowIso()) throw invalidRefresh();

  const user = await db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user) throw invalidRefresh();
  if (user.suspendedAt) throw new ApiError("account_suspended", "This account is suspended.");

  // Issue the successor before spending the token. A concurrent refresh that finds the token
  // spent revokes the family, and it can only find it spent after the claim below, so the
  // successor already exists then and is revoked with the rest. (Issued after the claim, it
  // could land after that revocation and outlive the family: a stolen token racing the real
  // client would keep a session.)
  const refreshToken = await issueRefreshToken(db, user.id, row.familyId);

  // Spend the token; if a concurrent refresh spent it first, this is reuse as well.
  const claimed = await db
    .update(refreshTokens)
    .set({ rotatedAt: nowIso() })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily(db, row.familyId);
    throw ApiError.unauthorized("Refresh token reuse detected; the session has been ended.");
  }
  const accessToken = await issueAccessToken(config, { userId: user.id, sessionId: row.familyId });
  return { accessToken, refreshToken, user };
}

/** Logout: ends the session the refresh token belongs to. Unknown tokens are ignored. */
export async function endSession(db: Db, presented: string): Promise<void> {
  const row = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .get();
  if (row) await revokeFamily(db, row.familyId);
}

/** The user behind an access token, only while its session family has a token not revoked. */
export async function findUserWithLiveSession(db: Db, userId: string, familyId: string): Promise<UserRow | undefined> {
  return db
    .select()
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId} and ${refreshTokens.userId} = ${userId} and ${refreshTokens.revokedAt} is null)`,
      ),
    )
    .get();
}
