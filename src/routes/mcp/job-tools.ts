import { z } from "@hono/zod-openapi";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, desc, eq, type SQL } from "drizzle-orm";
import { JOB_STATUSES, researchJobs } from "../../db/schema/jobs";
import { oauthConnectionJobs } from "../../db/schema/oauth";
import { IdParam, validationError } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { cancelJob, getJob, listJobs, ownJobListColumns, researchLogRow } from "../../research/service";
import { balanceDto, getBalance } from "../../services/ledger";
import type { McpCaller } from "./caller";
import { assertConnectionJob } from "./connection-cap";
import { researchToolResult } from "./deep-research";
import { resultText } from "./format";
import { asTool, toolResult } from "./tool-results";

/**
 * get_research, list_research, cancel_research and get_credits: the calls of GET/DELETE
 * /v1/research/{id}, GET /v1/research and GET /v1/credits, with their checks and owner scoping
 * (another account's job is not found). Arguments carry types; the REST schemas apply the rules.
 */

function parsed<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export const JobIdInput = {
  id: z.string().describe("The job's id (a UUID), as deep_research or list_research gave it."),
};

export const ListInput = {
  status: z.enum(JOB_STATUSES).optional().describe("Only jobs in this status."),
  limit: z.number().int().optional().describe("How many jobs, newest first: 1 to 100, default 20."),
  offset: z.number().int().optional().describe("How many of the newest jobs to skip (for the next page), default 0."),
};

export function getResearch(caller: McpCaller) {
  return ({ id }: { id: string }): Promise<CallToolResult> =>
    asTool(async () => {
      const jobId = parsed(IdParam, { id }).id;
      await assertConnectionJob(caller, jobId);
      return researchToolResult(await getJob(caller.deps, caller.user.id, jobId));
    });
}

export function cancelResearch(caller: McpCaller) {
  return ({ id }: { id: string }): Promise<CallToolResult> =>
    asTool(async () => {
      const jobId = parsed(IdParam, { id }).id;
      await assertConnectionJob(caller, jobId);
      const result = await cancelJob(caller.deps, caller.user.id, jobId);
      // A job that had already finished comes back unchanged: not an error, but the text says
      // first what the cancel did, so a model never reports a cancel that arrived too late as done.
      return toolResult(`${result.cancel_message}\n\n${resultText(result)}`, result);
    });
}

export function listResearch(caller: McpCaller) {
  return (args: { status?: (typeof JOB_STATUSES)[number]; limit?: number; offset?: number }): Promise<CallToolResult> =>
    asTool(async () => {
      // The query-string rules of GET /v1/research, so the limits and their messages are the same.
      const page = parsed(PagingQuery, {
        limit: args.limit === undefined ? undefined : String(args.limit),
        offset: args.offset === undefined ? undefined : String(args.offset),
      });
      const rows = caller.connection
        ? await listConnectionJobs(caller, { ...page, status: args.status })
        : await listJobs(caller.deps, caller.user.id, { ...page, status: args.status, origin: "api" });
      const jobs = rows.map(researchLogRow);
      return toolResult(JSON.stringify(jobs), { jobs });
    });
}

export function getCredits(caller: McpCaller) {
  // Read now, never from the caller's identity (which an isolate may hold for a few seconds).
  return (): Promise<CallToolResult> =>
    asTool(async () => {
      const balance = balanceDto(await getBalance(caller.deps.db, caller.user.id));
      return toolResult(JSON.stringify(balance), balance);
    });
}

/** Through an OAuth connection, list_research lists the jobs that connection started, newest first. */
function listConnectionJobs(caller: McpCaller, page: { limit: number; offset: number; status?: (typeof JOB_STATUSES)[number] }) {
  const connectionId = caller.connection?.id ?? "";
  const where: SQL[] = [eq(oauthConnectionJobs.connectionId, connectionId), eq(researchJobs.userId, caller.user.id)];
  if (page.status) where.push(eq(researchJobs.status, page.status));
  return caller.deps.db
    .select(ownJobListColumns)
    .from(oauthConnectionJobs)
    .innerJoin(researchJobs, eq(researchJobs.id, oauthConnectionJobs.jobId))
    .where(and(...where))
    .orderBy(desc(researchJobs.createdAt), desc(researchJobs.id))
    .limit(page.limit)
    .offset(page.offset);
}
