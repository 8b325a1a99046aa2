/**
 * What a webhook delivery carries besides its body, written once: delivery.ts must send exactly
 * these (its header record is typed by them), and the guide's table and the document's
 * `webhooks` entry describe them from here.
 */

/** The one event delivered today: a job reached a terminal status (succeeded, failed or cancelled). */
export const WEBHOOK_EVENT = "research.completed";

export const DELIVERY_HEADERS = {
  "X-Service-Signature": "`sha256=` and the hex HMAC-SHA256 of the **raw** request body, keyed with your signing secret",
  "X-Service-Event": `\`${WEBHOOK_EVENT}\``,
  "X-Service-Delivery": "the job id: the same on every retry, so use it to ignore duplicates",
  "X-Service-Timestamp": "Unix seconds when this attempt was sent",
} as const;

export type DeliveryHeader = keyof typeof DELIVERY_HEADERS;
