import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { createDb, type Db } from "../db/client";
import { researchJobs, webhookDeliveries } from "../db/schema/jobs";
import { type Env, loadConfig } from "../env";
import { checkedMessages } from "../lib/queue-messages";
import { nowIso } from "../lib/time";
import { webhookSecret } from "./secrets";
import { DELIVERY_TIMEOUT_MS, MAX_DELIVERY_ATTEMPTS, retryDelaySecs, signatureHeader } from "./signing";
import { webhookDestinationRefusal } from "./destination";

/** A queue message: deliver this finished job's result (checked on receipt). */
export const WebhookMessage = z.object({ jobId: z.string().min(1) });
export type WebhookMessage = z.infer<typeof WebhookMessage>;

/** Queues the delivery of a finished job's result to its webhook_url. */
export async function enqueueWebhook(env: Env, jobId: string): Promise<void> {
  await env.WEBHOOK_DELIVERIES.send({ jobId } satisfies WebhookMessage);
}

type AttemptResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string; retry: boolean };

/**
 * One delivery attempt: POST the final ResearchResult, signed, with a 10 s timeout; success on
 * any 2xx; redirects are not followed (a 3xx is a failure); the URL is re-checked first (its host
 * name resolved again outside development), since what was safe at submit may not be now.
 */
export async function attemptDelivery(db: Db, env: Env, jobId: string, attempt: number): Promise<AttemptResult> {
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
        "X-Service-Signature": await signatureHeader(await webhookSecret(db, job.userId), job.body),
        "X-Service-Event": "research.completed",
        "X-Service-Delivery": jobId,
        "X-Service-Timestamp": String(Math.floor(Date.now() / 1000)),
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

/** Queue consumer of webhook-deliveries: one attempt per message, retried with backoff until the last attempt. */
export async function consumeWebhookBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  await Promise.all(
    checkedMessages(batch, WebhookMessage).map(async (message) => {
      const attempt = message.attempts;
      try {
        const result = await attemptDelivery(db, env, message.body.jobId, attempt);
        if (result.ok || !result.retry || attempt >= MAX_DELIVERY_ATTEMPTS) {
          if (!result.ok && result.retry) console.warn(`webhook for job ${message.body.jobId} given up after ${attempt} attempts`);
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

export async function listDeliveries(db: Db, jobId: string) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId)).orderBy(asc(webhookDeliveries.attempt), asc(webhookDeliveries.createdAt));
}
