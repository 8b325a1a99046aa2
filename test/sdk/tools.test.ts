import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import { afterEach, describe, expect, it } from "vitest";
import { DeepResearch } from "../../sdk/src/client";
import type { ResearchOptions } from "../../sdk/src/research";
import {
  anthropicTool,
  openAIChatTool,
  openAIResponsesTool,
  parseToolArguments,
  RESEARCH_TOOL_CREDITS,
  RESEARCH_TOOL_MODES,
  type ResearchToolClient,
  researchToolDefinition,
  researchToolInputSchema,
  researchToolOutput,
  runToolCall,
  ToolArgumentsError,
  vercelAiTool,
} from "../../sdk/src/tools";
import type { ResearchResult } from "../../sdk/src/types";
import { MODES } from "../../src/research/pricing";
import { fakeService, json } from "./fake-server";

/** The definition the issue fixes, word for word: the Python SDK carries the same (checked below). */
const CANONICAL = {
  name: "deep_research",
  description:
    "Research a question across many sources and return a cited brief: a short answer, a report whose claims cite numbered sources, and the sources. Use it for questions that need current or verifiable facts. Each call costs credits (lite 15, standard 60, pro 200).",
  parameters: {
    type: "object",
    properties: {
      question: { type: "string", description: "The question to research, as a full sentence." },
      mode: {
        type: "string",
        enum: ["lite", "standard", "pro"],
        description: "How deep to research: lite (fast, few sources), standard (default), pro (most sources, slowest).",
      },
      include_domains: { type: "array", items: { type: "string" }, description: "Only use sources from these domains." },
      exclude_domains: { type: "array", items: { type: "string" }, description: "Never use sources from these domains." },
    },
    required: ["question"],
    additionalProperties: false,
  },
};

const SDK_PYTHON = resolve(import.meta.dirname, "../../sdk-python");
const PYTHON_DEFINITION = resolve(SDK_PYTHON, "deep_research/tool_definition.json");

/** Runs `code` with the Python SDK importable (Debian's Python, which has httpx), `input` on its stdin; its stdout as JSON. */
function python(code: string, input: unknown): unknown {
  const run = spawnSync("/usr/bin/python3", ["-c", code], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: { PATH: process.env.PATH, PYTHONPATH: SDK_PYTHON },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const result = (overrides: Partial<ResearchResult> = {}): ResearchResult => ({
  id: "3f1c2a9e-0000-4000-8000-000000000001",
  status: "succeeded",
  question: "When was the tariff of 1828 passed?",
  brief: "The Tariff of 1828 was passed in May 1828 [1]. Calhoun called it an abomination [2].",
  answer: { text: "May 1828", confidence: "high", citations: [0] },
  typed: null,
  sources: [
    { title: "Tariff of 1828", url: "https://example.org/tariff-1828", domain: "example.org", summary: "Signed into law on May 19, 1828." },
    { title: "South Carolina Exposition", url: "https://example.com/exposition", domain: "example.com", summary: null },
  ],
  citations: [],
  credits_charged: 60,
  charge_basis: { rule: "mode_price", reason: "The brief cites its sources." },
  cost_usd: 0.31,
  created_at: "2026-01-01T00:00:00.000Z",
  completed_at: "2026-01-01T00:00:40.000Z",
  error: null,
  latency_ms: 40_000,
  wave_count: 2,
  previous_job_id: null,
  thread: [],
  partial: false,
  ...overrides,
});

/** A client double: the research() calls it got, and the result it answers. */
function mockClient(answer: ResearchResult = result()) {
  const calls: { question: string; options: ResearchOptions }[] = [];
  const client: ResearchToolClient = {
    research: async (question, options = {}) => {
      calls.push({ question, options });
      return answer;
    },
  };
  return { client, calls };
}

/** OpenAI's strict-mode rules (structured outputs) that a schema breaks: every object closed, every property required, a nullable enum listing null. */
function openAIStrictIssues(schema: Record<string, unknown>, path = "$"): string[] {
  const issues: string[] = [];
  const allowed = new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "description", "anyOf", "const"]);
  for (const keyword of Object.keys(schema)) if (!allowed.has(keyword)) issues.push(`${path}: ${keyword} is not supported`);
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (path === "$" && schema.type !== "object") issues.push("$: the root must be an object");
  if (types.includes("object")) {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    if (schema.additionalProperties !== false) issues.push(`${path}: additionalProperties must be false`);
    const required = (schema.required ?? []) as string[];
    for (const name of Object.keys(properties)) {
      if (!required.includes(name)) issues.push(`${path}.${name}: not required`);
      issues.push(...openAIStrictIssues(properties[name]!, `${path}.${name}`));
    }
  }
  if (types.includes("null") && Array.isArray(schema.enum) && !schema.enum.includes(null)) issues.push(`${path}: a nullable enum must list null`);
  if (schema.items) issues.push(...openAIStrictIssues(schema.items as Record<string, unknown>, `${path}[]`));
  return issues;
}

