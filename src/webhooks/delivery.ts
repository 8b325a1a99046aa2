import { and, asc, eq, gte, lt, lte, max } from "drizzle-orm";
import { z } from "zod";
import { createDb, type Db } from "../db/client";
import { researchJobs, webhookDeliveries, webhookOutbox } from "../db/schema/jobs";
import { monitorRuns } from "../db/schema/monitors";
import { type Env, loadConfig } from "../env";
import { checkedMessages } from "../lib/queue-messages";
import { MINUTE, nowIso, SECOND } from "../lib/time";
import { webhookSecret } from "./secrets";
import { DELIVERY_TIMEOUT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySecs, signatureHeader, standardSignatureHeader } from "./signing";
import { webhookDestinationRefusal } from "./destination";
import { type DeliveryHeader, MONITOR_CHANGED, WEBHOOK_EVENT, type WebhookEvent } from "./headers";

/**
 * A queue message: make an attempt of this delivery (checked on receipt). `deliveryId` is absent
 * for a job's terminal delivery (whose id is the job id; messages queued before lifecycle events
 * have none). `attempt` is the attempt number its first delivery makes (1 when enqueued, more when
 * the sweep re-sent a delivery); each queue retry of the message makes the next one.
 */
const WebhookMessage = z.object({ jobId: z.string().min(1), deliveryId: z.string().min(1).optional(), attempt: z.number().int().min(1).optional() });
export type WebhookMessage = z.infer<typeof WebhookMessage>;

/**
 * While an attempt is in progress its delivery is not due for this long: an attempt takes at most
 * DELIVERY_TIMEOUT_MS, so a delivery still claimed after this one died with its runtime.
 */
const ATTEMPT_LEASE_MS = 30 * SECOND;
/**
 * How late past its due time a pending delivery must be before the sweep re-sends it: the queue's
 * own retry normally comes on time, and the sweep must not race it (a race is harmless, only
 * wasteful: one of the two attempts finds its number already taken and skips).
 */
export const WEBHOOK_SWEEP_MARGIN_MS = MINUTE;

const iso = (ms: number) => new Date(ms).toISOString();

/** One delivery to enqueue: the terminal one by default (id = job id, body = the job's result). */
export interface OutgoingDelivery {
  jobId: string;
  /** Default: the job id (the terminal delivery). */
  deliveryId?: string;
  /** Default: research.completed. */
  event?: WebhookEvent;
  /** Default (null): the job's final result, read from its row at each attempt. */
  body?: string | null;
}

/**
 * The body of a non-terminal event (and of the test event): a small envelope. A terminal event's
 * body is the job's result, as it always was.
 */
export function eventEnvelope(type: WebhookEvent, jobId: string | null, data: unknown, now = Date.now()): string {
  return JSON.stringify({ type, job_id: jobId, created_at: iso(now), data });
}

/**
 * Records a delivery as pending in the webhook outbox (D1), then queues its first attempt.
 * Idempotent per delivery id: a settlement that is retried adds no second delivery (its extra
 * message finds attempt 1 taken and skips). The outbox row is what makes the delivery durable: if
 * the message is lost, the sweep finds the delivery due and sends it again.
 */
export async function enqueueWebhook(env: Env, delivery: OutgoingDelivery, now = Date.now()): Promise<void> {
  const db = createDb(env.DB);
  const deliveryId = delivery.deliveryId ?? delivery.jobId;
  await db
    .insert(webhookOutbox)
    .values({
      deliveryId,
      jobId: delivery.jobId,
      event: delivery.event ?? WEBHOOK_EVENT,
      body: delivery.body ?? null,
      state: "pending",
      attempts: 0,
      nextAttemptAt: iso(now),
      updatedAt: iso(now),
    })
    .onConflictDoNothing();
  await env.WEBHOOK_DELIVERIES.send({ jobId: delivery.jobId, ...(deliveryId === delivery.jobId ? {} : { deliveryId }) } satisfies WebhookMessage);
}

type AttemptResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retry: boolean };

/** What one attempt sends: where, what, and as which delivery of which event. */
export interface DeliveryTarget {
  userId: string;
  url: string;
  deliveryId: string;
  event: WebhookEvent;
  body: string;
}

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

