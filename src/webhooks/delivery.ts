import { and, asc, eq, gte, lt, lte } from "drizzle-orm";
import { z } from "zod";
import { createDb, type Db } from "../db/client";
import { researchJobs, webhookDeliveries, webhookOutbox } from "../db/schema/jobs";
import { type Env, loadConfig } from "../env";
import { checkedMessages } from "../lib/queue-messages";
import { MINUTE, nowIso, SECOND } from "../lib/time";
import { webhookSecret } from "./secrets";
import { DELIVERY_TIMEOUT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySecs, signatureHeader } from "./signing";
import { webhookDestinationRefusal } from "./destination";
import { type DeliveryHeader, WEBHOOK_EVENT } from "./headers";

/**
 * A queue message: deliver this finished job's result (checked on receipt). `attempt` is the
 * attempt number its first delivery makes (1 when the job settled, more when the sweep re-sent a
 * delivery); each queue retry of the message makes the next one.
 */
const WebhookMessage = z.object({ jobId: z.string().min(1), attempt: z.number().int().min(1).optional() });
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

/**
 * Records a finished job's delivery as pending in the webhook outbox (D1), then queues its first
 * attempt. Idempotent: a settlement that is retried adds no second delivery (its extra message
 * finds attempt 1 taken and skips). The outbox row is what makes the delivery durable: if the
 * message is lost, the sweep finds the delivery due and sends it again.
 */
export async function enqueueWebhook(env: Env, jobId: string, now = Date.now()): Promise<void> {
  const db = createDb(env.DB);
  await db
    .insert(webhookOutbox)
    .values({ jobId, state: "pending", attempts: 0, nextAttemptAt: iso(now), updatedAt: iso(now) })
    .onConflictDoNothing();
  await env.WEBHOOK_DELIVERIES.send({ jobId } satisfies WebhookMessage);
}

type AttemptResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retry: boolean };

/**
 * One delivery attempt: POST the final ResearchResult, signed, with a 10 s timeout; success on
 * any 2xx; redirects are not followed (a 3xx is a failure); the URL is re-checked first (its host
 * name resolved again outside development), since what was safe at submit may not be now.
 */
async function attemptDelivery(db: Db, env: Env, jobId: string, attempt: number): Promise<AttemptResult> {
  const job = await db
    .select({ userId: researchJobs.userId, url: researchJobs.webhookUrl, body: researchJobs.resultJson })
    .from(researchJobs)
    .where(eq(researchJobs.id, jobId))
    .get();
  if (!job?.url || !job.body) return { ok: false, statusCode: null, error: "job has no webhook or no result", retry: false };
  const started = Date.now();
  const record = async (result: AttemptResult) => {
    await db.insert(webhookDeliveries).values({
      id: crypto.randomUUID(),
      jobId,
      deliveryId: jobId,
      attempt,
      statusCode: result.statusCode,
      error: result.ok ? null : result.error,
      durationMs: Date.now() - started,
      createdAt: nowIso(),
    });
    return result;
  };
  // Resolved again before every attempt: a name that was public at submit may not be now. An
  // internal address is refused for good; a resolver that could not answer is asked again at
  // the next attempt (nothing is sent meanwhile).
  const refusal = await webhookDestinationRefusal(job.url, loadConfig(env));
  if (refusal) return record({ ok: false, statusCode: null, error: `refused: ${refusal.problem}`, retry: refusal.unresolved });
  try {
    const response = await fetch(job.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "DeepResearch-Webhooks/0.1",
        ...(await deliveryHeaders(db, { userId: job.userId, body: job.body }, jobId)),
      },
      body: job.body,
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return record({ ok: true, statusCode: response.status });
    return record({ ok: false, statusCode: response.status, error: `receiver answered ${response.status}`, retry: true });
  } catch (error) {
    const message = error instanceof Error && error.name === "TimeoutError" ? "timed out after 10 s" : String(error);
    return record({ ok: false, statusCode: null, error: message, retry: true });
  }
}

/**
 * Takes attempt number `attempt` of a job's delivery: only when the delivery is still pending and
 * no attempt with this number or a later one has started, so a duplicate message (the queue's
 * at-least-once delivery, a sweep that re-sent what the queue still held) never repeats an attempt
 * and a finished delivery is never sent again.
 */
