import { z } from "@hono/zod-openapi";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { AsyncAcceptedDto, CancelResultDto, ResearchLogRowDto, ResearchPlanDto, ResearchQuoteDto, ResearchResultDto } from "../../research/service";
import { BalanceDto } from "../account-schemas";
import type { McpCaller } from "./caller";
import { deepResearch } from "./deep-research";
import { cancelResearch, getCredits, getResearch, JobIdInput, ListInput, listResearch } from "./job-tools";
import { planResearch } from "./plan-research";
import { quoteResearch } from "./quote-research";
import { QuoteArgs, ResearchArgs } from "./research-args";
import { startResearch } from "./start-research";
import { CreateMonitorInput, createMonitorTool, ListMonitorsInput, listMonitorsTool, listMonitorRunsTool, MonitorRunsInput } from "./monitor-tools";
import { MonitorDto, MonitorRunDto } from "../../monitors/shapes";

const INSTRUCTIONS =
  "Deep research with citations, paid in credits from the account of the API key. deep_research runs a job and " +
  "returns the short answer with its confidence (or says the sources do not answer), then a brief whose [n] markers cite the numbered sources; it reports progress while it runs. " +
  "If your tool calls time out before a job can end (pro and max take minutes), start_research returns the job's id at once and get_research reads it. " +
  "quote_research says what a job would cost and whether the balance covers it, without running it. " +
  "get_research, list_research and cancel_research work on your jobs; get_credits shows the balance. " +
  "create_monitor researches a question again on a schedule and list_monitor_runs says what changed between runs.";

const OAUTH_INSTRUCTIONS =
  "Deep research with citations, for the account that connected you, within the credit cap its owner set for this connection (scope research). " +
  "deep_research runs a job and returns the short answer with its confidence (or says the sources do not answer), then a brief whose [n] markers cite the numbered sources; it reports progress while it runs. " +
  "If your tool calls time out before a job can end (pro and max take minutes), start_research returns the job's id at once and get_research reads it. " +
  "quote_research says what a job would cost, without running it. get_research, list_research and cancel_research work on the jobs this connection started. " +
  "A job that would pass the connection's cap is refused (insufficient_credits).";

/**
 * The MCP server of one request: its tools act for `caller`. A new one per request (the endpoint
 * is stateless), so nothing of one caller can reach another's. Tool outputs are the REST shapes.
 * Through an OAuth connection (scope research) the tools run research within its credit cap and
 * read its own jobs; get_credits (the account's balance) is not offered.
 */
export function createMcpServer(caller: McpCaller, version: string): McpServer {
  // JSON Schema checks without code generation (the Workers runtime forbids eval).
  const instructions = caller.connection ? OAUTH_INSTRUCTIONS : INSTRUCTIONS;
  const server = new McpServer({ name: "deep-research", version }, { instructions, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.registerTool(
    "deep_research",
    {
      title: "Deep research",
      description:
        "Research a question across many sources and get a short answer with its confidence (high, medium or low; none when the sources do not answer) " +
        "and a brief in which every claim cites its sources as [n], with the numbered sources and the exact quotes. " +
        "Costs credits by mode (reserved up front; a failed job is refunded; a job whose sources do not address the question pays only its metered work). " +
        "Takes seconds to minutes (the mode's wall clock); progress is reported while it runs, as pages read against the most the job may read. " +
        "If your tool calls time out sooner, use start_research instead.",
      inputSchema: ResearchArgs,
      outputSchema: ResearchResultDto,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    deepResearch(caller),
  );
  server.registerTool(
    "start_research",
    {
      title: "Start deep research",
      description:
        "Start the same research as deep_research (the same arguments and price) but return at once with the job's id, for clients whose tool calls " +
        "time out before a job ends (pro and max take minutes). Then call get_research with the id until its status is succeeded, failed or cancelled.",
      inputSchema: ResearchArgs,
      outputSchema: AsyncAcceptedDto,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    startResearch(caller),
  );
  server.registerTool(
    "quote_research",
    {
      title: "Quote deep research",
      description:
        "What deep_research or start_research with these arguments would cost (the credits reserved, the most it can charge), the limits it would run within " +
        "(waves, searches, pages, seconds), and whether the balance covers it. Nothing is run, reserved or charged.",
      inputSchema: QuoteArgs,
      outputSchema: ResearchQuoteDto,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    quoteResearch(caller),
  );
  server.registerTool(
    "plan_research",
    {
      title: "Plan deep research for review",
      description:
        "The plan deep_research or start_research with these arguments would run: the sub-questions and the first searches, the limits and the price, and a plan_id. " +
        "Show it to the user, edit it if asked, then run it with plan_id (and the edited queries and sub_questions). Nothing is run, reserved or charged; a plan expires in an hour.",
      inputSchema: QuoteArgs,
      outputSchema: ResearchPlanDto,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    planResearch(caller),
  );
  server.registerTool(
    "get_research",
    {
      title: "Get a research job",
      description: "A research job by id: its status, and once finished its brief, sources, citations and cost.",
      inputSchema: JobIdInput,
      outputSchema: ResearchResultDto,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    getResearch(caller),
  );
  server.registerTool(
    "list_research",
    {
      title: "List research jobs",
      description: caller.connection
        ? "The research jobs this connection started, newest first."
        : "Your research jobs started with API keys (here or over the REST API), newest first.",
      inputSchema: ListInput,
      outputSchema: z.object({ jobs: z.array(ResearchLogRowDto) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    listResearch(caller),
  );
  server.registerTool(
    "cancel_research",
    {
      title: "Cancel a research job",
      description:
        "Cancel a pending or running job: charged only for the work already done, the rest given back. A job that finished before the cancel arrived comes back unchanged, with cancel_outcome `already_finished`.",
      inputSchema: JobIdInput,
      outputSchema: CancelResultDto,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    cancelResearch(caller),
  );
  // The account's balance is not the connection's to read (its scope is research only).
  if (caller.connection) return server;
  server.registerTool(
    "get_credits",
    {
      title: "Credit balance",
      description: "The account's credit balance (1 credit = $0.01).",
      outputSchema: BalanceDto,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    getCredits(caller),
  );
  // Monitors spend on their own schedule: with an API key only (a connection's cap is held per job it starts).
  server.registerTool(
    "create_monitor",
    {
      title: "Monitor a question",
      description:
        "Research a question again on a schedule (every N hours or days, or a cron expression at most hourly) and keep what changed between runs: sources added and gone, the short answer, claims added and withdrawn. " +
        "Each run is a research job charged as one (the mode's price); when the balance does not cover a run the monitor pauses itself and charges nothing. The first run starts within a minute.",
      inputSchema: CreateMonitorInput,
      outputSchema: MonitorDto,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    createMonitorTool(caller),
  );
  server.registerTool(
    "list_monitors",
    {
      title: "List monitors",
      description: "Your monitors, newest first: schedule, status (and why one is paused), next run.",
      inputSchema: ListMonitorsInput,
      outputSchema: z.object({ monitors: z.array(MonitorDto) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    listMonitorsTool(caller),
  );
  server.registerTool(
    "list_monitor_runs",
    {
      title: "A monitor's runs and what changed",
      description: "A monitor's runs, newest first: each run's job id, status, charge and diff against the run before (null for the first).",
      inputSchema: MonitorRunsInput,
      outputSchema: z.object({ runs: z.array(MonitorRunDto) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    listMonitorRunsTool(caller),
  );
  return server;
}
