import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { type createRouter, errorResponses, IdParam, jsonBody, jsonResponse } from "../http/openapi";
import {
  AsyncAcceptedDto,
  CancelResultDto,
  cancelJob,
  quote,
  ResearchQuoteDto,
  DeliveryDto,
  getJob,
  jobDeliveries,
  jobEvents,
  resendJobDelivery,
  WebhookSendResultDto,
  ResearchRequestSchema,
  ResearchResultDto,
  submit,
} from "../research/service";
import { IdempotencyHeader, LastEventIdHeader, SSE_RESPONSE } from "./research-http";
import { accountLimitNote, withLimitState } from "../http/account-limit-docs";
import { limitPerAccount } from "../middleware/account-rate-limit";
import { OUTBOUND_LIMITED } from "./webhook-routes";
import {
  asyncAcceptedExample,
  cancelledResultExample,
  deliveriesExample,
  researchQuoteExample,
  researchRequestExample,
  researchResultExample,
} from "./research-examples";

/** Where the research routes are served: /v1 with an API key, or the dashboard's playground with a JWT. */
export interface ResearchSurface {
  origin: "api" | "playground";
  /** The public path of `/research` on this surface (status_url and events_url are built on it). */
  basePath: string;
  tags: string[];
  security: { [scheme: string]: string[] }[];
  submitSummary: string;
  /** The noun of this surface's operationIds (`createResearch`, `createPlaygroundResearch`): one id per operation and surface. */
  operationNoun: "Research" | "PlaygroundResearch";
  /** A sentence ending each description: how this surface differs (empty on the public API). */
  surfaceNote: string;
}

/** Relays a job object's SSE response through Hono, keeping the headers the middleware set (X-Request-Id). */
export function relay(c: Context<AppEnv>, response: Response) {
  return c.newResponse(response.body, { status: response.status as 200, headers: response.headers });
}

/**
 * A job's routes, the same on both surfaces: submit, read, cancel, events and webhook deliveries.
 * A job is the account's on either surface (the dashboard follows and cancels jobs its keys started).
 */
