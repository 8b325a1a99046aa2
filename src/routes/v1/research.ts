import { createRoute, z } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, IdParam, jsonResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { listJobs, ResearchLogRowDto, researchLogRow } from "../../research/service";
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