describe("the deep_research tool definition", () => {
  it("is the canonical definition, and each framework's shape carries it", () => {
    expect(researchToolDefinition()).toEqual(CANONICAL);
    expect(openAIChatTool()).toEqual({ type: "function", function: CANONICAL });
    expect(openAIResponsesTool()).toEqual({ type: "function", ...CANONICAL, strict: false });
    expect(anthropicTool()).toEqual({ name: CANONICAL.name, description: CANONICAL.description, input_schema: CANONICAL.parameters });
    expect(anthropicTool().input_schema.type).toBe("object");
    // Each call is a fresh copy: a caller changing one changes nothing else.
    const changed = researchToolDefinition();
    changed.parameters.required.push("mode");
    expect(researchToolDefinition().parameters.required).toEqual(["question"]);
  });

  it("quotes the service's own mode prices (src/research/pricing/modes.ts)", () => {
    for (const mode of RESEARCH_TOOL_MODES) {
      expect(RESEARCH_TOOL_CREDITS[mode]).toBe(MODES[mode].fixedCredits);
      expect(researchToolDefinition().description).toContain(`${mode} ${MODES[mode].fixedCredits}`);
    }
    // The modes offered are the fixed-price ones; a metered mode (max) needs a cap the model cannot set.
    const fixed = Object.entries(MODES)
      .filter(([, mode]) => mode.fixedCredits !== null)
      .map(([name]) => name);
    expect([...RESEARCH_TOOL_MODES]).toEqual(fixed);
  });

  it("is the Python SDK's definition (sdk-python/deep_research/tool_definition.json)", () => {
    expect(existsSync(PYTHON_DEFINITION), PYTHON_DEFINITION).toBe(true);
    expect(JSON.parse(readFileSync(PYTHON_DEFINITION, "utf8"))).toEqual(researchToolDefinition());
  });

  it("reads a result back to the model as the Python SDK does, and refuses the arguments it refuses", () => {
    const results = [
      result(),
      result({ status: "failed", brief: null, answer: null, sources: [], credits_charged: 0, error: "No source could be read." }),
      result({ status: "cancelled", answer: null, partial: true, credits_charged: 12 }),
    ];
    const fromPython = python(
      "import json, sys\nfrom deep_research.tools import research_tool_output\nprint(json.dumps([research_tool_output(r) for r in json.load(sys.stdin)]))",
      results,
    );
    expect(fromPython).toEqual(results.map(researchToolOutput));

    const samples: unknown[] = [
      { question: "q", mode: null, include_domains: ["a.gov"] },
      { question: "q", mode: "max" },
      { question: "q", extra: 1 },
      { mode: "lite" },
      { question: "q", exclude_domains: [1] },
      "{not json",
    ];
    const inPython = python(
      "import json, sys\nfrom deep_research.tools import parse_tool_arguments, ToolArgumentsError\nout = []\nfor s in json.load(sys.stdin):\n    try:\n        out.append({'value': parse_tool_arguments(s)})\n    except ToolArgumentsError as e:\n        out.append({'issues': e.issues})\nprint(json.dumps(out))",
      samples,
    );
    const inTypeScript = samples.map((sample) => {
      try {
        return { value: parseToolArguments(sample) };
      } catch (error) {
        return { issues: (error as ToolArgumentsError).issues };
      }
    });
    expect(inPython).toEqual(inTypeScript);
  });

  it("has parameters that are a valid JSON Schema (drafts 07 and 2020-12, ajv strict) and mean what they say", () => {
    for (const ajv of [new Ajv({ strict: true }), new Ajv2020({ strict: true })]) {
      const { parameters } = researchToolDefinition();
      expect(ajv.validateSchema(parameters), JSON.stringify(ajv.errors)).toBe(true);
      const validate = ajv.compile(parameters);
      expect(validate({ question: "Who wrote the 1887 message?" })).toBe(true);
      expect(validate({ question: "q", mode: "pro", include_domains: ["gov"], exclude_domains: ["example.com"] })).toBe(true);
      expect(validate({})).toBe(false);
      expect(validate({ question: "q", mode: "max" })).toBe(false);
      expect(validate({ question: "q", include_domains: "gov" })).toBe(false);
      expect(validate({ question: "q", depth: 3 })).toBe(false);
    }
  });

  it("in OpenAI's strict mode, follows its rules, and null stands for an argument not given", () => {
    const chat = openAIChatTool({ strict: true });
    expect(chat.function.strict).toBe(true);
    expect(openAIStrictIssues(chat.function.parameters)).toEqual([]);
    const responses = openAIResponsesTool({ strict: true });
    expect(responses.strict).toBe(true);
    expect(openAIStrictIssues(responses.parameters)).toEqual([]);
    // The canonical schema is not strict (its optional properties are optional): the check sees it.
    expect(openAIStrictIssues(researchToolDefinition().parameters)).toEqual([
      "$.mode: not required",
      "$.include_domains: not required",
      "$.exclude_domains: not required",
    ]);
    expect(openAIChatTool().function).not.toHaveProperty("strict");

    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    expect(ajv.validateSchema(chat.function.parameters), JSON.stringify(ajv.errors)).toBe(true);
    const validate = ajv.compile(chat.function.parameters);
    expect(validate({ question: "q", mode: null, include_domains: null, exclude_domains: null })).toBe(true);
    expect(validate({ question: "q", mode: "lite", include_domains: ["gov"], exclude_domains: null })).toBe(true);
    expect(validate({ question: "q" })).toBe(false); // strict: every property present
  });

  it("checks arguments as ajv does: what the schema refuses is refused before anything is sent", async () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    const strictSchema = ajv.compile(openAIChatTool({ strict: true }).function.parameters);
    const canonical = ajv.compile(researchToolDefinition().parameters);
    const { "~standard": standard } = researchToolInputSchema();
    const samples: unknown[] = [
      { question: "q" },
      { question: "q", mode: "standard" },
      { question: "q", mode: null, include_domains: null, exclude_domains: null },
      { question: "q", include_domains: ["a.gov", "b.org"] },
      { question: 12 },
      { mode: "lite" },
      { question: "q", mode: "max" },
      { question: "q", include_domains: [1] },
      { question: "q", exclude_domains: "example.com" },
      { question: "q", extra: true },
      ["q"],
      "q",
      null,
    ];
    for (const sample of samples) {
      const accepted = "value" in standard.validate(sample);
      // Nulls are accepted as strict mode sends them; otherwise the canonical schema decides.
      const withNulls = typeof sample === "object" && sample !== null && Object.values(sample).includes(null);
      expect(accepted, JSON.stringify(sample)).toBe(withNulls ? strictSchema(sample) : canonical(sample));
    }

    const { client, calls } = mockClient();
    await expect(runToolCall(client, { question: "q", mode: "max" })).rejects.toThrow(ToolArgumentsError);
    await expect(runToolCall(client, '{"question": "q", "extra": 1}')).rejects.toThrow("Invalid deep_research arguments: extra: unknown property");
    await expect(runToolCall(client, "{question: q}")).rejects.toThrow("Invalid deep_research arguments: not JSON");
    expect(calls).toEqual([]);
  });
});

