import type { Db } from "../db/client";
import { outboxEmails } from "../db/schema";
import type { Config } from "../env";
import { and, eq, lte } from "drizzle-orm";
import { HOUR, isoAfter, MINUTE, nowIso } from "../lib/time";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The one way the service sends email. */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

interface DeliveryProvider {
  name: string;
  /** Delivers once, as `key` (the outbox row's id): a retry with the same key is never a second email. */
  deliver(message: EmailMessage, key: string): Promise<{ messageId: string }>;
}

const RESEND_ENDPOINT = "https://api.resend.com/emails";
/** Each attempt's wait for an answer: three of them and the pauses between fit the 30 s a deferred task has after its response. */
const PROVIDER_TIMEOUT_MS = 8_000;
/**
 * Resend refuses a request without a User-Agent with 403 (error 1010), and a Worker's fetch sends
 * none (https://resend.com/docs/api-reference/introduction#user-agent).
 */
const USER_AGENT = "deep-research-service/0.1 (+https://github.com/deep-research)";
/** Attempts of one delivery, and the waits between them (a 429's Retry-After when it says more, capped). */
export const EMAIL_ATTEMPTS = 3;
const RETRY_WAITS_MS = [1_000, 4_000];
const MAX_RETRY_AFTER_MS = 10_000;

