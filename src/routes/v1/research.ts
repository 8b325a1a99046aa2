import { peek, pageWithLink } from "../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { API_KEY_SECURITY, createRouter, errorResponses, pageResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { listJobs, ResearchLogRowDto, researchLogRow } from "../../research/service";
import { StatusFilter } from "../research-http";
import { addResearchRoutes } from "../research-routes";
import { researchLogExample } from "../research-examples";
import { addWebhookTestRoute } from "../webhook-routes";
import { addPlanRoute } from "./plans";

const tags = ["Research"];
const security = API_KEY_SECURITY;
export const v1ResearchRoutes = createRouter();

addResearchRoutes(v1ResearchRoutes, {
  origin: "api",
  basePath: "/v1/research",
  tags,
  security,
  submitSummary: "Research a question",
  operationNoun: "Research",
  surfaceNote: "",
});
addPlanRoute(v1ResearchRoutes, { basePath: "/v1/research", tags, security, operationNoun: "Research", surfaceNote: "" });

v1ResearchRoutes.openapi(
  createRoute({
    method: "get",
    path: "/research",
    operationId: "listResearch",
    tags,
    security,
    summary: "List your research jobs",
    description:
      "Lists the jobs your API keys started (the dashboard's playground jobs are in the dashboard's log), newest first, with their figures but without briefs: read a job for its brief. Filter by `status`; page with `limit` and `offset`. Free.",
    request: { query: PagingQuery.extend(StatusFilter.shape) },
    responses: {
      200: pageResponse(z.array(ResearchLogRowDto), "Jobs, newest first", researchLogExample),
      ...errorResponses("invalid_request", "unauthorized"),
    },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const rows = await listJobs(c.get("deps"), c.get("user").id, { ...peek(query), origin: "api" });
    return c.json(pageWithLink(c, rows, query).map(researchLogRow), 200);
  },
);

addWebhookTestRoute(v1ResearchRoutes, { path: "/webhooks/test", operationId: "sendWebhookTest", tags, security, note: "" });
