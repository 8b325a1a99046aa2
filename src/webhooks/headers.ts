/**
 * What a webhook delivery carries besides its body, written once: delivery.ts must send exactly
 * these (its header record is typed by them), and the guide's table and the document's
 * `webhooks` entry describe them from here.
 */

/**
 * The events a request may ask for (`webhook_events`), in the order of a job's life. A request
 * without `webhook_events` gets today's one delivery, `research.completed`, whatever the terminal
 * status; with it, the terminal event names the status (completed = succeeded).
 */
export const LIFECYCLE_EVENTS = ["research.started", "research.progress", "research.completed", "research.failed", "research.cancelled"] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];
/** The event an account sends itself (`POST /v1/webhooks/test`). */
export const TEST_EVENT = "webhook.test";
/** A monitor's run found something changed since its previous run (issue 45; src/monitors/). */
export const MONITOR_CHANGED = "monitor.changed";
export type WebhookEvent = LifecycleEvent | typeof TEST_EVENT | typeof MONITOR_CHANGED;

/** The delivery of a request that does not send `webhook_events`: a job reached a terminal status. */
export const WEBHOOK_EVENT = "research.completed";

/** What each event means (the reference's `webhooks` entry and the guide). */
export const EVENT_DESCRIPTIONS: Record<WebhookEvent, string> = {
  "research.started": "The job started running (status `running`).",
  "research.progress": "The job's progress: at most one per research wave and at most one every 10 seconds.",
  "research.completed":
    "The job succeeded. Without `webhook_events` (the default) it is sent for every terminal status (succeeded, failed or cancelled), as before lifecycle events.",
  "research.failed": "The job failed (only when `webhook_events` lists it; the default sends `research.completed` instead).",
  "research.cancelled": "The job was cancelled (only when `webhook_events` lists it; the default sends `research.completed` instead).",
  "webhook.test": "A test event the account sent itself (`POST /v1/webhooks/test`).",
  "monitor.changed":
    "A monitor's run finished and something changed since its previous succeeded run (sources added or gone, the short answer, claims added or withdrawn); sent to the monitor's `webhook_url`, never when nothing changed.",
};

export const DELIVERY_HEADERS = {
  "X-Service-Signature": "`sha256=` and the hex HMAC-SHA256 of the **raw** request body, keyed with your signing secret (the whole `whsec_…` string)",
  "X-Service-Event":
    "the event: `research.completed`, `research.started`, `research.progress`, `research.failed`, `research.cancelled`, `webhook.test` or `monitor.changed`",
  "X-Service-Delivery":
    "the delivery id (the job id for a job's terminal delivery, `<job id>:monitor.changed` for a monitor's run): the same on every retry, so use it to ignore duplicates",
  "X-Service-Timestamp": "Unix seconds when this attempt was sent",
  "webhook-id": "Standard Webhooks: the delivery id (same value as `X-Service-Delivery`), the same on every retry",
  "webhook-timestamp": "Standard Webhooks: Unix seconds when this attempt was sent (signed)",
  "webhook-signature":
    "Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part of your secret after `whsec_`",
} as const;

export type DeliveryHeader = keyof typeof DELIVERY_HEADERS;
