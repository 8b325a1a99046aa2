import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookSecrets } from "../db/schema/jobs";
import { randomBytes } from "../lib/crypto";
import { nowIso } from "../lib/time";

/**
 * A new signing secret: `whsec_` and the standard base64 of 32 random bytes, the Standard Webhooks
 * format (its key is the decoded bytes), so off-the-shelf verifiers take it as it is. Secrets made
 * earlier are base64url; signing.ts reads both.
 */
function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...randomBytes(32)))}`;
}

/**
 * The account's webhook signing secret, created on first use. It is stored readable (not hashed):
 * the service signs with it and the account needs to read it to verify signatures.
 */
export async function webhookSecret(db: Db, userId: string): Promise<string> {
  await db.insert(webhookSecrets).values({ userId, secret: newSecret(), createdAt: nowIso() }).onConflictDoNothing();
  const row = await db.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId)).get();
  return row!.secret;
}

/** Replaces the secret; deliveries signed from now on use the new one. */
export async function rotateWebhookSecret(db: Db, userId: string): Promise<string> {
  const secret = newSecret();
  await db
    .insert(webhookSecrets)
    .values({ userId, secret, createdAt: nowIso() })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: { secret, createdAt: nowIso() } });
  return secret;
}
