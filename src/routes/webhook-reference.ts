import { z } from "@hono/zod-openapi";
import { type createRouter, NO_SECURITY } from "../http/openapi";
import { ResearchProgressDto, ResearchResultDto } from "../research/service";
import { DELIVERY_TIMEOUT_MS } from "../webhooks/signing";
import { DELIVERY_HEADERS, EVENT_DESCRIPTIONS, type WebhookEvent } from "../webhooks/headers";
import { researchResultExample } from "./research-examples";
import { MonitorChangedEventData } from "../monitors/shapes";

/** The body of a non-terminal event (started, progress) and of the test event. */
function envelope(type: WebhookEvent, data: z.ZodType, name: string) {
  return z
    .object({
      type: z.literal(type).openapi({ description: "The event (the same as `X-Service-Event`)." }),
      job_id: (type === "webhook.test" ? z.null() : z.string()).openapi({ description: "The job (null for a test event)." }),
      created_at: z.iso.datetime().openapi({ description: "When the event happened (UTC)." }),
      data: data.openapi({ description: "What happened: see the event." }),
    })
    .openapi(name, { description: `The body of \`${type}\`.` });
}

const ENVELOPES = {
  "research.started": envelope(
    "research.started",
    z.object({ status: z.literal("running").openapi({ description: "The job's status." }) }),
    "WebhookStartedEvent",
  ),
  "research.progress": envelope("research.progress", ResearchProgressDto, "WebhookProgressEvent"),
  "webhook.test": envelope("webhook.test", z.object({ message: z.string().openapi({ description: "A sentence saying this is a test." }) }), "WebhookTestEvent"),
  "monitor.changed": envelope("monitor.changed", MonitorChangedEventData, "WebhookMonitorChangedEvent"),
} as const;

const OPERATION_IDS: Record<WebhookEvent, string> = {
  "research.started": "researchStartedWebhook",
  "research.progress": "researchProgressWebhook",
  "research.completed": "researchCompletedWebhook",
  "research.failed": "researchFailedWebhook",
  "research.cancelled": "researchCancelledWebhook",
  "webhook.test": "webhookTestWebhook",
  "monitor.changed": "monitorChangedWebhook",
};

/**
 * The document's `webhooks` entry (OpenAPI 3.1), one per event: what the service POSTs to a
 * job's `webhook_url`, so a customer's generated types and the reference describe each delivery
 * as they describe an operation. Headers and event names come from webhooks/headers.ts, which
 * webhooks/send.ts sends; a terminal event's body is the job's result (GET /v1/research/{id}), the
 * others' a small envelope.
 */
export function registerWebhookReference(app: ReturnType<typeof createRouter>): void {
  const headers = z.object(Object.fromEntries(Object.entries(DELIVERY_HEADERS).map(([name, value]) => [name, z.string().openapi({ description: value })])));
  for (const [event, operationId] of Object.entries(OPERATION_IDS) as [WebhookEvent, string][]) {
    const terminal = !(event in ENVELOPES);
    const content = terminal ? { schema: ResearchResultDto, example: researchResultExample } : { schema: ENVELOPES[event as keyof typeof ENVELOPES] };
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: event,
      operationId,
      tags: ["Research"],
      // The service calls you: no credentials of yours; the signature headers prove who sent it.
      security: NO_SECURITY,
      summary: `${event} (sent to your webhook_url)`,
      description: `${EVENT_DESCRIPTIONS[event]} ${
        terminal ? "The body is the job's result, exactly as `GET /v1/research/{id}` answers it." : "The body is `{ type, job_id, created_at, data }`."
      } Verify \`X-Service-Signature\` or the Standard Webhooks \`webhook-signature\` over the raw body before trusting it (see Webhooks in the guide).`,
      request: { headers, body: { required: true, content: { "application/json": content } } },
      responses: {
        200: {
          description: `Any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds acknowledges the delivery; anything else, or no answer, is retried with backoff.`,
        },
      },
    });
  }
}
