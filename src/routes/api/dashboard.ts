import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { DAY } from "../../lib/time";
import { jwtAuth } from "../../middleware/jwt-auth";
import { JobSummaryDto, listJobs, logRow, recentJob, usageBuckets } from "../../research/service";
import { StatusFilter } from "../research-http";

const security = JWT_SECURITY;
// Mounted at /api, so auth is per route: a blanket use("*") would turn unknown /api paths into 401s.
export const dashboardRoutes = createRouter();
const middleware = [jwtAuth];

/** How many jobs the dashboard's "recent" card shows. */
const RECENT_JOBS = 10;
/** The widest usage window one request may ask for. */
const MAX_USAGE_DAYS = 366;

const RecentJobDto = JobSummaryDto.omit({ cost_usd_micros: true }).openapi("RecentJob");
const UsageBucketDto = z
  .object({ day: z.iso.datetime(), credits: z.int(), jobs: z.int(), cost_usd_micros: z.int() })
  .openapi("UsageBucket");
const LogRowDto = JobSummaryDto.extend({
  mode: z.string().nullable(),
  source_count: z.int().nullable(),
  wave_count: z.int().nullable(),
}).openapi("LogRow");

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/recent",
    tags: ["Dashboard"],
    security,
    middleware,
    summary: `Your ${RECENT_JOBS} most recent jobs (API and playground)`,
    responses: { 200: jsonResponse(z.array(RecentJobDto), "Jobs, newest first"), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listJobs(c.var.deps, c.var.user.id, { limit: RECENT_JOBS, offset: 0 })).map(recentJob), 200),
);

const Datetime = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 date-time` })
    .optional()
    .openapi({ param: { name, in: "query" } });

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/usage",
    tags: ["Dashboard"],
    security,
    middleware,
    summary: "Daily UTC usage buckets between from and to (default: the last 30 days), zero-filled",
    request: { query: z.object({ from: Datetime("from"), to: Datetime("to") }) },
    responses: { 200: jsonResponse(z.array(UsageBucketDto), "One bucket per day, oldest first"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY);
    if (from.getTime() >= to.getTime()) throw ApiError.invalid("Invalid request: from must be before to.");
    if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY) throw ApiError.invalid(`Invalid request: at most ${MAX_USAGE_DAYS} days at a time.`);
    return c.json(await usageBuckets(c.var.deps.db, c.var.user.id, from, to), 200);
  },
);

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/logs",
    tags: ["Dashboard"],
    security,
    middleware,
    summary: "Your job log (API and playground), newest first; status filters it, anonymize=true redacts the questions",
    request: {
      query: PagingQuery.extend(StatusFilter.shape).extend({
        anonymize: z
          .enum(["true", "false"], { error: "anonymize must be true or false" })
          .optional()
          .openapi({ param: { name: "anonymize", in: "query" } }),
      }),
    },
    responses: { 200: jsonResponse(z.array(LogRowDto), "Jobs"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const rows = await listJobs(c.var.deps, c.var.user.id, query);
    return c.json(rows.map((row) => logRow(row, query.anonymize === "true")), 200);
  },
);
