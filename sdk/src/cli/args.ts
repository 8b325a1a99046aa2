import { parseArgs } from "node:util";
import { JOB_STATUSES } from "../job-statuses.js";
import type { JobStatus, ResearchMode } from "../types.js";
import { isMetered, RESEARCH_MODES } from "./modes.js";

/** The mode a research command runs in unless --mode says otherwise (the service's default too). */
const DEFAULT_MODE: ResearchMode = "standard";

/** "a, b or c" */
const oneOf = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words.join(""));

const METERED_MODES = RESEARCH_MODES.filter(isMetered);
const MODE_CHOICES = oneOf(RESEARCH_MODES.map((mode) => `${mode}${mode === DEFAULT_MODE ? " (the default)" : ""}${isMetered(mode) ? " (metered)" : ""}`));

/** The `monitors` actions (cli/monitors.ts). */
const MONITORS_USAGE = `  deep-research monitors list                    your monitors
  deep-research monitors create "question" --every 6h|--cron "0 9 * * 1" [--mode m] [--webhook url]
                             [--max-credits n] [--collection id]: research it again on that schedule
  deep-research monitors runs <id>               its runs and what changed in each
  deep-research monitors run|pause|resume|delete|get <id>`;

export const USAGE = `Usage:
  deep-research "question" [options]   research a question; the short answer and the brief, as Markdown
  deep-research credits                your credit balance
  deep-research jobs [--status s]      your recent jobs
  deep-research cancel <job id>        cancel a job (charged only for the work already done)
  deep-research plan "question" [research options]
                                       the plan the job would run (sub-questions, first searches,
                                       envelope, price), free: nothing runs; review it, then run
                                       it with --plan (and your edits: --query, --sub-question)
  deep-research monitors ...           research a question again on a schedule (see Monitors below)

Research options:
  -m, --mode <mode>          ${MODE_CHOICES}
                             (their prices and limits: GET /api/billing/modes, no key needed)
      --max-credits <n>      the most a ${oneOf(METERED_MODES)} job may cost (required with --mode ${oneOf(METERED_MODES)})
      --json                 print the whole result as JSON instead of Markdown (answer first)
      --schema <file.json>   a JSON Schema: the answer is an object that follows it (printed as JSON)
      --collection <id>      search this collection of yours (repeatable)
      --web                  with --collection: search the default space as well
      --previous-job <id>    a follow-up of that finished job: starts from its sources (never read
                             again), searches only what the question adds, costs less
      --include-domain <d>   only sources from this domain (repeatable)
      --exclude-domain <d>   never sources from this domain (repeatable)
      --webhook <url>        the service also POSTs the signed result there
      --quote                print what the job would reserve and run within, and whether your
                             balance covers it, without running it (exit 4 when it does not)
      --plan <plan id>       run that reviewed plan (from "deep-research plan", same question and
                             mode): its first wave searches exactly its queries; a plan runs once
                             and expires an hour after it was made
      --query <search>       with --plan: a first search as you edited it (repeatable; replaces
                             the plan's searches, in this order)
      --sub-question <text>  with --plan: a sub-question as you edited it (repeatable; replaces
                             the plan's sub-questions)
  -q, --quiet                no progress on stderr

Other options:
      --status <status>      jobs: ${oneOf(JOB_STATUSES)}
      --limit <n>            jobs: how many (default 20, at most 100)
      --json                 plan, credits, jobs, cancel: print JSON
  -h, --help                 this help
  -v, --version              the version

Monitors:
${MONITORS_USAGE}

Environment:
  DEEP_RESEARCH_API_KEY      your API key (dashboard: API keys page); required
  DEEP_RESEARCH_BASE_URL     the service (default http://127.0.0.1:8787)

Progress (stage, wave, sources, cost against the mode's cap) goes to stderr; the result to stdout.
Ctrl-C while a job runs cancels it. To ask a question that is one of the command words, put
"--" before it: deep-research -- credits

Exit codes: 0 done; 1 the job failed or the service could not answer; 2 a usage error or a request
the service refused as invalid; 3 the API key is missing or refused, or the account is suspended;
4 not enough credits (also --quote when the balance does not cover the job); 5 rate limited;
130 interrupted (the job was cancelled).`;

