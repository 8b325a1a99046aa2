import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { emailTokens } from "../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { HOUR, isoAfter, nowIso } from "../lib/time";

/** Tokens sent by email: single use, stored hashed, short-lived. */
const EMAIL_TOKEN_TTL_MS = {
  verify_email: 48 * HOUR,
  reset_password: 1 * HOUR,
} as const;

export type EmailTokenPurpose = keyof typeof EMAIL_TOKEN_TTL_MS;

export async function createEmailToken(db: Db, userId: string, purpose: EmailTokenPurpose): Promise<string> {
  const token = randomToken();
  await db.insert(emailTokens).values({
    id: crypto.randomUUID(),
    userId,
    purpose,
    tokenHash: await sha256Hex(token),
    createdAt: nowIso(),
    expiresAt: isoAfter(EMAIL_TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/**
 * Spends a token in one conditional update (right purpose, unused, unexpired), so two
 * concurrent uses cannot both succeed. Answers the user id, or null for any invalid token.
 */
export async function consumeEmailToken(db: Db, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  const now = nowIso();
  const spent = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, await sha256Hex(token)), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning({ userId: emailTokens.userId });
  return spent[0]?.userId ?? null;
}