export function addResearchRoutes(router: ReturnType<typeof createRouter>, surface: ResearchSurface): void {
  const { tags, security, operationNoun: noun } = surface;
  const note = surface.surfaceNote ? ` ${surface.surfaceNote}` : "";
  // The dashboard's submits and quotes are limited per account (what a person does by hand); on
  // /v1 the per-key limit is the contract (docs/decisions.md, "Hardening, round 3").
  const dashboard = surface.origin === "playground";
  const limited = <R extends { description: string }>(response: R) => (dashboard ? withLimitState(response) : response);
  router.openapi(
    createRoute({
      method: "post",
      path: "/research",
      operationId: `create${noun}`,
      tags,
      security,
      summary: surface.submitSummary,
      description:
        "Starts a research job. The mode's price (or `max_credits` in `max` mode) is reserved at once: 402 `insufficient_credits` if the balance is short, 403 `email_not_verified` if the account's email is not verified and the job would spend more than an unverified account may (100 of its signup credits by default), and nothing is written. " +
        "The job answers **200** with its ResearchResult when it can finish within 60 s (succeeded, or failed and refunded), and **202** with `status_url` and `events_url` when `async` is true, `webhook_url` is set or its wall clock exceeds 60 s. " +
        "Send an `Idempotency-Key` to make retries safe. `collections` naming an unknown collection is 404, and an envelope that cannot work is 400 `impossible_budget`." +
        (dashboard ? accountLimitNote("account:research", "submits") : "") +
        note,
      middleware: dashboard ? [limitPerAccount("account:research", "Too many research submits from the dashboard for this account; retry later.")] : [],
      request: { body: jsonBody(ResearchRequestSchema, researchRequestExample), headers: IdempotencyHeader },
      responses: {
        200: limited(jsonResponse(ResearchResultDto, "Finished synchronously (succeeded, or failed and refunded)", researchResultExample)),
        202: limited(
          jsonResponse(AsyncAcceptedDto, "Accepted; poll status_url, stream events_url or wait for the webhook", asyncAcceptedExample(surface.basePath)),
        ),
        ...errorResponses(
          "invalid_request",
          "impossible_budget",
          "unauthorized",
          "insufficient_credits",
          "account_suspended",
          "email_not_verified",
          "not_found",
          "idempotency_conflict",
          "idempotency_key_reused",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const caller = { user: c.get("user"), origin: surface.origin, apiKeyId: surface.origin === "api" ? c.get("apiKeyId") : null };
      const response = await submit(c.get("deps"), caller, c.req.valid("json"), {
        idempotencyKey: c.req.header("Idempotency-Key"),
        resourceBase: `${new URL(c.req.url).origin}${surface.basePath}`,
      });
      return response.status === 200 ? c.json(response.body, 200) : c.json(response.body, 202);
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path: "/research/quote",
      operationId: `quote${noun}`,
      tags,
      security,
      summary: "Price a research request before running it",
      description:
        "Takes the body of `POST " +
        surface.basePath +
        "` and answers what that submit would do, without running, reserving or writing anything: the credits it reserves, the most it can charge, its envelope (waves, searches, pages, wall clock), whether it runs synchronously or asynchronously, and whether your balance (or your paid plan's overage) covers it now. " +
        "The submit's own checks apply (400 `invalid_request` and `impossible_budget`, 404 for an unknown collection); a balance that falls short is not an error here but `covered: false`, with the message the submit's 402 would carry. Free." +
        (dashboard ? accountLimitNote("account:quote", "quotes") : "") +
        note,
      middleware: dashboard ? [limitPerAccount("account:quote", "Too many quotes for this account; retry later.")] : [],
      request: { body: jsonBody(ResearchRequestSchema, researchRequestExample) },
      responses: {
        200: limited(jsonResponse(ResearchQuoteDto, "What the submit would reserve and run", researchQuoteExample)),
        ...errorResponses("invalid_request", "impossible_budget", "unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => c.json(await quote(c.get("deps"), c.get("user"), c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}",
      operationId: `get${noun}`,
      tags,
      security,
      summary: "Get a research job",
      description:
        "Reads one of your jobs, at any point of its life: poll it after a 202 until `status` is `succeeded`, `failed` or `cancelled`. Free. Another account's job is 404, like an unknown id." +
        note,
      request: { params: IdParam },
      responses: { 200: jsonResponse(ResearchResultDto, "The job", researchResultExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await getJob(c.get("deps"), c.get("user").id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}/events",
      operationId: `stream${noun}Events`,
      tags,
      security,
      summary: "Stream a job's progress (Server-Sent Events)",
      description:
        "Follows a job live: its status changes, progress through the waves, each source as it is read, and finally the result, after which the stream ends. A finished job streams its whole history at once. Reconnect with `Last-Event-ID` to resume where you were. Free." +
        note,
      request: { params: IdParam, headers: LastEventIdHeader },
      responses: { 200: SSE_RESPONSE, ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => relay(c, await jobEvents(c.get("deps"), c.get("user").id, c.req.valid("param").id, c.req.header("Last-Event-ID"))) as never,
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/research/{id}",
      operationId: `cancel${noun}`,
      tags,
      security,
      summary: "Cancel a research job",
      description:
        "Stops a pending or running job. It ends `cancelled` and costs the work already done (`ceil(cost_usd × 100)` credits, never more than was reserved); the rest of the reservation goes back to the balance. The answer waits for the running step to stop. " +
        "A job that finished before the cancel arrived (a short job can end in under a second) is returned unchanged, still 200: `cancel_outcome` is then `already_finished` and `cancel_message` says how it ended and what it was charged, so a cancel that lost the race is never mistaken for one that won. " +
        "A job whose submit is still starting it answers 503 `service_unavailable` with `Retry-After`." +
        note,
      request: { params: IdParam },
      responses: {
        200: jsonResponse(CancelResultDto, "The job as the cancel left it, and what the cancel did", cancelledResultExample),
        ...errorResponses("invalid_request", "unauthorized", "not_found", "service_unavailable"),
      },
    }),
    async (c) => c.json(await cancelJob(c.get("deps"), c.get("user").id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}/deliveries",
      operationId: `list${noun}Deliveries`,
      tags,
      security,
      summary: "List a job's webhook deliveries",
      description:
        "Lists each attempt to POST the job's result to its `webhook_url`, oldest first: what your endpoint answered, or why it could not be reached. Empty for a job without a webhook or not finished yet. Failed deliveries are retried with exponential backoff (8 attempts over about 2 hours). Free." +
        note,
      request: { params: IdParam },
      responses: {
        200: jsonResponse(z.array(DeliveryDto), "Attempts, oldest first", deliveriesExample),
        ...errorResponses("invalid_request", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await jobDeliveries(c.get("deps"), c.get("user").id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "post",
      path: "/research/{id}/deliveries/{delivery_id}/resend",
      operationId: `resend${noun}Delivery`,
      tags,
      security,
      summary: "Resend a webhook delivery",
      description:
        "POSTs a delivery of the job (its `delivery_id` from the deliveries list) to the job's `webhook_url` again, now: the same body and delivery id, signed afresh (new timestamp and signatures), recorded as its next attempt. A 2xx marks it delivered (no further retries); the answer is what your endpoint said. One attempt, not retried. Unknown delivery: 404. Free." +
        accountLimitNote("account:outbound", "delivery resends and test events together, from the API and the dashboard,") +
        note,
      // Each call is a request we send: per account on both surfaces, like the test event.
      middleware: [limitPerAccount("account:outbound", OUTBOUND_LIMITED)] as const,
      request: { params: DeliveryParams },
      responses: {
        200: withLimitState(
          jsonResponse(WebhookSendResultDto, "The attempt's outcome (a failing endpoint is still 200: see status_code and error)", {
            delivery_id: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a",
            event: "research.completed",
            attempt: 2,
            status_code: 200,
            error: null,
            duration_ms: 143,
          }),
        ),
        ...errorResponses("invalid_request", "unauthorized", "not_found", "rate_limited"),
      },
    }),
    async (c) => {
      const { id, delivery_id } = c.req.valid("param");
      return c.json(await resendJobDelivery(c.get("deps"), c.get("user").id, id, delivery_id), 200);
    },
  );
}

const DeliveryParams = IdParam.extend({
  delivery_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: "delivery_id", in: "path" },
      description: "A delivery's id, as the deliveries list gives it (URL-encoded).",
      example: "3f0c9a8e-2d4b-4c1e-9f6a-7b8c9d0e1f2a:research.started",
    }),
});
