import type { ResearchOptions } from "./research.js";
import type { JobStatus, ResearchResult } from "./types.js";

/**
 * The research call as a tool an agent's model can call: one definition (name, description, JSON
 * Schema of the arguments), written out in the shapes of OpenAI (Chat Completions and Responses),
 * Anthropic and the Vercel AI SDK, and `runToolCall()`, which runs a call the model made and
 * returns what the model reads back. The Python SDK (sdk-python, `deep_research.tools`) carries the
 * same definition (its tool_definition.json) and output; test/sdk/tools.test.ts compares them.
 *
 * No framework is a dependency: each shape is plain data the framework's own types accept (the
 * tests assign them to `openai`'s, `@anthropic-ai/sdk`'s and `ai`'s types), and the Vercel AI SDK
 * tool's input schema is a Standard JSON Schema (standardschema.dev), which `ai`'s `tool()` takes
 * as it takes a Zod schema.
 */

/** The tool's name, as the model calls it. */
export const RESEARCH_TOOL_NAME = "deep_research";

/** The modes a model may choose (`max`, metered up to a cap the caller sets, is not offered). */
export const RESEARCH_TOOL_MODES = ["lite", "standard", "pro"] as const;
export type ResearchToolMode = (typeof RESEARCH_TOOL_MODES)[number];

/**
 * What each mode costs, quoted in the description so the model weighs it. The service's price
 * list (src/research/pricing/modes.ts) holds these figures; a test fails when the two differ.
 */
export const RESEARCH_TOOL_CREDITS: Readonly<Record<ResearchToolMode, number>> = { lite: 15, standard: 60, pro: 200 };

/** A JSON Schema, as the frameworks type one (a plain object). */
export type JsonSchema = { [keyword: string]: unknown };

/** The arguments' JSON Schema: an object, `question` required, nothing else allowed. */
export interface ResearchToolParameters {
  type: "object";
  properties: Record<"question" | "mode" | "include_domains" | "exclude_domains", JsonSchema>;
  required: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
}

/** The one definition every shape below is written from. */
export interface ResearchToolDefinition {
  name: string;
  description: string;
  parameters: ResearchToolParameters;
}

const DESCRIPTION =
  "Research a question across many sources and return a cited brief: a short answer, a report whose claims cite numbered sources, and the sources. " +
  "Use it for questions that need current or verifiable facts. " +
  `Each call costs credits (${RESEARCH_TOOL_MODES.map((mode) => `${mode} ${RESEARCH_TOOL_CREDITS[mode]}`).join(", ")}).`;

function parameters(strict: boolean): ResearchToolParameters {
  // OpenAI's strict mode wants every property required: an optional one is then nullable, and null means "not given".
  const optional = (type: string) => (strict ? [type, "null"] : type);
  return {
    type: "object",
    properties: {
      question: { type: "string", description: "The question to research, as a full sentence." },
      mode: {
        type: optional("string"),
        enum: strict ? [...RESEARCH_TOOL_MODES, null] : [...RESEARCH_TOOL_MODES],
        description: "How deep to research: lite (fast, few sources), standard (default), pro (most sources, slowest).",
      },
      include_domains: { type: optional("array"), items: { type: "string" }, description: "Only use sources from these domains." },
      exclude_domains: { type: optional("array"), items: { type: "string" }, description: "Never use sources from these domains." },
    },
    required: strict ? ["question", "mode", "include_domains", "exclude_domains"] : ["question"],
    additionalProperties: false,
  };
}

/**
 * The canonical definition: `name`, `description` and the JSON Schema of the arguments (`parameters`).
 * A fresh copy on each call, so changing one never changes another.
 */
export function researchToolDefinition(): ResearchToolDefinition {
  return { name: RESEARCH_TOOL_NAME, description: DESCRIPTION, parameters: parameters(false) };
}

export interface StrictOption {
  /**
   * OpenAI's strict mode (structured outputs): the model's arguments always match the schema.
   * The schema then lists every property as required, the optional ones nullable (null: not given),
   * as strict mode requires. Default false.
   */
  strict?: boolean;
}

/** The tool for OpenAI's Chat Completions API (`tools: [openAIChatTool()]`); the model's call is `tool_calls[i].function.arguments`. */
export function openAIChatTool(options: StrictOption = {}) {
  const strict = options.strict ?? false;
  return {
    type: "function" as const,
    function: { name: RESEARCH_TOOL_NAME, description: DESCRIPTION, parameters: parameters(strict), ...(strict && { strict: true }) },
  };
}

