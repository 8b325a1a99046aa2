import { createRoute } from "@hono/zod-openapi";
import { createRouter, errorResponses, IdParam, JWT_SECURITY, jsonBody, jsonResponse } from "../../lib/openapi";
import { jwtAuth } from "../../middleware/jwt-auth";
import { ResearchRequestSchema } from "../../research/request";
import { jobEvents, jobResult, ownJob, submit } from "../research-handlers";
import { AsyncAcceptedDto, IdempotencyHeader, ResearchResultDto, SSE_RESPONSE } from "../research-schemas";

const tags = ["Playground"];
const security = JWT_SECURITY;
export const playgroundRoutes = createRouter();
playgroundRoutes.use("*", jwtAuth);

playgroundRoutes.openapi(
  createRoute({
    method: "post",
    path: "/research",
    tags,
    security,
    summary: "Run research from the dashboard (same engine and charges as /v1/research)",
    request: { body: jsonBody(ResearchRequestSchema), headers: IdempotencyHeader },
    responses: {
      200: jsonResponse(ResearchResultDto, "Finished synchronously"),
      202: jsonResponse(AsyncAcceptedDto, "Accepted"),
      ...errorResponses("invalid_request", "impossible_budget", "unauthorized", "insufficient_credits", "idempotency_conflict", "idempotency_key_reused"),
    },
  }),
  async (c) => {
    const response = await submit(c, c.req.valid("json"), "playground", "/api/playground/research");
    return response.status === 200 ? c.json(response.body, 200) : c.json(response.body, 202);
  },
);

playgroundRoutes.openapi(
  createRoute({
    method: "get",
    path: "/research/{id}",
    tags,
    security,
    summary: "A playground (or API) job of yours",
    request: { params: IdParam },
    responses: { 200: jsonResponse(ResearchResultDto, "The job"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => c.json(await jobResult(c, await ownJob(c, c.req.valid("param").id)), 200),
);

playgroundRoutes.openapi(
  createRoute({
    method: "get",
    path: "/research/{id}/events",
    tags,
    security,
    summary: "Stream a job's progress over Server-Sent Events (for the dashboard)",
    request: { params: IdParam },
    responses: { 200: SSE_RESPONSE, ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => jobEvents(c, await ownJob(c, c.req.valid("param").id)) as never,
);
