/** Command-line options of `npm run eval`. */
import { type FixedPriceMode, isMetered, RESEARCH_MODES } from "../../src/research/pricing";
import type { AnswerFrom } from "./answer";
import { EVAL_LLMS, type EvalLlm, type ModelChoice } from "./model";

/** The fixed-price modes of the server's table: a metered one (max) needs a max_credits the eval does not choose. */
export type EvalMode = FixedPriceMode;
export const EVAL_MODES: readonly EvalMode[] = RESEARCH_MODES.filter((mode): mode is EvalMode => !isMetered(mode));

export const USAGE =
  `usage: npm run eval -- <dataset.json ...> [--mode ${EVAL_MODES.join("|")}[,...]] [--limit N] [--verbose] [--json out.json]\n` +
  "                       [--answer-from field|opening] [--wallclock SECONDS] [--only ID|N[,...]]\n" +
  "                       [--concurrency N] [--base-url http://127.0.0.1:PORT] [--admin-email EMAIL]\n" +
  "                       [--collection] [--in-process [--per-question]]\n" +
  "                       [--llm openai|anthropic [--model ID]]   (OPENAI_BASE_URL, OPENAI_API_KEY / ANTHROPIC_API_KEY from the environment)";

export interface EvalOptions {
  files: string[];
  /** Run in turn on the same loaded corpus (--mode standard,pro). */
  modes: EvalMode[];
  /** field: score the result's `answer`; opening: score the brief's opening sentence instead (a "before" measure). */
  answerFrom: AnswerFrom;
  /** The first N questions of each file. */
  limit?: number;
  verbose: boolean;
  jsonOut?: string;
  concurrency: number;
  /** An already running server (loopback only) instead of starting one. */
  baseUrl?: string;
  /** The admin account the corpus is loaded with; must be in the server's ADMIN_EMAILS. */
  adminEmail: string;
  /** The documents go into a collection of the eval account (POST /v1/collections) and every question names it. */
  collection: boolean;
  /** Debugging only: the engine called in-process, not the product. */
  inProcess: boolean;
  /** In-process only: each question against a corpus of its own ten paragraphs. */
  perQuestion: boolean;
  /** The service started with this hosted model (--llm, --model); unset: the offline engine. */
  llm?: ModelChoice;
  /** Sent as every job's `max_wallclock_secs` (--wallclock): a model's slower calls need more than the mode's limit. */
  wallclock?: number;
  /** Only these questions (--only): each a question id, or a 1-based number as the per-question lines print it (dataset/only.ts). */
  only?: string[];
}

export const DEFAULT_ADMIN_EMAIL = "eval-admin@example.com";

export class UsageError extends Error {}

function positiveInt(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1) throw new UsageError(`${flag} needs a positive integer, got ${value ?? "nothing"}`);
  return n;
}

/** The request's bounds of max_wallclock_secs (1, since 0 is below every mode's synthesis reserve, to 3600). */
export const MAX_WALLCLOCK_SECS = 3600;

function wallclockSecs(value: string | undefined): number {
  const secs = positiveInt("--wallclock", value);
  if (secs > MAX_WALLCLOCK_SECS)
    throw new UsageError(`--wallclock takes at most ${MAX_WALLCLOCK_SECS} seconds (the request's max_wallclock_secs), got ${secs}`);
  return secs;
}

/** "3,7,5a8b57f25542995d1e6f1371": each selector once, in the order given. */
function selectorList(value: string | undefined): string[] {
  const selectors = (value ?? "")
    .split(",")
    .map((selector) => selector.trim())
    .filter(Boolean);
  if (selectors.length === 0) throw new UsageError("--only needs question ids or 1-based question numbers, separated by commas");
  return [...new Set(selectors)];
}

