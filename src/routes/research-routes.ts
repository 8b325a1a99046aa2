import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, IdParam, jsonBody, jsonResponse } from "../lib/openapi";
import { ResearchRequestSchema } from "../research/request";
import { jobEvents, jobResult, ownJob, submit } from "./research-handlers";
import { AsyncAcceptedDto, IdempotencyHeader, ResearchResultDto, SSE_RESPONSE } from "./research-schemas";

/** Where the research routes are served: /v1 with an API key, or the dashboard's playground with a JWT. */
export interface ResearchSurface {
  origin: "api" | "playground";
  /** The public path of `/research` on this surface (status_url and events_url are built on it). */
  basePath: string;
  tags: string[];
  security: { [scheme: string]: string[] }[];
  submitSummary: string;
}

/** POST /research, GET /research/{id} and GET /research/{id}/events: the same on both surfaces. */
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
          "idempotency_conflict",
          "idempotency_key_reused",
          "rate_limited",
        ),
      },
    }),
    async (c) => {
      const response = await submit(c, c.req.valid("json"), surface.origin, surface.basePath);
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
    async (c) => c.json(await jobResult(c, await ownJob(c, c.req.valid("param").id)), 200),
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
    async (c) => jobEvents(c, await ownJob(c, c.req.valid("param").id)) as never,
  );
}