async function claimAttempt(db: Db, jobId: string, attempt: number, now: number): Promise<boolean> {
  const claimed = await db
    .update(webhookOutbox)
    .set({ attempts: attempt, nextAttemptAt: iso(now + ATTEMPT_LEASE_MS), updatedAt: iso(now) })
    .where(and(eq(webhookOutbox.jobId, jobId), eq(webhookOutbox.state, "pending"), lt(webhookOutbox.attempts, attempt)))
    .returning({ jobId: webhookOutbox.jobId });
  if (claimed.length > 0) return true;
  // A message queued before the outbox existed has no row: its delivery starts being recorded here.
  const row = await db.select({ jobId: webhookOutbox.jobId }).from(webhookOutbox).where(eq(webhookOutbox.jobId, jobId)).get();
  if (row) return false;
  const job = await db.select({ id: researchJobs.id }).from(researchJobs).where(eq(researchJobs.id, jobId)).get();
  if (!job) return false;
  const inserted = await db
    .insert(webhookOutbox)
    .values({ jobId, state: "pending", attempts: attempt, nextAttemptAt: iso(now + ATTEMPT_LEASE_MS), updatedAt: iso(now) })
    .onConflictDoNothing()
    .returning({ jobId: webhookOutbox.jobId });
  return inserted.length > 0;
}

/**
 * Makes attempt number `attempt` of a job's delivery, if it is still to be made (else `skipped`),
 * and records in the outbox what comes next: done, given up, or the next attempt's due time.
 */
async function deliverWebhook(db: Db, env: Env, jobId: string, attempt: number): Promise<AttemptResult | { skipped: true }> {
  if (!(await claimAttempt(db, jobId, attempt, Date.now()))) return { skipped: true };
  const result = await attemptDelivery(db, env, jobId, attempt);
  const now = Date.now();
  const finished = result.ok ? "delivered" : !result.retry || attempt >= MAX_DELIVERY_ATTEMPTS ? "given_up" : null;
  await db
    .update(webhookOutbox)
    .set(finished ? { state: finished, updatedAt: iso(now) } : { nextAttemptAt: iso(now + retryDelaySecs(attempt) * 1000), updatedAt: iso(now) })
    // Unless a later attempt has started meanwhile (this one outlived its lease): that one decides.
    .where(and(eq(webhookOutbox.jobId, jobId), eq(webhookOutbox.attempts, attempt)));
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
      try {
        const result = await deliverWebhook(db, env, message.body.jobId, attempt);
        if ("skipped" in result || result.ok || !result.retry || attempt >= MAX_DELIVERY_ATTEMPTS) {
          if (!("skipped" in result) && !result.ok && result.retry) console.warn(`webhook for job ${message.body.jobId} given up after ${attempt} attempts`);
          message.ack();
        } else {
          message.retry({ delaySeconds: retryDelaySecs(attempt) });
        }
      } catch (error) {
        console.error(`webhook delivery for job ${message.body.jobId} crashed`, error);
        message.retry({ delaySeconds: retryDelaySecs(attempt) });
      }
    }),
  );
}

/**
 * The cron sweep's part for webhooks: every pending delivery whose next attempt is overdue by
 * WEBHOOK_SWEEP_MARGIN_MS (its queue message was lost, e.g. with a local queue at a restart, or
 * its attempt died mid-way) is queued again with the attempt number it is due for; one that has
 * made its last attempt is given up. Returns the job ids of both.
 */
export async function sweepDueWebhooks(env: Env, now = Date.now(), limit = 100): Promise<{ resent: string[]; givenUp: string[] }> {
  const db = createDb(env.DB);
  const due = await db
    .select({ jobId: webhookOutbox.jobId, attempts: webhookOutbox.attempts })
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
      .where(and(eq(webhookOutbox.jobId, row.jobId), eq(webhookOutbox.state, "pending"), gte(webhookOutbox.attempts, MAX_DELIVERY_ATTEMPTS)));
  }
  if (resend.length > 0) {
    await env.WEBHOOK_DELIVERIES.sendBatch(resend.map((row) => ({ body: { jobId: row.jobId, attempt: row.attempts + 1 } satisfies WebhookMessage })));
    // Not sent again by the next sweeps unless still unclaimed a margin from now.
    for (const row of resend) {
      await db
        .update(webhookOutbox)
        .set({ nextAttemptAt: iso(now), updatedAt: iso(now) })
        .where(and(eq(webhookOutbox.jobId, row.jobId), eq(webhookOutbox.state, "pending"), eq(webhookOutbox.attempts, row.attempts)));
    }
  }
  return { resent: resend.map((row) => row.jobId), givenUp: exhausted.map((row) => row.jobId) };
}

export async function listDeliveries(db: Db, jobId: string) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.jobId, jobId))
    .orderBy(asc(webhookDeliveries.attempt), asc(webhookDeliveries.createdAt));
}

/** The documented headers of one attempt (webhooks/headers.ts): every one, and no other. */
async function deliveryHeaders(db: Db, job: { userId: string; body: string }, jobId: string): Promise<Record<DeliveryHeader, string>> {
  return {
    "X-Service-Signature": await signatureHeader(await webhookSecret(db, job.userId), job.body),
    "X-Service-Event": WEBHOOK_EVENT,
    "X-Service-Delivery": jobId,
    "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
  };
}