/**
 * The tool for OpenAI's Responses API (`tools: [openAIResponsesTool()]`); the model's call is an
 * output item of type `function_call` with `arguments`. `strict` is always sent: the Responses API
 * takes a function as strict when it is left out, and the canonical schema is not strict.
 */
export function openAIResponsesTool(options: StrictOption = {}) {
  const strict = options.strict ?? false;
  return { type: "function" as const, name: RESEARCH_TOOL_NAME, description: DESCRIPTION, parameters: parameters(strict), strict };
}

/** The tool for Anthropic's Messages API (`tools: [anthropicTool()]`); the model's call is a `tool_use` block with `input`. */
export function anthropicTool() {
  return { name: RESEARCH_TOOL_NAME, description: DESCRIPTION, input_schema: parameters(false) };
}

/** What a model may send: the schema's properties (null, as strict mode sends, is "not given"). */
export interface ResearchToolInput {
  question: string;
  mode?: ResearchToolMode | null;
  include_domains?: string[] | null;
  exclude_domains?: string[] | null;
}

/** A call's arguments once checked: nulls dropped. */
export interface ResearchToolArguments {
  question: string;
  mode?: ResearchToolMode;
  include_domains?: string[];
  exclude_domains?: string[];
}

export interface ToolArgumentIssue {
  message: string;
  path: string[];
}

/** The model's arguments do not match the tool's schema (or are not JSON); nothing was sent to the service. */
export class ToolArgumentsError extends Error {
  override readonly name = "ToolArgumentsError";
  readonly issues: ToolArgumentIssue[];
  constructor(issues: ToolArgumentIssue[]) {
    super(
      `Invalid ${RESEARCH_TOOL_NAME} arguments: ${issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ")}`,
    );
    this.issues = issues;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Checks arguments against the schema (what ajv would say of them, nulls allowed for the optional ones). */
export function checkToolArguments(value: unknown): { value: ResearchToolArguments } | { issues: ToolArgumentIssue[] } {
  if (!isRecord(value)) return { issues: [{ message: "expected an object", path: [] }] };
  const issues: ToolArgumentIssue[] = [];
  const args: ResearchToolArguments = { question: "" };
  for (const key of Object.keys(value)) {
    if (!["question", "mode", "include_domains", "exclude_domains"].includes(key)) issues.push({ message: "unknown property", path: [key] });
  }
  if (typeof value.question === "string") args.question = value.question;
  else issues.push({ message: value.question === undefined ? "required" : "expected a string", path: ["question"] });
  const { mode } = value;
  if (mode !== undefined && mode !== null) {
    if (RESEARCH_TOOL_MODES.includes(mode as ResearchToolMode)) args.mode = mode as ResearchToolMode;
    else issues.push({ message: `expected one of ${RESEARCH_TOOL_MODES.join(", ")}`, path: ["mode"] });
  }
  for (const key of ["include_domains", "exclude_domains"] as const) {
    const list = value[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) issues.push({ message: "expected an array of strings", path: [key] });
    else {
      const bad = list.findIndex((item) => typeof item !== "string");
      if (bad >= 0) issues.push({ message: "expected a string", path: [key, String(bad)] });
      else args[key] = list as string[];
    }
  }
  return issues.length ? { issues } : { value: args };
}

/** A call's arguments as the model sent them: a JSON string (OpenAI) or an object (Anthropic, the Vercel AI SDK). */
export function parseToolArguments(args: unknown): ResearchToolArguments {
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      throw new ToolArgumentsError([{ message: "not JSON", path: [] }]);
    }
  }
  const checked = checkToolArguments(value);
  if ("issues" in checked) throw new ToolArgumentsError(checked.issues);
  return checked.value;
}

/**
 * What the model reads back: the short answer, the brief (Markdown whose claims cite `[n]`), the
 * numbered sources with their URLs, the job's id and what it cost. Compact: no quotes, offsets or
 * timings (`client.research.get(job_id)` has them all).
 */
export interface ResearchToolOutput {
  job_id: string;
  status: JobStatus;
  /** The short answer; null when the sources read do not answer the question (the brief says what they do say). `cites`: source numbers. */
  answer: { text: string; confidence: "high" | "medium" | "low"; cites: number[] } | null;
  /** Markdown; `[n]` cites `sources` entry n. Null unless the job succeeded (or was cancelled with a partial brief). */
  brief: string | null;
  sources: { n: number; title: string; url: string }[];
  credits_charged: number;
  /** Why the job failed (it was not charged). */
  error?: string;
  /** The job was cancelled: the brief, if any, is written from the sources read until then. */
  partial?: true;
}

