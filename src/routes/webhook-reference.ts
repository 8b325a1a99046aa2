import { z } from "@hono/zod-openapi";
import { type createRouter, NO_SECURITY } from "../http/openapi";
import { ResearchResultDto } from "../research/service";
import { DELIVERY_TIMEOUT_MS } from "../webhooks/signing";
import { DELIVERY_HEADERS, WEBHOOK_EVENT } from "../webhooks/headers";
import { researchResultExample } from "./research-examples";

/**
 * The document's `webhooks` entry (OpenAPI 3.1): what the service POSTs to a job's
 * `webhook_url`, so a customer's generated types and the reference describe the delivery as they
 * describe an operation. Headers and event name come from webhooks/headers.ts, which delivery.ts
 * sends; the body is the job's result, the same shape as GET /v1/research/{id}.
 */
export function registerWebhookReference(app: ReturnType<typeof createRouter>): void {
  const headers = z.object(Object.fromEntries(Object.entries(DELIVERY_HEADERS).map(([name, value]) => [name, z.string().openapi({ description: value })])));
  app.openAPIRegistry.registerWebhook({
    method: "post",
    path: WEBHOOK_EVENT,
    operationId: "researchCompletedWebhook",
    tags: ["Research"],
    // The service calls you: no credentials of yours; the signature header proves who sent it.
    security: NO_SECURITY,
    summary: "A job ended (sent to your webhook_url)",
    description:
      "Sent to the `webhook_url` of a job when it reaches a terminal status (succeeded, failed or cancelled). The body is the job's result, exactly as `GET /v1/research/{id}` answers it. Verify `X-Service-Signature` over the raw body before trusting it (see Webhooks in the guide).",
    request: {
      headers,
      body: { required: true, content: { "application/json": { schema: ResearchResultDto, example: researchResultExample } } },
    },
    responses: {
      200: {
        description: `Any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds acknowledges the delivery; anything else, or no answer, is retried with backoff.`,
      },
    },
  });
}
