import { createRoute, z } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, IdParam, jsonBody, jsonResponse } from "../../lib/openapi";
import { PagingQuery } from "../../lib/paging";
import { listOwnJobs, researchLogRow } from "../../research/job-store";
import { ResearchRequestSchema } from "../../research/request";
import { listDeliveries } from "../../webhooks/delivery";
import { jobEvents, jobResult, jobStub, ownJob, submit } from "../research-handlers";
import {
  AsyncAcceptedDto,
  DeliveryDto,
  IdempotencyHeader,
  ResearchLogRowDto,
  ResearchResultDto,
  SSE_RESPONSE,
  StatusFilter,
} from "../research-schemas";

const tags = ["Public API"];
const security = API_KEY_SECURITY;
export const v1ResearchRoutes = createRouter();

v1ResearchRoutes.openapi(
  createRoute({
    method: "post",
    path: "/research",
    tags,
    security,
    summary: "Research a question: 200 with the result (short jobs) or 202 with where to follow it",
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
    const response = await submit(c, c.req.valid("json"), "api", "/v1/research");
    return response.status === 200 ? c.json(response.body, 200) : c.json(response.body, 202);
  },
);

v1ResearchRoutes.openapi(
  createRoute({
    method: "get",
    path: "/research",
    tags,
    security,
    summary: "Your research jobs, newest first",
    request: { query: PagingQuery.extend(StatusFilter.shape) },
    responses: { 200: jsonResponse(z.array(ResearchLogRowDto), "Jobs"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const rows = await listOwnJobs(c.var.db, c.var.user.id, { ...query, origin: "api" });
    return c.json(rows.map(researchLogRow), 200);
  },
);

v1ResearchRoutes.openapi(
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

v1ResearchRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/research/{id}",
    tags,
    security,
    summary: "Cancel a job: charged only for work already done, the rest refunded (a finished job is returned unchanged)",
    request: { params: IdParam },
    responses: { 200: jsonResponse(ResearchResultDto, "The job"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => {
    const job = await ownJob(c, c.req.valid("param").id);
    return c.json((await jobStub(c, job.id).cancel()) ?? (await jobResult(c, job)), 200);
  },
);

v1ResearchRoutes.openapi(
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

v1ResearchRoutes.openapi(
  createRoute({
    method: "get",
    path: "/research/{id}/deliveries",
    tags,
    security,
    summary: "Every webhook delivery attempt of a job",
    request: { params: IdParam },
    responses: { 200: jsonResponse(z.array(DeliveryDto), "Attempts, oldest first"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => {
    const job = await ownJob(c, c.req.valid("param").id);
    const rows = await listDeliveries(c.var.db, job.id);
    return c.json(
      rows.map((row) => ({ attempt: row.attempt, status_code: row.statusCode, error: row.error, duration_ms: row.durationMs, created_at: row.createdAt })),
      200,
    );
  },
);
