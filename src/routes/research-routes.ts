import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/context";
import { createRouter, errorResponses, IdParam, jsonBody, jsonResponse } from "../http/openapi";
import { AsyncAcceptedDto, cancelJob, DeliveryDto, getJob, jobDeliveries, jobEvents, ResearchRequestSchema, ResearchResultDto, submit } from "../research/service";
import { IdempotencyHeader, SSE_RESPONSE } from "./research-http";

/** Where the research routes are served: /v1 with an API key, or the dashboard's playground with a JWT. */
export interface ResearchSurface {
  origin: "api" | "playground";
  /** The public path of `/research` on this surface (status_url and events_url are built on it). */
  basePath: string;
  tags: string[];
  security: { [scheme: string]: string[] }[];
  submitSummary: string;
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
  const { tags, security } = surface;
  router.openapi(
    createRoute({
      method: "post",
      path: "/research",
      tags,
      security,
      summary: surface.submitSummary,
      request: { body: jsonBody(ResearchRequestSchema), headers: IdempotencyHeader },
      responses: {
        200: jsonResponse(ResearchResultDto, "Finished synchronously (succeeded, or failed and refunded)"),
        202: jsonResponse(AsyncAcceptedDto, "Accepted; poll status_url, stream events_url or wait for the webhook"),
        ...errorResponses(
          "invalid_request",
          "impossible_budget",
          "unauthorized",
          "insufficient_credits",
          "account_suspended",
          "not_found",
          "idempotency_conflict",
          "idempotency_key_reused",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const caller = { user: c.var.user, origin: surface.origin, apiKeyId: surface.origin === "api" ? c.var.apiKeyId : null };
      const response = await submit(c.var.deps, caller, c.req.valid("json"), {
        idempotencyKey: c.req.header("Idempotency-Key"),
        resourceBase: `${new URL(c.req.url).origin}${surface.basePath}`,
      });
      return response.status === 200 ? c.json(response.body, 200) : c.json(response.body, 202);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}",
      tags,
      security,
      summary: "A job: status, brief, typed output, sources, cost, latency, error",
      request: { params: IdParam },
      responses: { 200: jsonResponse(ResearchResultDto, "The job"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await getJob(c.var.deps, c.var.user.id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}/events",
      tags,
      security,
      summary: "Stream the job's progress over Server-Sent Events",
      request: { params: IdParam },
      responses: { 200: SSE_RESPONSE, ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => relay(c, await jobEvents(c.var.deps, c.var.user.id, c.req.valid("param").id, c.req.header("Last-Event-ID"))) as never,
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/research/{id}",
      tags,
      security,
      summary: "Cancel a job: charged only for work already done, the rest refunded (a finished job is returned unchanged)",
      request: { params: IdParam },
      responses: { 200: jsonResponse(ResearchResultDto, "The job"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await cancelJob(c.var.deps, c.var.user.id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/research/{id}/deliveries",
      tags,
      security,
      summary: "Every webhook delivery attempt of a job",
      request: { params: IdParam },
      responses: { 200: jsonResponse(z.array(DeliveryDto), "Attempts, oldest first"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await jobDeliveries(c.var.deps, c.var.user.id, c.req.valid("param").id), 200),
  );
}