/** A provider's answer worth asking again: rate limited (429), its own failure (5xx), or no answer at all. */
class RetryableDelivery extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email), with the
 * Idempotency-Key it honours for 24 hours (https://resend.com/docs/dashboard/emails/idempotency-keys):
 * the outbox row's id, so a retried send is answered with the first email's id, never sent twice.
 */
function resendProvider(apiKey: string, from: string): DeliveryProvider {
  return {
    name: "resend",
    async deliver(message, key) {
      let response: Response;
      try {
        response = await fetch(RESEND_ENDPOINT, {
          method: "POST",
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", "User-Agent": USER_AGENT, "Idempotency-Key": `email/${key}` },
          body: JSON.stringify({ from, to: [message.to], subject: message.subject, text: message.text }),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        throw new RetryableDelivery(`Resend did not answer: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = (await response.json().catch(() => ({}))) as { id?: string; message?: string };
      if (response.ok && body.id) return { messageId: body.id };
      const problem = `Resend answered ${response.status}: ${body.message ?? "no message id"}`;
      if (response.status === 429 || response.status >= 500) throw new RetryableDelivery(problem, retryAfterMs(response.headers.get("Retry-After")));
      // Any other 4xx (a bad key, an unverified sender, a refused address) fails the same way every time.
      throw new Error(problem);
    },
  };
}

function retryAfterMs(header: string | null): number | null {
  const seconds = Number(header);
  return header !== null && Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : null;
}

/** How a delivery ended: the provider's id, or the last error and whether asking again later may help. */
type Delivery = { ok: true; messageId: string; attempts: number } | { ok: false; error: unknown; retryable: boolean; attempts: number };

/** Delivers with up to `tries` attempts on retryable answers, waiting between them. Never throws. */
async function deliverWithRetries(
  provider: DeliveryProvider,
  message: EmailMessage,
  key: string,
  sleep: (ms: number) => Promise<void>,
  tries = EMAIL_ATTEMPTS,
): Promise<Delivery> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, ...(await provider.deliver(message, key)), attempts: attempt };
    } catch (error) {
      const retryable = error instanceof RetryableDelivery;
      if (!retryable || attempt >= tries) return { ok: false, error, retryable, attempts: attempt };
      await sleep(error.retryAfterMs ?? RETRY_WAITS_MS[attempt - 1] ?? RETRY_WAITS_MS.at(-1)!);
    }
  }
}

/**
 * The cron sweep's retries of an email whose every attempt failed on a 429, a 5xx or no answer:
 * one request per sweep, after these waits (by sweep retries made), each with the same
 * Idempotency-Key. The last is due 22 h 20 min after the first send, inside Resend's 24 hours
 * of the key (https://resend.com/docs/dashboard/emails/idempotency-keys), so a send that did land
 * before is answered with its id, never sent twice; past EMAIL_RETRY_WINDOW_MS none is made.
 */
const SWEEP_RETRY_DELAYS_MS = [5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];
export const EMAIL_SWEEP_RETRIES = SWEEP_RETRY_DELAYS_MS.length;
/** Resend's 24 hours of an Idempotency-Key, less an hour for clocks and requests in flight. */
export const EMAIL_RETRY_WINDOW_MS = 23 * HOUR;
/** Emails one sweep sends at most: an outage must not make one cron run send every email at once. */
const EMAIL_SWEEP_BATCH = 25;

/** The row's fields after a delivery: sent, failed for good, or failed with the sweep's next attempt (null when none is left). */
function outcomeFields(delivery: Delivery, attemptsBefore: number, sweepRetriesDone: number, createdAt: string, now: number) {
  const attempts = attemptsBefore + delivery.attempts;
  if (delivery.ok) return { deliveryStatus: "sent", providerMessageId: delivery.messageId, deliveryError: null, attempts, nextAttemptAt: null };
  const delay = SWEEP_RETRY_DELAYS_MS[sweepRetriesDone];
  const next = delivery.retryable && delay !== undefined ? now + delay : null;
  const inWindow = next !== null && next - Date.parse(createdAt) <= EMAIL_RETRY_WINDOW_MS;
  const why = String(delivery.error);
  // A 4xx other than 429 and an email the sweep will send again keep the provider's words; one given up says so.
  const error =
    !delivery.retryable || inWindow
      ? why
      : `${why} (given up after ${attempts} attempts${next === null ? "" : ": past Resend's 24 hours of its Idempotency-Key"})`;
  return { deliveryStatus: "failed", deliveryError: error.slice(0, 500), attempts, nextAttemptAt: inWindow ? new Date(next).toISOString() : null };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Records every message in the outbox table (admins read it; local development needs nothing
 * else) and, when a provider is configured, delivers it too. The provider call runs in the
 * background (`defer`) so a slow provider never slows or fails the request that sent the email;
 * a 429, a 5xx or no answer is tried again (EMAIL_ATTEMPTS, with the row's id as the
 * Idempotency-Key), and the outcome is written back to the outbox row; when all of them failed
 * that way, the cron sweep (sweepFailedEmails) tries again later.
 */
function outboxSender(db: Db, provider: DeliveryProvider | null, defer: (work: Promise<unknown>) => void, sleep: (ms: number) => Promise<void>): EmailSender {
  return {
    async send(message) {
      const id = crypto.randomUUID();
      const createdAt = nowIso();
      await db.insert(outboxEmails).values({ id, ...message, provider: provider?.name ?? null, createdAt });
      if (!provider) return;
      defer(
        deliverWithRetries(provider, message, id, sleep).then((delivery) => {
          if (!delivery.ok) console.error(`email ${id} to provider ${provider.name} failed`, delivery.error);
          return db
            .update(outboxEmails)
            .set(outcomeFields(delivery, 0, 0, createdAt, Date.now()))
            .where(eq(outboxEmails.id, id));
        }),
      );
    },
  };
}

/** `sleep` is the wait between attempts (tests pass one that does not wait). */
export function createEmailSender(db: Db, config: Config, defer: (work: Promise<unknown>) => void, sleep: (ms: number) => Promise<void> = pause): EmailSender {
  const provider = config.RESEND_API_KEY ? resendProvider(config.RESEND_API_KEY, config.EMAIL_FROM) : null;
  return outboxSender(db, provider, defer, sleep);
}

/**
 * The cron sweep: each `failed` email whose next attempt is due is claimed (its next attempt moved
 * on, so an overlapping sweep skips it) and sent once more with its Idempotency-Key. A 4xx other
 * than 429 is never due (its next attempt is null): it stays failed with its error.
 */
export async function sweepFailedEmails(db: Db, config: Config, now = Date.now()): Promise<{ sent: number; failed: number; givenUp: number }> {
  const outcome = { sent: 0, failed: 0, givenUp: 0 };
  if (!config.RESEND_API_KEY) return outcome;
  const provider = resendProvider(config.RESEND_API_KEY, config.EMAIL_FROM);
  const nowValue = new Date(now).toISOString();
  const due = and(eq(outboxEmails.deliveryStatus, "failed"), lte(outboxEmails.nextAttemptAt, nowValue));
  const rows = await db.select().from(outboxEmails).where(due).orderBy(outboxEmails.nextAttemptAt).limit(EMAIL_SWEEP_BATCH);
  for (const row of rows) {
    const sweepRetriesDone = Math.max(0, row.attempts - EMAIL_ATTEMPTS);
    // Past the key's window (or a row whose schedule ran out): not sent, not due again.
    if (now - Date.parse(row.createdAt) > EMAIL_RETRY_WINDOW_MS || sweepRetriesDone >= EMAIL_SWEEP_RETRIES) {
      const error = `${row.deliveryError ?? "failed"} (given up after ${row.attempts} attempts: past Resend's 24 hours of its Idempotency-Key)`;
      await db
        .update(outboxEmails)
        .set({ nextAttemptAt: null, deliveryError: error.slice(0, 500) })
        .where(and(eq(outboxEmails.id, row.id), due));
      outcome.givenUp += 1;
      continue;
    }
    const claimed = await db
      .update(outboxEmails)
      .set({ nextAttemptAt: isoAfter(10 * MINUTE, new Date(now)) })
      .where(and(eq(outboxEmails.id, row.id), due))
      .returning({ id: outboxEmails.id });
    if (claimed.length === 0) continue;
    const delivery = await deliverWithRetries(provider, row, row.id, pause, 1);
    if (!delivery.ok) console.error(`email ${row.id} to provider ${provider.name} failed again (sweep)`, delivery.error);
    const fields = outcomeFields(delivery, row.attempts, sweepRetriesDone + 1, row.createdAt, now);
    await db.update(outboxEmails).set(fields).where(eq(outboxEmails.id, row.id));
    if (delivery.ok) outcome.sent += 1;
    else if (fields.nextAttemptAt) outcome.failed += 1;
    else outcome.givenUp += 1;
  }
  return outcome;
}
