import { peek, pageWithLink } from "../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse, pageResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { DAY } from "../../lib/time";
import { JobLineageShape, JobSummaryDto, listJobs, logRow, recentJob, usageBuckets } from "../../research/service";
import { StatusFilter } from "../research-http";

const security = JWT_SECURITY;
// The JWT comes from app.ts (middleware/dashboard-auth.ts): every /api route not declared public.
export const dashboardRoutes = createRouter();

/** How many jobs the dashboard's "recent" card shows. */
const RECENT_JOBS = 10;
/** The widest usage window one request may ask for. */
const MAX_USAGE_DAYS = 366;

const RecentJobDto = JobSummaryDto.omit({ cost_usd_micros: true }).openapi("RecentJob", { description: "A recent job, for the dashboard's overview." });
const UsageBucketDto = z
  .object({
    day: z.iso.datetime().openapi({ description: "The UTC day, as its midnight." }),
    credits: z.int().openapi({ description: "Credits charged for the jobs started that day." }),
    jobs: z.int().openapi({ description: "Jobs started that day (API and playground)." }),
    cost_usd_micros: z.int().openapi({ description: "Their metered cost, in micro-USD (millionths of a dollar)." }),
    plans: z.int().openapi({
      description:
        "Reviewable plans made that day (`POST /v1/research/plan`, and the playground's Review plan): free, so counted here, not in `credits`. A plan that then ran is also one of `jobs` on the day it ran.",
      example: 2,
    }),
    monitor_runs: z.int().openapi({
      description:
        "Monitor runs started that day (on schedule or `POST /v1/monitors/{id}/run`). Each is also one of `jobs` (and its credits and cost are in `credits` and `cost_usd_micros`); a run refused for credits starts none and is not counted.",
      example: 1,
    }),
  })
  .openapi("UsageBucket", { description: "One UTC day of usage: jobs, their credits and cost, plans made and monitor runs started." });
const LogRowDto = JobSummaryDto.extend({
  mode: z.string().nullable().openapi({ description: "The job's mode (`lite`, `standard`, `pro` or `max`)." }),
  source_count: z.int().nullable().openapi({ description: "Sources the brief cites; null while the job runs." }),
  wave_count: z.int().nullable().openapi({ description: "Search-and-read waves the job ran; null while it runs." }),
  ...JobLineageShape,
}).openapi("LogRow", {
  description: "A job in the dashboard's log (API and playground), with where it came from: a follow-up, a reviewed plan, a monitor's run.",
});

const logExample = [
  {
    id: "f6ba9db4-5f45-477e-ab6c-85b5085af8b7",
    created_at: "2026-11-23T17:59:49.605Z",
    status: "succeeded",
    question: "How did presidents describe the railroads?",
    credits_charged: 60,
    cost_usd_micros: 87000,
    latency_ms: 1332,
    mode: "standard",
    source_count: 3,
    wave_count: 2,
    previous_job_id: "63b1e89d-8acd-48c3-9508-7482112b2305",
    plan_id: null,
    monitor_id: null,
  },
  {
    id: "63b1e89d-8acd-48c3-9508-7482112b2305",
    created_at: "2026-11-23T17:59:49.149Z",
    status: "succeeded",
    question: "What did presidents say about tariffs in the 1890s?",
    credits_charged: 15,
    cost_usd_micros: 17000,
    latency_ms: 297,
    mode: "lite",
    source_count: 2,
    wave_count: 1,
    previous_job_id: null,
    plan_id: "0b7e1c52-3f0a-4d8e-9a51-6c2f4e8d9b17",
    monitor_id: null,
  },
] as const;

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/recent",
    operationId: "listRecentJobs",
    tags: ["Dashboard"],
    security,
    summary: "List your recent jobs",
    description: `The account's ${RECENT_JOBS} newest jobs, from its API keys and from the playground, for the dashboard's overview.`,
    responses: {
      200: jsonResponse(
        z.array(RecentJobDto),
        "Jobs, newest first",
        logExample.map(
          ({
            cost_usd_micros: _cost,
            mode: _mode,
            source_count: _sources,
            wave_count: _waves,
            previous_job_id: _previous,
            plan_id: _plan,
            monitor_id: _monitor,
            ...job
          }) => job,
        ),
      ),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => c.json((await listJobs(c.get("deps"), c.get("user").id, { limit: RECENT_JOBS, offset: 0 })).map(recentJob), 200),
);

const Datetime = (name: string, description: string, example: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO 8601 date-time` })
    .optional()
    .openapi({ param: { name, in: "query" }, description, example });

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/usage",
    operationId: "getUsage",
    tags: ["Dashboard"],
    security,
    summary: "Get your daily usage",
    description: `Jobs, credits and cost per UTC day, with the plans made and monitor runs started that day, oldest first, one bucket for every day between \`from\` and \`to\` (default: the last 30 days; days without jobs are zero). At most ${MAX_USAGE_DAYS} days at a time; \`from\` must be before \`to\` (400 otherwise).`,
    request: {
      query: z.object({
        from: Datetime("from", "The window's start (ISO 8601 with an offset); its whole UTC day counts. Default: 30 days before `to`.", "2026-11-21T00:00:00Z"),
        to: Datetime("to", "The window's end (ISO 8601 with an offset). Default: now.", "2026-11-24T00:00:00Z"),
      }),
    },
    responses: {
      200: jsonResponse(z.array(UsageBucketDto), "One bucket per day, oldest first", [
        { day: "2026-11-21T00:00:00.000Z", credits: 0, jobs: 0, cost_usd_micros: 0, plans: 0, monitor_runs: 0 },
        { day: "2026-11-22T00:00:00.000Z", credits: 215, jobs: 2, cost_usd_micros: 264000, plans: 1, monitor_runs: 0 },
        { day: "2026-11-23T00:00:00.000Z", credits: 90, jobs: 3, cost_usd_micros: 126000, plans: 0, monitor_runs: 1 },
      ]),
      ...errorResponses("invalid_request", "unauthorized"),
    },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY);
    if (from.getTime() >= to.getTime()) throw ApiError.invalid("Invalid request: from must be before to.");
    if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY) throw ApiError.invalid(`Invalid request: at most ${MAX_USAGE_DAYS} days at a time.`);
    return c.json(await usageBuckets(c.get("deps").db, c.get("user").id, from, to), 200);
  },
);

dashboardRoutes.openapi(
  createRoute({
    method: "get",
    path: "/logs",
    operationId: "listLogs",
    tags: ["Dashboard"],
    security,
    summary: "List your job log",
    description:
      "Every job of the account, from its API keys and from the playground, newest first, with its mode, its figures and where it came from (`previous_job_id`, `plan_id`, `monitor_id`). Filter by `status`; page with `limit` and `offset`. `anonymize=true` replaces each question with `[redacted] (<n> characters)`, for a shared screen.",
    request: {
      query: PagingQuery.extend(StatusFilter.shape).extend({
        anonymize: z
          .enum(["true", "false"], { error: "anonymize must be true or false" })
          .optional()
          .openapi({
            param: { name: "anonymize", in: "query" },
            description: "`true` replaces each question with `[redacted] (<n> characters)`. Default `false`.",
            example: "true",
          }),
      }),
    },
    responses: { 200: pageResponse(z.array(LogRowDto), "Jobs, newest first", [...logExample]), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const rows = pageWithLink(c, await listJobs(c.get("deps"), c.get("user").id, peek(query)), query);
    return c.json(
      rows.map((row) => logRow(row, query.anonymize === "true")),
      200,
    );
  },
);