/** "standard" or "standard,pro": each mode once, in the order given. */
function modeList(value: string | undefined): EvalMode[] {
  const modes = (value ?? "")
    .split(",")
    .map((mode) => mode.trim())
    .filter(Boolean);
  const unknown = modes.filter((mode) => !EVAL_MODES.includes(mode as EvalMode));
  if (modes.length === 0 || unknown.length)
    throw new UsageError(`--mode takes ${EVAL_MODES.join(", ")} (several separated by commas), got ${value ?? "nothing"}`);
  return [...new Set(modes as EvalMode[])];
}

function loopbackUrl(value: string | undefined): string {
  if (!value || !URL.canParse(value)) throw new UsageError(`--base-url needs a URL, got ${value ?? "nothing"}`);
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("--base-url must be http(s)");
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    throw new UsageError(`--base-url must point at this machine (127.0.0.1 or localhost), not ${url.hostname}`);
  }
  return url.origin;
}

export function parseArgs(argv: string[]): EvalOptions {
  const options: EvalOptions = {
    files: [],
    modes: ["standard"],
    answerFrom: "field",
    verbose: false,
    concurrency: 2,
    adminEmail: process.env.EVAL_ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL,
    collection: false,
    inProcess: false,
    perQuestion: false,
  };
  let model_: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--mode":
        options.modes = modeList(value());
        break;
      case "--answer-from": {
        const from = value();
        if (from !== "field" && from !== "opening") throw new UsageError(`--answer-from must be field or opening, got ${from ?? "nothing"}`);
        options.answerFrom = from;
        break;
      }
      case "--limit":
        options.limit = positiveInt("--limit", value());
        break;
      case "--wallclock":
        options.wallclock = wallclockSecs(value());
        break;
      case "--only":
        options.only = selectorList(value());
        break;
      case "--concurrency":
        options.concurrency = positiveInt("--concurrency", value());
        break;
      case "--json": {
        const out = value();
        if (!out) throw new UsageError("--json needs a file name");
        options.jsonOut = out;
        break;
      }
      case "--base-url":
        options.baseUrl = loopbackUrl(value());
        break;
      case "--admin-email": {
        const email = value();
        if (!email?.includes("@")) throw new UsageError(`--admin-email needs an email, got ${email ?? "nothing"}`);
        options.adminEmail = email;
        break;
      }
      case "--verbose":
        options.verbose = true;
        break;
      case "--collection":
        options.collection = true;
        break;
      case "--in-process":
        options.inProcess = true;
        break;
      case "--per-question":
        options.perQuestion = true;
        break;
      case "--llm": {
        const provider = value();
        if (!EVAL_LLMS.includes(provider as EvalLlm)) throw new UsageError(`--llm takes ${EVAL_LLMS.join(" or ")}, got ${provider ?? "nothing"}`);
        options.llm = { ...options.llm, provider: provider as EvalLlm };
        break;
      }
      case "--model": {
        const model = value();
        if (!model || model.startsWith("-")) throw new UsageError(`--model needs a model id, got ${model ?? "nothing"}`);
        model_ = model;
        break;
      }
      case "--help":
      case "-h":
        throw new UsageError("");
      default:
        if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}`);
        // The former `npm run eval -- <file> [mode]` form still works.
        if (EVAL_MODES.includes(arg as EvalMode)) options.modes = [arg as EvalMode];
        else options.files.push(arg);
    }
  }
  if (options.files.length === 0) throw new UsageError("give at least one dataset file");
  if (options.perQuestion && !options.inProcess) throw new UsageError("--per-question only exists with --in-process");
  if (options.inProcess && options.baseUrl) throw new UsageError("--in-process and --base-url exclude each other");
  if (options.inProcess && options.collection) throw new UsageError("--collection runs through the service, not --in-process");
  if (model_ !== undefined) {
    if (!options.llm) throw new UsageError("--model needs --llm openai or --llm anthropic");
    options.llm.model = model_;
  }
  if (options.llm && options.baseUrl) throw new UsageError("--llm starts the service with that model: a running server (--base-url) has its own LLM_PROVIDER");
  if (options.llm && options.inProcess) throw new UsageError("--llm runs through the service, not --in-process");
  return options;
}