/** What a research request is made of: a run sends it, --quote quotes it, `plan` plans it. */
export interface ResearchRequestArgs {
  question: string;
  mode: ResearchMode;
  maxCredits?: number;
  schemaFile?: string;
  collections: string[];
  web: boolean;
  /** A follow-up of this job (previous_job_id). */
  previousJob?: string;
  includeDomains: string[];
  excludeDomains: string[];
  webhookUrl?: string;
}

export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "credits"; json: boolean }
  | { kind: "jobs"; json: boolean; status?: JobStatus; limit?: number }
  | { kind: "cancel"; json: boolean; id: string }
  /** `plan "question" ...`: POST /v1/research/plan of the request the same research command would send. */
  | ({ kind: "plan"; json: boolean } & ResearchRequestArgs)
  | ({
      kind: "research";
      json: boolean;
      /** Run this reviewed plan (plan_id). */
      planId?: string;
      /** With planId: the edited first searches (queries). */
      queries?: string[];
      /** With planId: the edited sub-questions (sub_questions). */
      subQuestions?: string[];
      /** Print the quote (POST /v1/research/quote) instead of running the job. */
      quote: boolean;
      quiet: boolean;
    } & ResearchRequestArgs);

/** A command line that cannot be run: its message is printed with a pointer to --help (exit 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const SUBCOMMANDS = new Set(["credits", "jobs", "cancel", "help", "plan"]);
const RESEARCH_ONLY = [
  "mode",
  "max-credits",
  "schema",
  "collection",
  "web",
  "previous-job",
  "include-domain",
  "exclude-domain",
  "webhook",
  "quote",
  "quiet",
  "plan",
  "query",
  "sub-question",
] as const;
/** What running a plan takes: none of it applies to making one. */
const RUN_ONLY = ["quote", "quiet", "plan", "query", "sub-question"] as const;
const JOBS_ONLY = ["status", "limit"] as const;

const isMode = (value: string): value is ResearchMode => (RESEARCH_MODES as readonly string[]).includes(value);

