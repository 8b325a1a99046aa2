import { createRoute, z } from "@hono/zod-openapi";
import { peek, pageWithLink } from "../../http/next-page";
import { API_KEY_SECURITY, createRouter, errorResponses, JWT_SECURITY, IdParam, jsonBody, jsonResponse, pageResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { createMonitor, deleteMonitor, getMonitor, listMonitors, listRuns, runMonitorNow, updateMonitor } from "../../monitors/store";
import { MonitorCreateSchema, MonitorDto, MonitorRunDto, MonitorUpdateSchema } from "../../monitors/shapes";
import { monitorCreateExample, monitorExample, monitorRunExample } from "./monitors-examples";

/** Where the monitor routes are served: /v1 with an API key, or the dashboard's /api with a JWT. */
export interface MonitorSurface {
  tags: string[];
  security: { [scheme: string]: string[] }[];
  /** The operationIds' qualifier: `createMonitor` on /v1, `createDashboardMonitor` in the dashboard. */
  qualifier: "" | "Dashboard";
}

const Deleted = z
  .object({ deleted: z.literal(true).openapi({ description: "Always true: the monitor is gone." }) })
  .openapi("MonitorDeleted", { description: "A monitor deleted." });

/** The monitor operations on one surface (the same handlers; an account's monitors are the same on both). */
export function addMonitorRoutes(router: ReturnType<typeof createRouter>, surface: MonitorSurface): void {
  const { tags, security, qualifier: q } = surface;
  router.openapi(
    createRoute({
      method: "post",
      path: "/monitors",
      operationId: `create${q}Monitor`,
      tags,
      security,
      summary: "Monitor a question",
      description:
        "Researches `question` again on `schedule` (every N hours or days, `1h` to `30d`, or a cron expression at most hourly, UTC) and keeps every run with what changed since the run before: sources added and gone (by URL), the short answer (before and now), and claims added and withdrawn. " +
        "The first run starts within a minute (the baseline), then the schedule goes on from each run; runs missed while the service was down are made once, not once per missed time. " +
        "Each run is a research job of `mode`, reserved and charged like `POST /v1/research`; when the balance does not cover a run, nothing runs or is charged and the monitor pauses itself (`paused_reason`: `insufficient_credits`). " +
        "With `webhook_url`, a run that found something changed POSTs `monitor.changed` there, signed like every webhook; an unchanged run sends nothing. " +
        "The body is checked like a submit of its runs (400 `invalid_request` and `impossible_budget`, 404 for a collection that is not yours), and nothing is written on a refusal. Creating a monitor is free.",
      request: { body: jsonBody(MonitorCreateSchema, monitorCreateExample) },
      responses: {
        201: jsonResponse(MonitorDto, "The monitor", monitorExample),
        ...errorResponses("invalid_request", "impossible_budget", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await createMonitor(c.get("deps"), c.get("user"), surface.qualifier === "" ? c.get("apiKeyId") : null, c.req.valid("json")), 201),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/monitors",
      operationId: `list${q}Monitors`,
      tags,
      security,
      summary: "List your monitors",
      description: "Your monitors, newest first; page with `limit` and `offset` (the `Link` header gives the next page). Free.",
      request: { query: PagingQuery },
      responses: { 200: pageResponse(z.array(MonitorDto), "Monitors, newest first", [monitorExample]), ...errorResponses("invalid_request", "unauthorized") },
    }),
    async (c) => {
      const query = c.req.valid("query");
      const rows = await listMonitors(c.get("deps"), c.get("user").id, peek(query));
      return c.json(pageWithLink(c, rows, query), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/monitors/{id}",
      operationId: `get${q}Monitor`,
      tags,
      security,
      summary: "Get a monitor",
      description:
        "One of your monitors: its schedule, status (and why it is paused) and when it runs next. Another account's monitor is 404, like an unknown id. Free.",
      request: { params: IdParam },
      responses: { 200: jsonResponse(MonitorDto, "The monitor", monitorExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await getMonitor(c.get("deps"), c.get("user").id, c.req.valid("param").id), 200),
  );

  router.openapi(
    createRoute({
      method: "patch",
      path: "/monitors/{id}",
      operationId: `update${q}Monitor`,
      tags,
      security,
      summary: "Pause, resume or change a monitor",
      description:
        "`status: paused` stops its runs (`paused_reason`: `paused_by_owner`); `status: active` resumes a paused monitor (also one that paused itself: top up first), and a run its schedule missed meanwhile is made once, at once. `schedule`, `webhook_url` and `max_credits_per_run` replace the monitor's. Checked whole before anything is written. Free.",
      request: { params: IdParam, body: jsonBody(MonitorUpdateSchema, { status: "paused" }) },
      responses: {
        200: jsonResponse(MonitorDto, "The monitor as changed", { ...monitorExample, status: "paused", paused_reason: "paused_by_owner", next_run_at: null }),
        ...errorResponses("invalid_request", "impossible_budget", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await updateMonitor(c.get("deps"), c.get("user"), c.req.valid("param").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/monitors/{id}",
      operationId: `delete${q}Monitor`,
      tags,
      security,
      summary: "Delete a monitor",
      description:
        "Deletes a monitor and the record of its runs, for good. A run still going finishes as the research job it is (and is charged as one); its job stays in your jobs. Free.",
      request: { params: IdParam },
      responses: { 200: jsonResponse(Deleted, "Deleted", { deleted: true }), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      await deleteMonitor(c.get("deps"), c.get("user").id, c.req.valid("param").id);
      return c.json({ deleted: true as const }, 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/monitors/{id}/runs",
      operationId: `list${q}MonitorRuns`,
      tags,
      security,
      summary: "List a monitor's runs and what changed",
      description:
        "Every run of the monitor, newest first: its research job, status, what it was charged and, once it succeeded, `diff`: what changed since the monitor's previous succeeded run (null for the first, the baseline). Page with `limit` and `offset`. Free.",
      request: { params: IdParam, query: PagingQuery },
      responses: {
        200: pageResponse(z.array(MonitorRunDto), "Runs, newest first", [monitorRunExample]),
        ...errorResponses("invalid_request", "unauthorized", "not_found"),
      },
    }),
    async (c) => {
      const query = c.req.valid("query");
      const rows = await listRuns(c.get("deps"), c.get("user").id, c.req.valid("param").id, peek(query));
      return c.json(pageWithLink(c, rows, query), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path: "/monitors/{id}/run",
      operationId: `run${q}Monitor`,
      tags,
      security,
      summary: "Run a monitor now",
      description:
        "Starts a run now, whatever the schedule (which goes on unchanged), also on a paused monitor. It is a research job charged as one: 402 `insufficient_credits` when the balance does not cover it, and then nothing runs or is charged and the monitor pauses itself. Follow the run's job with `GET /v1/research/{job_id}`; its diff appears in the runs once it ends.",
      request: { params: IdParam },
      responses: {
        202: jsonResponse(MonitorRunDto, "The run, started", {
          ...monitorRunExample,
          status: "running",
          credits_charged: null,
          changed: null,
          diff: null,
          finished_at: null,
        }),
        ...errorResponses(
          "invalid_request",
          "impossible_budget",
          "unauthorized",
          "insufficient_credits",
          "account_suspended",
          "email_not_verified",
          "not_found",
        ),
      },
    }),
    async (c) => c.json(await runMonitorNow(c.get("deps"), c.get("user"), c.req.valid("param").id), 202),
  );
}

export const v1MonitorRoutes = createRouter();
addMonitorRoutes(v1MonitorRoutes, { tags: ["Monitors"], security: API_KEY_SECURITY, qualifier: "" });

/** The dashboard's (JWT): its Monitors page. */
export const dashboardMonitorRoutes = createRouter();
addMonitorRoutes(dashboardMonitorRoutes, { tags: ["Dashboard"], security: JWT_SECURITY, qualifier: "Dashboard" });
