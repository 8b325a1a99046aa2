import type { Db } from "../db/client";
import { outboxEmails } from "../db/schema";
import type { Config } from "../env";
import { eq } from "drizzle-orm";
import { nowIso } from "../lib/time";

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

/** Delivers with up to EMAIL_ATTEMPTS attempts on retryable answers, waiting between them; the last error otherwise. */
async function deliverWithRetries(
  provider: DeliveryProvider,
  message: EmailMessage,
  key: string,
  sleep: (ms: number) => Promise<void>,
): Promise<{ messageId: string; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await provider.deliver(message, key)), attempts: attempt };
    } catch (error) {
      if (!(error instanceof RetryableDelivery) || attempt >= EMAIL_ATTEMPTS) throw error;
      await sleep(error.retryAfterMs ?? RETRY_WAITS_MS[attempt - 1] ?? RETRY_WAITS_MS.at(-1)!);
    }
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Records every message in the outbox table (admins read it; local development needs nothing
 * else) and, when a provider is configured, delivers it too. The provider call runs in the
 * background (`defer`) so a slow provider never slows or fails the request that sent the email;
 * a 429, a 5xx or no answer is tried again (EMAIL_ATTEMPTS, with the row's id as the
 * Idempotency-Key), and the outcome is written back to the outbox row.
 */
function outboxSender(db: Db, provider: DeliveryProvider | null, defer: (work: Promise<unknown>) => void, sleep: (ms: number) => Promise<void>): EmailSender {
  return {
    async send(message) {
      const id = crypto.randomUUID();
      await db.insert(outboxEmails).values({ id, ...message, provider: provider?.name ?? null, createdAt: nowIso() });
      if (!provider) return;
      defer(
        deliverWithRetries(provider, message, id, sleep).then(
          ({ messageId }) => db.update(outboxEmails).set({ deliveryStatus: "sent", providerMessageId: messageId }).where(eq(outboxEmails.id, id)),
          (error: unknown) => {
            console.error(`email ${id} to provider ${provider.name} failed`, error);
            return db
              .update(outboxEmails)
              .set({ deliveryStatus: "failed", deliveryError: String(error).slice(0, 500) })
              .where(eq(outboxEmails.id, id));
          },
        ),
      );
    },
  };
}

/** `sleep` is the wait between attempts (tests pass one that does not wait). */
export function createEmailSender(db: Db, config: Config, defer: (work: Promise<unknown>) => void, sleep: (ms: number) => Promise<void> = pause): EmailSender {
  const provider = config.RESEND_API_KEY ? resendProvider(config.RESEND_API_KEY, config.EMAIL_FROM) : null;
  return outboxSender(db, provider, defer, sleep);
}
