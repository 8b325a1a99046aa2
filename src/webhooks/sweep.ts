import { and, asc, eq, gte, lte } from "drizzle-orm";
import { createDb } from "../db/client";
import { webhookOutbox } from "../db/schema/jobs";
import type { Env } from "../env";
import { MINUTE } from "../lib/time";
import { iso, type WebhookMessage } from "./outbox";
import { MAX_DELIVERY_ATTEMPTS } from "./signing";

/**
 * How late past its due time a pending delivery must be before the sweep re-sends it: the queue's
 * own retry normally comes on time, and the sweep must not race it (a race is harmless, only
 * wasteful: one of the two attempts finds its number already taken and skips).
 */
export const WEBHOOK_SWEEP_MARGIN_MS = MINUTE;

/**
 * The cron sweep's part for webhooks: every pending delivery whose next attempt is overdue by
 * WEBHOOK_SWEEP_MARGIN_MS (its queue message was lost, e.g. with a local queue at a restart, or
 * its attempt died mid-way) is queued again with the attempt number it is due for; one that has
 * made its last attempt is given up. Returns the delivery ids of both (a terminal delivery's is its job id).
 */
export async function sweepDueWebhooks(env: Env, now = Date.now(), limit = 100): Promise<{ resent: string[]; givenUp: string[] }> {
  const db = createDb(env.DB);
  const due = await db
    .select({ deliveryId: webhookOutbox.deliveryId, jobId: webhookOutbox.jobId, attempts: webhookOutbox.attempts })
    .from(webhookOutbox)
    .where(and(eq(webhookOutbox.state, "pending"), lte(webhookOutbox.nextAttemptAt, iso(now - WEBHOOK_SWEEP_MARGIN_MS))))
    .orderBy(asc(webhookOutbox.nextAttemptAt))
    .limit(limit);
  const resend = due.filter((row) => row.attempts < MAX_DELIVERY_ATTEMPTS);
  const exhausted = due.filter((row) => row.attempts >= MAX_DELIVERY_ATTEMPTS);
  for (const row of exhausted) {
    await db
      .update(webhookOutbox)
      .set({ state: "given_up", updatedAt: iso(now) })
      .where(and(eq(webhookOutbox.deliveryId, row.deliveryId), eq(webhookOutbox.state, "pending"), gte(webhookOutbox.attempts, MAX_DELIVERY_ATTEMPTS)));
  }
  if (resend.length > 0) {
    await env.WEBHOOK_DELIVERIES.sendBatch(
      resend.map((row) => ({
        body: { jobId: row.jobId, deliveryId: row.deliveryId, attempt: row.attempts + 1 } satisfies WebhookMessage,
      })),
    );
    // Not sent again by the next sweeps unless still unclaimed a margin from now.
    for (const row of resend) {
      await db
        .update(webhookOutbox)
        .set({ nextAttemptAt: iso(now), updatedAt: iso(now) })
        .where(and(eq(webhookOutbox.deliveryId, row.deliveryId), eq(webhookOutbox.state, "pending"), eq(webhookOutbox.attempts, row.attempts)));
    }
  }
  return { resent: resend.map((row) => row.deliveryId), givenUp: exhausted.map((row) => row.deliveryId) };
}