describe("runToolCall()", () => {
  it("runs the model's call (JSON text, as OpenAI sends it) and returns what the model reads: answer, brief, numbered sources, job id, cost", async () => {
    const { client, calls } = mockClient();
    const output = await runToolCall(
      client,
      JSON.stringify({ question: "When was the tariff of 1828 passed?", mode: "lite", include_domains: ["example.org"] }),
    );
    expect(calls).toEqual([{ question: "When was the tariff of 1828 passed?", options: { mode: "lite", includeDomains: ["example.org"] } }]);
    expect(output).toEqual({
      job_id: "3f1c2a9e-0000-4000-8000-000000000001",
      status: "succeeded",
      answer: { text: "May 1828", confidence: "high", cites: [1] },
      brief: "The Tariff of 1828 was passed in May 1828 [1]. Calhoun called it an abomination [2].",
      sources: [
        { n: 1, title: "Tariff of 1828", url: "https://example.org/tariff-1828" },
        { n: 2, title: "South Carolina Exposition", url: "https://example.com/exposition" },
      ],
      credits_charged: 60,
    });
  });

  it("takes strict mode's nulls as not given; the caller's mode is the default, and the caller's options stay the caller's", async () => {
    const { client, calls } = mockClient();
    await runToolCall(client, { question: "q", mode: null, include_domains: null, exclude_domains: ["example.com"] });
    await runToolCall(client, { question: "q" }, { mode: "lite", collections: ["col-1"], maxWallclockSecs: 30 });
    await runToolCall(client, { question: "q", mode: "pro" }, { mode: "lite" });
    expect(calls.map((call) => call.options)).toEqual([
      { mode: "standard", excludeDomains: ["example.com"] },
      { mode: "lite", collections: ["col-1"], maxWallclockSecs: 30 },
      { mode: "pro" },
    ]);
  });

  it("returns a failed job (its error, nothing charged) and a cancelled one's partial brief for the model to read", async () => {
    const failed = await runToolCall(
      mockClient(result({ status: "failed", brief: null, answer: null, sources: [], credits_charged: 0, error: "No source could be read." })).client,
      {
        question: "q",
      },
    );
    expect(failed).toEqual({
      job_id: result().id,
      status: "failed",
      answer: null,
      brief: null,
      sources: [],
      credits_charged: 0,
      error: "No source could be read.",
    });
    const cancelled = await runToolCall(mockClient(result({ status: "cancelled", answer: null, partial: true, credits_charged: 12 })).client, {
      question: "q",
    });
    expect(cancelled).toMatchObject({ status: "cancelled", partial: true, credits_charged: 12, answer: null });
  });

  describe("with the SDK's client", () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(() => close?.());

    it("sends the model's domains and mode as the REST request's fields", async () => {
      const service = await fakeService([json(200, result({ credits_charged: 15 }))]);
      close = service.close;
      const client = new DeepResearch({ apiKey: "dr_live_test", baseUrl: service.baseUrl, maxRetries: 0 });
      const output = await runToolCall(client, { question: "q", mode: "lite", include_domains: ["a.gov"], exclude_domains: ["b.com"] });
      expect(output.credits_charged).toBe(15);
      expect(service.requests.map((request) => [request.method, request.url])).toEqual([["POST", "/v1/research"]]);
      expect(JSON.parse(service.requests[0]!.body)).toEqual({
        question: "q",
        mode: "lite",
        include_sources: true,
        include_domains: ["a.gov"],
        exclude_domains: ["b.com"],
      });
    });
  });
});

