import { and, eq } from "drizzle-orm";
import { createDb, type Db } from "../db/client";
import { webhookOutbox } from "../db/schema/jobs";
import type { Env } from "../env";
import { checkedMessages } from "../lib/queue-messages";
import { type AttemptResult, claimAttempt, iso, WebhookMessage } from "./outbox";
import { attemptDelivery } from "./send";
import { MAX_DELIVERY_ATTEMPTS, retryDelaySecs } from "./signing";

/**
 * Makes attempt number `attempt` of a job's delivery, if it is still to be made (else `skipped`),
 * and records in the outbox what comes next: done, given up, or the next attempt's due time.
 */
async function deliverWebhook(db: Db, env: Env, deliveryId: string, attempt: number): Promise<AttemptResult | { skipped: true }> {
  if (!(await claimAttempt(db, deliveryId, attempt, Date.now()))) return { skipped: true };
  const result = await attemptDelivery(db, env, deliveryId, attempt);
  const now = Date.now();
  const finished = result.ok ? "delivered" : !result.retry || attempt >= MAX_DELIVERY_ATTEMPTS ? "given_up" : null;
  await db
    .update(webhookOutbox)
    .set(finished ? { state: finished, updatedAt: iso(now) } : { nextAttemptAt: iso(now + retryDelaySecs(attempt) * 1000), updatedAt: iso(now) })
    // Unless a later attempt has started meanwhile (this one outlived its lease): that one decides.
    .where(and(eq(webhookOutbox.deliveryId, deliveryId), eq(webhookOutbox.attempts, attempt)));
  return result;
}

/**
 * Queue consumer of webhook-deliveries: one attempt per message, retried with backoff until the
 * last attempt. The attempt number is the message's first attempt plus its queue retries; an
 * attempt already made or a delivery already finished is skipped (the message acknowledged).
 */
export async function consumeWebhookBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  await Promise.all(
    checkedMessages(batch, WebhookMessage).map(async (message) => {
      const attempt = (message.body.attempt ?? 1) + message.attempts - 1;
      const { deliveryId } = message.body;
      try {
        const result = await deliverWebhook(db, env, deliveryId, attempt);
        if ("skipped" in result || result.ok || !result.retry || attempt >= MAX_DELIVERY_ATTEMPTS) {
          if (!("skipped" in result) && !result.ok && result.retry) console.warn(`webhook ${deliveryId} given up after ${attempt} attempts`);
          message.ack();
        } else {
          message.retry({ delaySeconds: retryDelaySecs(attempt) });
        }
      } catch (error) {
        console.error(`webhook delivery ${deliveryId} crashed`, error);
        message.retry({ delaySeconds: retryDelaySecs(attempt) });
      }
    }),
  );
}