/** A result as the model reads it (see ResearchToolOutput). */
export function researchToolOutput(result: ResearchResult): ResearchToolOutput {
  return {
    job_id: result.id,
    status: result.status,
    answer: result.answer ? { text: result.answer.text, confidence: result.answer.confidence, cites: result.answer.citations.map((index) => index + 1) } : null,
    brief: result.brief,
    sources: result.sources.map((source, index) => ({ n: index + 1, title: source.title, url: source.url })),
    credits_charged: result.credits_charged,
    ...(result.error !== null && { error: result.error }),
    ...(result.partial && { partial: true as const }),
  };
}

/** What the tool needs of a client: `research()` (a DeepResearch is one). */
export interface ResearchToolClient {
  research(question: string, options?: ResearchOptions): PromiseLike<ResearchResult>;
}

/**
 * What the caller, not the model, decides about each call: the mode when the model names none
 * (default `standard`), where to search (`collections`, `web`), the time limit, and the request's
 * `signal`, `timeout` and progress callbacks. The model's own arguments cannot override them.
 */
export type ToolCallOptions = Pick<
  ResearchOptions,
  "collections" | "web" | "maxWallclockSecs" | "signal" | "timeout" | "onAccepted" | "onEvent" | "onProgress" | "pollIntervalMs"
> & { mode?: ResearchToolMode };

/**
 * Runs a call the model made (its arguments, as a JSON string or an object) with `client.research()`
 * and returns what the model reads back (send it as the tool result, `JSON.stringify`ed). Throws a
 * ToolArgumentsError when the arguments do not match the schema, before anything is sent, and the
 * client's errors (InsufficientCreditsError, ...) when the service refuses the call; a job that
 * failed is returned (`status: "failed"`, its `error`, nothing charged).
 */
export async function runToolCall(client: ResearchToolClient, args: unknown, options: ToolCallOptions = {}): Promise<ResearchToolOutput> {
  const call = parseToolArguments(args);
  const { mode, ...rest } = options;
  const result = await client.research(call.question, {
    ...rest,
    mode: call.mode ?? mode ?? "standard",
    ...(call.include_domains && { includeDomains: call.include_domains }),
    ...(call.exclude_domains && { excludeDomains: call.exclude_domains }),
  });
  return researchToolOutput(result);
}

/**
 * A Standard Schema (standardschema.dev, V1) that is also a Standard JSON Schema: what the Vercel
 * AI SDK (and other libraries) take as an input schema. Written out here rather than imported, as
 * the standard asks, so the SDK depends on nothing.
 */
export interface ToolInputSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: ResearchToolArguments; issues?: undefined } | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey> }> };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: unknown; readonly output: ResearchToolArguments } | undefined;
  };
}

/** The arguments' schema as a Standard JSON Schema (JSON Schema drafts 07 and 2020-12: it uses nothing either lacks). */
export function researchToolInputSchema(options: StrictOption = {}): ToolInputSchema {
  const jsonSchema = ({ target }: { target: string }) => {
    if (target !== "draft-07" && target !== "draft-2020-12") throw new Error(`${RESEARCH_TOOL_NAME}: no JSON Schema for target ${target}`);
    return parameters(options.strict ?? false);
  };
  return {
    "~standard": {
      version: 1,
      vendor: "deep-research",
      validate: (value) => checkToolArguments(value),
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

/** The Vercel AI SDK tool: pass it to `tool()` from `ai`, or put it in `tools` as it is. */
export interface VercelAiTool {
  description: string;
  inputSchema: ToolInputSchema;
  strict?: boolean;
  execute: (input: ResearchToolArguments, options: { abortSignal?: AbortSignal }) => Promise<ResearchToolOutput>;
}

/**
 * The tool for the Vercel AI SDK (`ai`): `tools: { [RESEARCH_TOOL_NAME]: tool(vercelAiTool(client)) }`.
 * The SDK checks the model's arguments against the schema before `execute` runs it (runToolCall);
 * aborting the generation (`abortSignal`) cancels the job on the service.
 */
export function vercelAiTool(client: ResearchToolClient, options: ToolCallOptions & StrictOption = {}): VercelAiTool {
  const { strict, ...callOptions } = options;
  return {
    description: DESCRIPTION,
    inputSchema: researchToolInputSchema({ strict }),
    ...(strict && { strict: true }),
    execute: (input, { abortSignal }) => {
      const signals = [callOptions.signal, abortSignal].filter((signal): signal is AbortSignal => signal !== undefined);
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      return runToolCall(client, input, { ...callOptions, ...(signal && { signal }) });
    },
  };
}