describe("the Vercel AI SDK tool", () => {
  /** A model that calls the tool once with `input`, then stops (one step). */
  const callingModel = (input: string) =>
    new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "tool-call", toolCallId: "call-1", toolName: "deep_research", input }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      }),
    });

  it("goes through tool() and generateText: the model sees the schema, a call runs against the client, and its output comes back", async () => {
    const { client, calls } = mockClient();
    const model = callingModel(JSON.stringify({ question: "When was the tariff of 1828 passed?", exclude_domains: ["example.net"] }));
    const answer = await generateText({ model, tools: { deep_research: tool(vercelAiTool(client, { mode: "lite" })) }, prompt: "Tariffs?" });
    // What the model was offered: the canonical name, description and schema.
    const offered = model.doGenerateCalls[0]!.tools;
    expect(offered).toEqual([
      expect.objectContaining({ type: "function", name: CANONICAL.name, description: CANONICAL.description, inputSchema: CANONICAL.parameters }),
    ]);
    expect(calls).toEqual([
      { question: "When was the tariff of 1828 passed?", options: expect.objectContaining({ mode: "lite", excludeDomains: ["example.net"] }) },
    ]);
    expect(calls[0]!.options.signal).toBeUndefined(); // no abortSignal was given: none is invented
    expect(answer.toolResults).toEqual([
      expect.objectContaining({ toolName: "deep_research", output: await runToolCall(mockClient().client, { question: "q" }) }),
    ]);
  });

  it("a call the schema refuses reaches the model as a tool error, and the client is never called", async () => {
    const { client, calls } = mockClient();
    const answer = await generateText({
      model: callingModel(JSON.stringify({ question: "q", mode: "max" })),
      tools: { deep_research: tool(vercelAiTool(client)) },
      prompt: "Tariffs?",
    });
    expect(calls).toEqual([]);
    expect(answer.toolResults).toEqual([]);
    expect(answer.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "tool-error", toolName: "deep_research" })]));
  });

  it("passes the generation's abort signal to research() (aborting it cancels the job), and can be strict", async () => {
    const { client, calls } = mockClient();
    const controller = new AbortController();
    await vercelAiTool(client).execute({ question: "q" }, { abortSignal: controller.signal });
    expect(calls[0]!.options.signal).toBe(controller.signal);
    const strict = vercelAiTool(client, { strict: true });
    expect(strict.strict).toBe(true);
    expect(openAIStrictIssues(strict.inputSchema["~standard"].jsonSchema.input({ target: "draft-07" }))).toEqual([]);
    // The same as what jsonSchema() from `ai` would make of the canonical schema.
    expect(await jsonSchema(researchToolDefinition().parameters as never).jsonSchema).toEqual(
      vercelAiTool(client).inputSchema["~standard"].jsonSchema.input({ target: "draft-07" }),
    );
    expect(() => vercelAiTool(client).inputSchema["~standard"].jsonSchema.input({ target: "openapi-3.0" })).toThrow("no JSON Schema for target openapi-3.0");
  });
});
