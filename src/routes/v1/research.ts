import { createRoute, z } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, IdParam, jsonResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { cancelJob, DeliveryDto, jobDeliveries, listJobs, ResearchLogRowDto, ResearchResultDto, researchLogRow } from "../../research/service";
import { StatusFilter } from "../research-http";
import { addResearchRoutes } from "../research-routes";

const tags = ["Public API"];
const security = API_KEY_SECURITY;
export const v1ResearchRoutes = createRouter();

addResearchRoutes(v1ResearchRoutes, {
  origin: "api",
  basePath: "/v1/research",
  tags,
  security,
  submitSummary: "Research a question: 200 with the result (short jobs) or 202 with where to follow it",
});


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
    const rows = await listJobs(c.var.deps, c.var.user.id, { ...query, origin: "api" });
    return c.json(rows.map(researchLogRow), 200);
  },
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
  async (c) => c.json(await cancelJob(c.var.deps, c.var.user.id, c.req.valid("param").id), 200),
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
  async (c) => c.json(await jobDeliveries(c.var.deps, c.var.user.id, c.req.valid("param").id), 200),
);
