import { readFile } from "node:fs/promises";
import type { DeepResearch } from "../client.js";
import type { ResearchInput } from "../research.js";
import type { ModePrice, ResearchResult } from "../types.js";
import { type Command, type ResearchRequestArgs, UsageError } from "./args.js";
import { count, credits, seconds } from "./format.js";
import { resultJson, resultMarkdown } from "./markdown.js";
import { EXIT, insufficientCreditsAdvice } from "./messages.js";
import { planText } from "./plan.js";
import { type ProgressOutput, ProgressView } from "./progress.js";
import { quoteText } from "./quote.js";

export interface Io {
  stdout: { write(text: string): unknown };
  stderr: ProgressOutput;
  /** Aborted by Ctrl-C. */
  interrupted: AbortSignal;
}

type ResearchCommand = Extract<Command, { kind: "research" }>;

async function readSchema(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`--schema: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  try {
    const schema = JSON.parse(text) as unknown;
    if (!schema || typeof schema !== "object" || Array.isArray(schema)) throw new Error("not an object");
    return schema as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--schema: ${file} is not a JSON Schema object (${(error as Error).message}).`);
  }
}

/** The summary line on stderr after a result: how it ended, what it cost, how long it took. */
function summary(result: ResearchResult): string {
  const parts = [result.status, `${credits(result.credits_charged)} charged`, `${count(result.sources.length, "source")} cited`];
  if (result.latency_ms !== null) parts.push(seconds(result.latency_ms));
  return `${parts.join(" · ")} · job ${result.id}`;
}

/** The request a research command makes (--quote quotes the same one, `plan` plans it). */
async function researchInput(command: ResearchRequestArgs & Partial<Pick<ResearchCommand, "planId" | "queries" | "subQuestions">>): Promise<ResearchInput> {
  const responseSchema = command.schemaFile ? await readSchema(command.schemaFile) : undefined;
  return {
    mode: command.mode,
    maxCredits: command.maxCredits,
    ...(command.collections.length > 0 && { collections: command.collections, web: command.web }),
    ...(command.previousJob && { previousJobId: command.previousJob }),
    ...(command.includeDomains.length > 0 && { includeDomains: command.includeDomains }),
    ...(command.excludeDomains.length > 0 && { excludeDomains: command.excludeDomains }),
    ...(command.webhookUrl && { webhookUrl: command.webhookUrl }),
    ...(responseSchema && { responseSchema }),
    ...(command.planId && { planId: command.planId }),
    ...(command.queries && { queries: command.queries }),
    ...(command.subQuestions && { subQuestions: command.subQuestions }),
  };
}

export async function runResearch(client: DeepResearch, command: ResearchCommand, io: Io): Promise<number> {
  const input = await researchInput(command);
  // The mode's cap and wave count for the bar, from the public price list; the bar does without.
  const modes: ModePrice[] = await client.modes.list().catch(() => []);
  const view = command.quiet ? null : new ProgressView(io.stderr, modes.find((mode) => mode.mode === command.mode) ?? null, command.maxCredits);
  // Always asynchronous, so there are events to show and a job id for Ctrl-C to cancel.
  const result = await client.research(command.question, {
    ...input,
    async: true,
    signal: io.interrupted,
    onAccepted: (job) => view?.accepted(job, command.mode),
    onEvent: (event) => view?.event(event),
  });
  view?.finish();
  if (command.json) io.stdout.write(resultJson(result));
  if (result.status !== "succeeded") {
    // A job cancelled while it gathered still gives the brief of what it had read, marked partial.
    if (result.partial && result.brief && !command.json) io.stdout.write(resultMarkdown(result));
    const why = result.status === "failed" ? `The job failed: ${result.error ?? "no reason given"}` : `The job was ${result.status}.`;
    const partial =
      result.partial && result.brief ? ` The brief above is partial: written from the ${count(result.sources.length, "source")} read before it stopped.` : "";
    io.stderr.write(`${why} It was charged ${credits(result.credits_charged)}.${partial} (job ${result.id})\n`);
    return EXIT.failed;
  }
  if (!command.json) io.stdout.write(input.responseSchema ? `${JSON.stringify(result.typed, null, 2)}\n` : resultMarkdown(result));
  if (!command.quiet) io.stderr.write(`${summary(result)}\n`);
  return EXIT.ok;
}

/**
 * --quote: what the command would reserve and run within, nothing run. The request is the one the
 * command would send, but for `async` (the CLI forces it to follow events), so `runs` says how the
 * API answers the request itself. Exit 4, as the run would, when the balance does not cover it.
 */
export async function runQuote(client: DeepResearch, command: ResearchCommand, io: Io, baseUrl: string): Promise<number> {
  const quote = await client.research.quote(command.question, await researchInput(command));
  io.stdout.write(command.json ? `${JSON.stringify(quote, null, 2)}\n` : `${quoteText(quote)}\n`);
  if (quote.covered) return EXIT.ok;
  io.stderr.write(`${insufficientCreditsAdvice(baseUrl)}\n`);
  return EXIT.credits;
}

/** `plan "question" ...`: the plan the same research command would run (POST /v1/research/plan), nothing run or charged. */
export async function runPlan(client: DeepResearch, command: Extract<Command, { kind: "plan" }>, io: Io): Promise<number> {
  const plan = await client.research.plan(command.question, await researchInput(command));
  io.stdout.write(command.json ? `${JSON.stringify(plan, null, 2)}\n` : `${planText(plan)}\n`);
  return EXIT.ok;
}

export async function runCredits(client: DeepResearch, json: boolean, io: Io): Promise<number> {
  const balance = await client.credits.get();
  io.stdout.write(json ? `${JSON.stringify(balance)}\n` : `${credits(balance.credits)}\n`);
  return EXIT.ok;
}

export async function runJobs(client: DeepResearch, command: Extract<Command, { kind: "jobs" }>, io: Io): Promise<number> {
  const jobs = await client.research.list({ ...(command.status && { status: command.status }), ...(command.limit && { limit: command.limit }) });
  if (command.json) {
    io.stdout.write(`${JSON.stringify(jobs, null, 2)}\n`);
    return EXIT.ok;
  }
  if (jobs.length === 0) {
    io.stdout.write(`No jobs${command.status ? ` ${command.status}` : ""}.\n`);
    return EXIT.ok;
  }
  const rows = jobs.map((job) => [
    job.id,
    job.created_at.slice(0, 19).replace("T", " "),
    job.status,
    String(job.credits_charged),
    job.question.replace(/\s+/g, " "),
  ]);
  const header = ["ID", "CREATED (UTC)", "STATUS", "CREDITS", "QUESTION"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column === row.length - 1 ? (cell.length > 70 ? `${cell.slice(0, 69)}…` : cell) : cell.padEnd(widths[column]!))).join("  ");
  io.stdout.write(`${[header, ...rows].map(line).join("\n")}\n`);
  return EXIT.ok;
}

export async function runCancel(client: DeepResearch, id: string, json: boolean, io: Io): Promise<number> {
  const job = await client.research.cancel(id);
  if (json) io.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
  else if (job.cancel_outcome === "cancelled") io.stdout.write(`Cancelled job ${job.id}: charged ${credits(job.credits_charged)} for the work already done.\n`);
  else if (job.status === "cancelled")
    io.stdout.write(`Job ${job.id} had already been cancelled (charged ${credits(job.credits_charged)}): nothing to cancel.\n`);
  else io.stdout.write(`Job ${job.id} had already ${job.status} (charged ${credits(job.credits_charged)}): nothing to cancel.\n`);
  return EXIT.ok;
}
