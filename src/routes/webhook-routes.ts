import { createRoute } from "@hono/zod-openapi";
import { type createRouter, errorResponses, jsonBody, jsonResponse } from "../http/openapi";
import { ApiError } from "../lib/errors";
import { WebhookSendResultDto, WebhookTestRequestDto } from "../research/service";
import { sendTestEvent } from "../webhooks/delivery";
import { webhookDestinationRefusal } from "../webhooks/destination";
import { accountLimitNote, withLimitState } from "../http/account-limit-docs";
import { limitPerAccount } from "../middleware/account-rate-limit";

const sendResultExample = {
  delivery_id: "test_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
  event: "webhook.test",
  status_code: 200,
  error: null,
  duration_ms: 182,
};

/** The 429 of the per-account limit on what we send (test events and delivery resends). */
export const OUTBOUND_LIMITED = "Too many test events and delivery resends for this account; retry later.";

/** POST {path}: send the account a `webhook.test` event now (the same route on /v1 and on the dashboard API). */
export function addWebhookTestRoute(
  router: ReturnType<typeof createRouter>,
  surface: { path: string; operationId: string; tags: string[]; security: { [scheme: string]: string[] }[]; note: string },
): void {
  router.openapi(
    createRoute({
      method: "post",
      path: surface.path,
      operationId: surface.operationId,
      tags: surface.tags,
      security: surface.security,
      summary: "Send a test webhook event",
      description:
        "POSTs a `webhook.test` event to `url` now, signed like every delivery (`X-Service-Signature` and the Standard Webhooks headers) with your signing secret, and answers what your endpoint said. One attempt, not retried; its body is `{ type, job_id: null, created_at, data }`. The URL follows the rules of `webhook_url` (400 otherwise). Free." +
        accountLimitNote("account:outbound", "test events and delivery resends together, from the API and the dashboard,") +
        surface.note,
      // Each call is a request we send: per account on both surfaces, or a key would get round the dashboard's limit.
      middleware: [limitPerAccount("account:outbound", OUTBOUND_LIMITED)] as const,
      request: { body: jsonBody(WebhookTestRequestDto, { url: "https://example.com/hooks/research" }) },
      responses: {
        200: withLimitState(
          jsonResponse(WebhookSendResultDto, "The attempt's outcome (a failing endpoint is still 200: see status_code and error)", sendResultExample),
        ),
        ...errorResponses("invalid_request", "unauthorized", "rate_limited"),
      },
    }),
    async (c) => {
      const { url } = c.req.valid("json");
      const { deps } = c.var;
      const refusal = await webhookDestinationRefusal(url, deps.config);
      if (refusal) throw ApiError.invalid(`Invalid request: ${refusal.problem}.`);
      return c.json(await sendTestEvent(deps.db, deps.env, c.get("user").id, url), 200);
    },
  );
}
