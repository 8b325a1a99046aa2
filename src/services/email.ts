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
  deliver(message: EmailMessage): Promise<{ messageId: string }>;
}

const RESEND_ENDPOINT = "https://api.resend.com/emails";
const PROVIDER_TIMEOUT_MS = 10_000;

/** Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email). */
function resendProvider(apiKey: string, from: string): DeliveryProvider {
  return {
    name: "resend",
    async deliver(message) {
      const response = await fetch(RESEND_ENDPOINT, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from, to: [message.to], subject: message.subject, text: message.text }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => ({}))) as { id?: string; message?: string };
      if (!response.ok || !body.id) {
        throw new Error(`Resend answered ${response.status}: ${body.message ?? "no message id"}`);
      }
      return { messageId: body.id };
    },
  };
}

/**
 * Records every message in the outbox table (admins read it; local development needs nothing
 * else) and, when a provider is configured, delivers it too. The provider call runs in the
 * background (`defer`) so a slow provider never slows or fails the request that sent the email;
 * its outcome is written back to the outbox row.
 */
function outboxSender(db: Db, provider: DeliveryProvider | null, defer: (work: Promise<unknown>) => void): EmailSender {
  return {
    async send(message) {
      const id = crypto.randomUUID();
      await db.insert(outboxEmails).values({ id, ...message, provider: provider?.name ?? null, createdAt: nowIso() });
      if (!provider) return;
      defer(
        provider.deliver(message).then(
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

export function createEmailSender(db: Db, config: Config, defer: (work: Promise<unknown>) => void): EmailSender {
  const provider = config.RESEND_API_KEY ? resendProvider(config.RESEND_API_KEY, config.EMAIL_FROM) : null;
  return outboxSender(db, provider, defer);
}
