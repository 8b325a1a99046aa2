/**
 * Webhook delivery, as the rest of the service uses it. Its parts:
 * - outbox.ts: the durable record (a delivery enqueued, each attempt claimed and logged);
 * - send.ts: one signed POST (an attempt, a resend on request, the test event);
 * - consumer.ts: the webhook-deliveries queue consumer, one attempt per message, with backoff;
 * - sweep.ts: the cron's part, re-sending a delivery whose queue message was lost.
 */
export { consumeWebhookBatch } from "./consumer";
export { enqueueWebhook, eventEnvelope, listDeliveries, type OutgoingDelivery } from "./outbox";
export { resendDelivery, sendDelivery, sendTestEvent } from "./send";
export { sweepDueWebhooks, WEBHOOK_SWEEP_MARGIN_MS } from "./sweep";
