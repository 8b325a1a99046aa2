import { and, asc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { createDb, type Db } from "../db/client";
import { researchJobs, webhookDeliveries, webhookOutbox } from "../db/schema/jobs";
import { monitorRuns } from "../db/schema/monitors";
import type { Env } from "../env";
import { nowIso, SECOND } from "../lib/time";
import { MONITOR_CHANGED, WEBHOOK_EVENT, type WebhookEvent } from "./headers";

/**
 * The webhook outbox (D1): every delivery recorded as pending before its first attempt is queued,
 * each attempt claimed by its number (so a duplicate message never repeats one) and recorded in
 * the delivery log (GET /research/{id}/deliveries). The outbox is what makes a delivery durable:
 * a lost queue message is found by the sweep (sweep.ts) and sent again.
 */

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A queue message: make an attempt of this delivery (checked on receipt; one that fails the check
 * is dropped, and the sweep re-sends its delivery from the outbox). `attempt` is the attempt
 * number its first delivery makes (1 when enqueued, more when the sweep re-sent a delivery); each
 * queue retry of the message makes the next one.
 */
export const WebhookMessage = z.object({ jobId: z.string().min(1), deliveryId: z.string().min(1), attempt: z.number().int().min(1).optional() });
export type WebhookMessage = z.infer<typeof WebhookMessage>;

/**
 * While an attempt is in progress its delivery is not due for this long: an attempt takes at most
 * DELIVERY_TIMEOUT_MS, so a delivery still claimed after this one died with its runtime.
 */
export const ATTEMPT_LEASE_MS = 30 * SECOND;

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
  await env.WEBHOOK_DELIVERIES.send({ jobId: delivery.jobId, deliveryId } satisfies WebhookMessage);
}

/** What one attempt sends: where, what, and as which delivery of which event. */
export interface DeliveryTarget {
  userId: string;
  url: string;
  deliveryId: string;
  event: WebhookEvent;
  body: string;
}

export type AttemptResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retry: boolean };

/** The outbox row of a delivery and what its attempts send (null: nothing to send). */
export async function deliveryTarget(db: Db, deliveryId: string): Promise<{ jobId: string; target: DeliveryTarget | null } | null> {
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

/**
 * Takes attempt number `attempt` of a delivery: only when the delivery is still pending and no
 * attempt with this number or a later one has started, so a duplicate message (the queue's
 * at-least-once delivery, a sweep that re-sent what the queue still held) never repeats an attempt
 * and a finished delivery is never sent again.
 */
export async function claimAttempt(db: Db, deliveryId: string, attempt: number, now: number): Promise<boolean> {
  const claimed = await db
    .update(webhookOutbox)
    .set({ attempts: attempt, nextAttemptAt: iso(now + ATTEMPT_LEASE_MS), updatedAt: iso(now) })
    .where(and(eq(webhookOutbox.deliveryId, deliveryId), eq(webhookOutbox.state, "pending"), lt(webhookOutbox.attempts, attempt)))
    .returning({ deliveryId: webhookOutbox.deliveryId });
  return claimed.length > 0;
}

/** Records one attempt of a delivery (GET /research/{id}/deliveries lists them). */
export async function recordAttempt(db: Db, jobId: string, deliveryId: string, event: string, attempt: number, started: number, result: AttemptResult) {
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

export async function listDeliveries(db: Db, jobId: string) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.jobId, jobId))
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.attempt));
}
