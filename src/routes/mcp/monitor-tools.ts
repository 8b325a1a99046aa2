import { z } from "@hono/zod-openapi";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { IdParam, validationError } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { MonitorCreateSchema } from "../../monitors/shapes";
import { createMonitor, listMonitors, listRuns } from "../../monitors/store";
import type { McpCaller } from "./caller";
import { toolResult, asTool } from "./tool-results";

/**
 * create_monitor, list_monitors and list_monitor_runs: the calls of POST /v1/monitors, GET
 * /v1/monitors and GET /v1/monitors/{id}/runs, with the REST schemas' rules and owner scoping.
 * Offered with an API key only: a monitor spends on its own schedule, which an OAuth
 * connection's credit cap (held per job it starts) does not cover.
 */

function parsed<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export const CreateMonitorInput = {
  question: z.string().describe("The question to research again on the schedule."),
  mode: z.enum(["lite", "standard", "pro", "max"]).optional().describe("The mode of each run (its price): default standard."),
  every: z.string().optional().describe('Run every N hours or days: "6h", "1d" (1h to 30d). Give this or cron.'),
  cron: z.string().optional().describe('Or a cron expression, UTC, at most hourly (its minute one number): "0 9 * * 1-5".'),
  webhook_url: z.string().optional().describe("Where to POST monitor.changed when a run finds something changed."),
  max_credits_per_run: z.number().int().optional().describe("The most one run may cost (required in max mode)."),
  collections: z.array(z.string()).optional().describe("Search these collections of the account instead of the default search space."),
};

const PageInput = {
  limit: z.number().int().optional().describe("How many, newest first: 1 to 100, default 20."),
  offset: z.number().int().optional().describe("How many of the newest to skip (for the next page), default 0."),
};
export const ListMonitorsInput = PageInput;
export const MonitorRunsInput = { id: z.string().describe("The monitor's id, as create_monitor or list_monitors gave it."), ...PageInput };

const page = (args: { limit?: number; offset?: number }) =>
  parsed(PagingQuery, {
    limit: args.limit === undefined ? undefined : String(args.limit),
    offset: args.offset === undefined ? undefined : String(args.offset),
  });

type CreateArgs = { [K in keyof typeof CreateMonitorInput]?: z.infer<(typeof CreateMonitorInput)[K]> };

export function createMonitorTool(caller: McpCaller) {
  return (args: CreateArgs): Promise<CallToolResult> =>
    asTool(async () => {
      const { every, cron, ...rest } = args;
      const body = parsed(MonitorCreateSchema, {
        ...rest,
        schedule: { ...(every !== undefined ? { every } : {}), ...(cron !== undefined ? { cron } : {}) },
      });
      const monitor = await createMonitor(caller.deps, caller.user, caller.apiKeyId, body);
      const text = `Monitor ${monitor.id} created: ${monitor.credits_per_run} credits a run, first run within a minute, then ${
        monitor.schedule.every ? `every ${monitor.schedule.every}` : `at ${monitor.schedule.cron} (UTC)`
      }. list_monitor_runs shows each run and what changed.`;
      return toolResult(text, monitor);
    });
}

export function listMonitorsTool(caller: McpCaller) {
  return (args: { limit?: number; offset?: number }): Promise<CallToolResult> =>
    asTool(async () => {
      const monitors = await listMonitors(caller.deps, caller.user.id, page(args));
      return toolResult(JSON.stringify(monitors), { monitors });
    });
}

export function listMonitorRunsTool(caller: McpCaller) {
  return (args: { id: string; limit?: number; offset?: number }): Promise<CallToolResult> =>
    asTool(async () => {
      const id = parsed(IdParam, { id: args.id }).id;
      const runs = await listRuns(caller.deps, caller.user.id, id, page(args));
      return toolResult(JSON.stringify(runs), { runs });
    });
}
