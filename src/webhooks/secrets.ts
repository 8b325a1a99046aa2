import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookSecrets } from "../db/schema/jobs";
import { randomToken } from "../lib/crypto";
import { nowIso } from "../lib/time";

/**
 * The account's webhook signing secret, created on first use. It is stored readable (not hashed):
 * the service signs with it and the account needs to read it to verify signatures.
 */
export async function webhookSecret(db: Db, userId: string): Promise<string> {
  await db
    .insert(webhookSecrets)
    .values({ userId, secret: randomToken("whsec_"), createdAt: nowIso() })
    .onConflictDoNothing();
  const row = await db.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId)).get();
  return row!.secret;
}

/** Replaces the secret; deliveries signed from now on use the new one. */
export async function rotateWebhookSecret(db: Db, userId: string): Promise<string> {
  const secret = randomToken("whsec_");
  await db
    .insert(webhookSecrets)
    .values({ userId, secret, createdAt: nowIso() })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: { secret, createdAt: nowIso() } });
  return secret;
}