/** The outbox row of a delivery and what its attempts send (null: nothing to send). */
async function deliveryTarget(db: Db, deliveryId: string): Promise<{ jobId: string; target: DeliveryTarget | null } | null> {
  const row = await db
    .select({
      jobId: webhookOutbox.jobId,
      event: webhookOutbox.event,
      body: webhookOutbox.body,
      userId: researchJobs.userId,
      jobUrl: researchJobs.webhookUrl,
      result: researchJobs.resultJson,
      // A monitor's `monitor.changed` goes to the monitor's webhook_url (kept on its run), not the job's.
      monitorUrl: monitorRuns.webhookUrl,
    })
    .from(webhookOutbox)
    .innerJoin(researchJobs, eq(researchJobs.id, webhookOutbox.jobId))
    .leftJoin(monitorRuns, eq(monitorRuns.jobId, webhookOutbox.jobId))
    .where(eq(webhookOutbox.deliveryId, deliveryId))
    .get();
  if (!row) return null;
  const body = row.body ?? row.result;
  const url = row.event === MONITOR_CHANGED ? row.monitorUrl : row.jobUrl;
  if (!url || !body) return { jobId: row.jobId, target: null };
  return { jobId: row.jobId, target: { userId: row.userId, url, deliveryId, event: row.event as WebhookEvent, body } };
}

/** Records one attempt of a delivery (GET /research/{id}/deliveries lists them). */
async function recordAttempt(db: Db, jobId: string, deliveryId: string, event: string, attempt: number, started: number, result: AttemptResult) {
  await db.insert(webhookDeliveries).values({
    id: crypto.randomUUID(),
    jobId,
    deliveryId,
    event,
    attempt,
    statusCode: result.statusCode,
    error: result.ok ? null : result.error,
    durationMs: Date.now() - started,
    createdAt: nowIso(),
  });
  return result;
}

/** One attempt of a recorded delivery, recorded. */
async function attemptDelivery(db: Db, env: Env, deliveryId: string, attempt: number): Promise<AttemptResult> {
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

/**
 * Takes attempt number `attempt` of a delivery: only when the delivery is still pending and no
 * attempt with this number or a later one has started, so a duplicate message (the queue's
 * at-least-once delivery, a sweep that re-sent what the queue still held) never repeats an attempt
 * and a finished delivery is never sent again.
 */
async function claimAttempt(db: Db, jobId: string, deliveryId: string, attempt: number, now: number): Promise<boolean> {
  const claimed = await db
    .update(webhookOutbox)
    .set({ attempts: attempt, nextAttemptAt: iso(now + ATTEMPT_LEASE_MS), updatedAt: iso(now) })
    .where(and(eq(webhookOutbox.deliveryId, deliveryId), eq(webhookOutbox.state, "pending"), lt(webhookOutbox.attempts, attempt)))
    .returning({ deliveryId: webhookOutbox.deliveryId });
  if (claimed.length > 0) return true;
  // A message queued before the outbox existed has no row: its delivery (the terminal one) starts being recorded here.
  const row = await db.select({ deliveryId: webhookOutbox.deliveryId }).from(webhookOutbox).where(eq(webhookOutbox.deliveryId, deliveryId)).get();
  if (row || deliveryId !== jobId) return false;
  const job = await db.select({ id: researchJobs.id }).from(researchJobs).where(eq(researchJobs.id, jobId)).get();
  if (!job) return false;
  const inserted = await db
    .insert(webhookOutbox)
    .values({ deliveryId, jobId, state: "pending", attempts: attempt, nextAttemptAt: iso(now + ATTEMPT_LEASE_MS), updatedAt: iso(now) })
    .onConflictDoNothing()
    .returning({ deliveryId: webhookOutbox.deliveryId });
  return inserted.length > 0;
}

/**
 * Makes attempt number `attempt` of a job's delivery, if it is still to be made (else `skipped`),
 * and records in the outbox what comes next: done, given up, or the next attempt's due time.
 */
async function deliverWebhook(db: Db, env: Env, jobId: string, deliveryId: string, attempt: number): Promise<AttemptResult | { skipped: true }> {
  if (!(await claimAttempt(db, jobId, deliveryId, attempt, Date.now()))) return { skipped: true };
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
      const deliveryId = message.body.deliveryId ?? message.body.jobId;
      try {
        const result = await deliverWebhook(db, env, message.body.jobId, deliveryId, attempt);
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
        body: { jobId: row.jobId, ...(row.deliveryId === row.jobId ? {} : { deliveryId: row.deliveryId }), attempt: row.attempts + 1 } satisfies WebhookMessage,
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

export async function listDeliveries(db: Db, jobId: string) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.jobId, jobId))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.attempt));
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