function positiveInteger(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number, not "${value}".`);
  return Number(value);
}

export function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        mode: { type: "string", short: "m" },
        "max-credits": { type: "string" },
        json: { type: "boolean" },
        schema: { type: "string" },
        collection: { type: "string", multiple: true },
        web: { type: "boolean" },
        "previous-job": { type: "string" },
        "include-domain": { type: "string", multiple: true },
        "exclude-domain": { type: "string", multiple: true },
        webhook: { type: "string" },
        quote: { type: "boolean" },
        quiet: { type: "boolean", short: "q" },
        plan: { type: "string" },
        query: { type: "string", multiple: true },
        "sub-question": { type: "string", multiple: true },
        status: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals, tokens } = parsed;
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  // After "--" every word is the question, even a command word.
  const dashDash = tokens.find((token) => token.kind === "option-terminator");
  const first = tokens.find((token) => token.kind === "positional");
  const subcommand = first && (!dashDash || first.index < dashDash.index) && SUBCOMMANDS.has(first.value) ? first.value : null;
  const json = values.json ?? false;
  const given = (names: readonly string[]) => names.filter((name) => (values as Record<string, unknown>)[name] !== undefined);

  if (subcommand === "plan") {
    const misplaced = [...given(RUN_ONLY), ...given(JOBS_ONLY)];
    if (misplaced.length > 0) throw new UsageError(`--${misplaced[0]} does not apply to "plan".`);
    const question = positionals.slice(1).join(" ").trim();
    if (!question) throw new UsageError('Give a question: deep-research plan "How did presidents describe tariffs in the 19th century?"');
    return { kind: "plan", json, ...researchRequest(values, question) };
  }

  if (subcommand) {
    const misplaced = [...given(RESEARCH_ONLY), ...(subcommand === "jobs" ? [] : given(JOBS_ONLY))];
    if (misplaced.length > 0) throw new UsageError(`--${misplaced[0]} does not apply to "${subcommand}".`);
    const rest = positionals.slice(1);
    if (subcommand === "help") return { kind: "help" };
    if (subcommand === "cancel") {
      if (rest.length !== 1) throw new UsageError('"cancel" takes one job id: deep-research cancel <job id>');
      return { kind: "cancel", json, id: rest[0]! };
    }
    if (rest.length > 0) throw new UsageError(`"${subcommand}" takes no arguments (got "${rest.join(" ")}").`);
    if (subcommand === "credits") return { kind: "credits", json };
    const status = values.status;
    if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status))
      throw new UsageError(`--status must be one of ${JOB_STATUSES.join(", ")}.`);
    return {
      kind: "jobs",
      json,
      ...(status !== undefined && { status: status as JobStatus }),
      ...(values.limit !== undefined && { limit: positiveInteger(values.limit, "--limit") }),
    };
  }

  const misplaced = given(JOBS_ONLY);
  if (misplaced.length > 0) throw new UsageError(`--${misplaced[0]} applies to "jobs" only.`);
  const question = positionals.join(" ").trim();
  if (!question) throw new UsageError('Give a question: deep-research "How did presidents describe tariffs in the 19th century?"');
  const request = researchRequest(values, question);
  const edits = (["query", "sub-question"] as const).filter((name) => values[name] !== undefined);
  if (values.plan === undefined && edits.length > 0)
    throw new UsageError(`--${edits[0]} edits a reviewed plan: it needs --plan <plan id> (make one with: deep-research plan "question").`);
  if (values.plan !== undefined && values.quote) throw new UsageError('--quote does not apply with --plan: the plan carries its quote ("deep-research plan").');
  const blank = [...(values.query ?? []), ...(values["sub-question"] ?? [])].some((text) => !text.trim());
  if (blank) throw new UsageError("--query and --sub-question cannot be empty.");
  return {
    kind: "research",
    ...request,
    json,
    ...(values.plan !== undefined && { planId: values.plan }),
    ...(values.query !== undefined && { queries: values.query }),
    ...(values["sub-question"] !== undefined && { subQuestions: values["sub-question"] }),
    quote: values.quote ?? false,
    quiet: values.quiet ?? false,
  };
}

interface RequestValues {
  mode?: string;
  "max-credits"?: string;
  schema?: string;
  collection?: string[];
  web?: boolean;
  "previous-job"?: string;
  "include-domain"?: string[];
  "exclude-domain"?: string[];
  webhook?: string;
}

/** The request options a research command and `plan` share, checked alike. */
function researchRequest(values: RequestValues, question: string): ResearchRequestArgs {
  const mode = values.mode ?? DEFAULT_MODE;
  if (!isMode(mode)) throw new UsageError(`--mode must be one of ${RESEARCH_MODES.join(", ")}.`);
  const maxCredits = values["max-credits"] === undefined ? undefined : positiveInteger(values["max-credits"], "--max-credits");
  if (isMetered(mode) && maxCredits === undefined) throw new UsageError(`--mode ${mode} needs --max-credits <n>: the most the job may cost.`);
  if (values.web && !values.collection) throw new UsageError("--web only applies with --collection.");
  return {
    question,
    mode,
    ...(maxCredits !== undefined && { maxCredits }),
    ...(values.schema !== undefined && { schemaFile: values.schema }),
    collections: values.collection ?? [],
    web: values.web ?? false,
    ...(values["previous-job"] !== undefined && { previousJob: values["previous-job"] }),
    includeDomains: values["include-domain"] ?? [],
    excludeDomains: values["exclude-domain"] ?? [],
    ...(values.webhook !== undefined && { webhookUrl: values.webhook }),
  };
}
