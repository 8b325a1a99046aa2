import { eq, max } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookDeliveries, webhookOutbox } from "../db/schema/jobs";
import { type Env, loadConfig } from "../env";
import { nowIso } from "../lib/time";
import { webhookDestinationRefusal } from "./destination";
import type { DeliveryHeader } from "./headers";
import { type AttemptResult, type DeliveryTarget, deliveryTarget, eventEnvelope, recordAttempt } from "./outbox";
import { webhookSecret } from "./secrets";
import { DELIVERY_TIMEOUT_MS, signatureHeader, standardSignatureHeader } from "./signing";

/** One signed POST of a delivery: a recorded attempt, a resend on request, and the account's test event. */

/**
 * POSTs one delivery, signed both ways, with a 10 s timeout; success on any 2xx; redirects are not
 * followed (a 3xx is a failure); the URL is re-checked first (its host name resolved again outside
 * development), since what was safe at submit may not be now.
 */
export async function sendDelivery(db: Db, env: Env, target: DeliveryTarget): Promise<AttemptResult> {
  // Resolved again before every attempt: a name that was public at submit may not be now. An
  // internal address is refused for good; a resolver that could not answer is asked again at
  // the next attempt (nothing is sent meanwhile).
  const refusal = await webhookDestinationRefusal(target.url, loadConfig(env));
  if (refusal) return { ok: false, statusCode: null, error: `refused: ${refusal.problem}`, retry: refusal.unresolved };
  try {
    const response = await fetch(target.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: { "Content-Type": "application/json", "User-Agent": "DeepResearch-Webhooks/0.1", ...(await deliveryHeaders(db, target)) },
      body: target.body,
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true, statusCode: response.status };
    return { ok: false, statusCode: response.status, error: `receiver answered ${response.status}`, retry: true };
  } catch (error) {
    const message = error instanceof Error && error.name === "TimeoutError" ? "timed out after 10 s" : String(error);
    return { ok: false, statusCode: null, error: message, retry: true };
  }
}

/** The documented headers of one attempt (webhooks/headers.ts): every one, and no other. */
async function deliveryHeaders(db: Db, target: DeliveryTarget): Promise<Record<DeliveryHeader, string>> {
  const secret = await webhookSecret(db, target.userId);
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    "X-Service-Signature": await signatureHeader(secret, target.body),
    "X-Service-Event": target.event,
    "X-Service-Delivery": target.deliveryId,
    "X-Service-Timestamp": String(timestamp),
    "webhook-id": target.deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await standardSignatureHeader(secret, target.deliveryId, timestamp, target.body),
  };
}

/** One attempt of a recorded delivery, recorded. */
export async function attemptDelivery(db: Db, env: Env, deliveryId: string, attempt: number): Promise<AttemptResult> {
  const found = await deliveryTarget(db, deliveryId);
  if (!found?.target) return { ok: false, statusCode: null, error: "job has no webhook or no result", retry: false };
  const started = Date.now();
  const result = await sendDelivery(db, env, found.target);
  return recordAttempt(db, found.jobId, deliveryId, found.target.event, attempt, started, result);
}

/**
 * Sends a recorded delivery again, now (POST /research/{id}/deliveries/{delivery_id}/resend):
 * the same body, signed afresh (new timestamp), as the attempt after the last one recorded. A 2xx
 * marks the delivery delivered (a pending one is not retried any more); a failure changes nothing
 * else (no retries follow a resend). Null: the job has no such delivery.
 */
export async function resendDelivery(db: Db, env: Env, jobId: string, deliveryId: string) {
  const found = await deliveryTarget(db, deliveryId);
  if (!found || found.jobId !== jobId || !found.target) return null;
  const last = await db
    .select({ attempt: max(webhookDeliveries.attempt) })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.deliveryId, deliveryId))
    .get();
  const outbox = await db.select({ attempts: webhookOutbox.attempts }).from(webhookOutbox).where(eq(webhookOutbox.deliveryId, deliveryId)).get();
  const attempt = Math.max(last?.attempt ?? 0, outbox?.attempts ?? 0) + 1;
  const started = Date.now();
  const result = await recordAttempt(db, jobId, deliveryId, found.target.event, attempt, started, await sendDelivery(db, env, found.target));
  await db
    .update(webhookOutbox)
    .set(result.ok ? { attempts: attempt, state: "delivered", updatedAt: nowIso() } : { attempts: attempt, updatedAt: nowIso() })
    .where(eq(webhookOutbox.deliveryId, deliveryId));
  return {
    delivery_id: deliveryId,
    event: found.target.event,
    attempt,
    status_code: result.statusCode,
    error: result.ok ? null : result.error,
    duration_ms: Date.now() - started,
  };
}

/**
 * Sends the account a `webhook.test` event at `url` now (POST /v1/webhooks/test), signed like any
 * delivery; one attempt, not retried, not recorded (it belongs to no job).
 */
export async function sendTestEvent(db: Db, env: Env, userId: string, url: string) {
  const deliveryId = `test_${crypto.randomUUID()}`;
  const body = eventEnvelope("webhook.test", null, { message: "A test event: your endpoint and signature check work." });
  const started = Date.now();
  const result = await sendDelivery(db, env, { userId, url, deliveryId, event: "webhook.test", body });
  return {
    delivery_id: deliveryId,
    event: "webhook.test" as const,
    status_code: result.statusCode,
    error: result.ok ? null : result.error,
    duration_ms: Date.now() - started,
  };
}
