import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Env, loadConfig } from "../../src/env";
import { Budget } from "../../src/research/engine/budget";
import { askModel, MODEL_ATTEMPTS } from "../../src/research/engine/model";
import { budgetsForMode, llmCostUsd } from "../../src/research/pricing";
import { createChatModel } from "../../src/research/providers";
import { ANTHROPIC_JSON_INSTRUCTION, AnthropicModel } from "../../src/research/providers/llm/anthropic";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { statusOf, WorkersAiModel } from "../../src/research/providers/llm/workers-ai";
import type { ChatModel } from "../../src/research/providers/types";
import { scriptedModel } from "../scripted-model";

/**
 * The stage tests of issue 27 item 5 for each hosted model the service speaks to: the Anthropic
 * Messages API (MSW standing in for api.anthropic.com), Workers AI (a fake of the `AI` binding,
 * which is what the provider calls) and the OpenAI-compatible API (its refused response_format).
 * Every case goes through askModel, the way each stage makes its call.
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const Plan = z.object({ queries: z.array(z.string()).min(1) });
const prompt = { system: "Plan the searches.", user: "Question: who wrote the Tariff of 1828?" };
const noWait = async () => {};
const budget = () => new Budget(budgetsForMode("standard"));
const plan = (llm: ChatModel, b = budget(), signal?: AbortSignal) =>
  askModel({ llm, budget: b, draw: "gathering", sleep: noWait, signal }, { stage: "plan", prompt, maxTokens: 300, schema: Plan });
const write = (llm: ChatModel, b = budget(), signal?: AbortSignal) =>
  askModel({ llm, budget: b, draw: "synthesis", sleep: noWait, signal }, { stage: "write", prompt, maxTokens: 300 });

// --- Anthropic Messages API ------------------------------------------------------------------

const ANTHROPIC = "https://api.anthropic.com/v1/messages";
type AnthropicBody = { system: string; messages: { role: string; content: string }[]; max_tokens: number };
type AnthropicAnswer = string | { status: number } | { delayMs: number; text: string };

/** api.anthropic.com answering each call from `route`; every request body is kept. */
function anthropic(route: (body: AnthropicBody, index: number) => AnthropicAnswer, usage = { input_tokens: 1200, output_tokens: 40 }) {
  const bodies: AnthropicBody[] = [];
  server.use(
    http.post(ANTHROPIC, async ({ request }) => {
      const body = (await request.json()) as AnthropicBody;
      bodies.push(body);
      const answer = route(body, bodies.length - 1);
      if (typeof answer === "object" && "status" in answer) {
        return HttpResponse.json(
          { type: "error", error: { type: answer.status === 429 ? "rate_limit_error" : "api_error", message: `scripted ${answer.status}` } },
          { status: answer.status },
        );
      }
      let text = answer as string;
      if (typeof answer === "object") {
        await delay(answer.delayMs);
        text = answer.text;
      }
      return HttpResponse.json({
        id: `msg_${bodies.length}`,
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage,
      });
    }),
  );
  return bodies;
}

describe("Anthropic Messages API through askModel", () => {
  const model = () => new AnthropicModel("ant-key", "claude-test");

  it("a JSON call says so after the system text and sends no prefill (current models refuse one); the answer validates", async () => {
    const bodies = anthropic(() => '{"queries": ["Tariff of 1828 author"]}');
    expect(await plan(model())).toMatchObject({ ok: true, value: { queries: ["Tariff of 1828 author"] } });
    expect(bodies[0]!.system).toBe(`${prompt.system}\n\n${ANTHROPIC_JSON_INSTRUCTION}`);
    expect(bodies[0]!.messages).toEqual([{ role: "user", content: prompt.user }]);
    // A text call is sent as it is: no instruction.
    const text = anthropic(() => "The brief [1].");
    expect(await write(model())).toMatchObject({ ok: true, value: "The brief [1]." });
    expect(text[0]).toMatchObject({ system: prompt.system, messages: [{ role: "user", content: prompt.user }] });
  });

  it("parses an object with prose after it and a fenced object, in one call each", async () => {
    const prose = anthropic(() => '{"queries": ["a"]}\n\nThese searches cover the question.');
    expect(await plan(model())).toMatchObject({ ok: true, value: { queries: ["a"] } });
    expect(prose).toHaveLength(1);
    const fenced = anthropic(() => 'Here is the plan:\n```json\n{"queries": ["c"]}\n```');
    expect(await plan(model())).toMatchObject({ ok: true, value: { queries: ["c"] } });
    expect(fenced).toHaveLength(1);
  });

  it("a 429 then success is retried; usage is charged from what the API reports", async () => {
    const bodies = anthropic((_, index) => (index === 0 ? { status: 429 } : '{"queries": ["x"]}'), { input_tokens: 1500, output_tokens: 60 });
    const b = budget();
    expect(await plan(model(), b)).toMatchObject({ ok: true });
    expect(bodies).toHaveLength(2);
    expect(b.costUsd).toBe(llmCostUsd(1500, 60));
  });

  it("a 500 on every attempt fails cleanly with reason provider, after MODEL_ATTEMPTS calls", async () => {
    const bodies = anthropic(() => ({ status: 500 }));
    const answer = await write(model());
    expect(answer).toMatchObject({ ok: false, reason: "provider" });
    expect(bodies).toHaveLength(MODEL_ATTEMPTS);
    // 529 (overloaded) is a 5xx too.
    const overloaded = anthropic((_, index) => (index === 0 ? { status: 529 } : "fine [1]."));
    expect(await write(model())).toMatchObject({ ok: true, value: "fine [1]." });
    expect(overloaded).toHaveLength(2);
  });

  it("the job's abort signal stops a delayed call", async () => {
    anthropic(() => ({ delayMs: 10_000, text: "too late" }));
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error("cancelled")), 100);
    const started = Date.now();
    expect(await write(model(), budget(), abort.signal)).toMatchObject({ ok: false, reason: "aborted" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a call past its per-call timeout fails as retryable, and is retried", async () => {
    const bodies = anthropic((_, index) => (index === 0 ? { delayMs: 5_000, text: "late" } : "in time [1]."));
    const quick = new AnthropicModel("ant-key", "claude-test", undefined, { timeoutMs: 200 });
    expect(await write(quick)).toMatchObject({ ok: true, value: "in time [1]." });
    expect(bodies).toHaveLength(2);
  });
});

// --- Workers AI (the AI binding) --------------------------------------------------------------

type AiAnswer = { response?: unknown; usage?: { prompt_tokens: number; completion_tokens: number } } | Error | { delayMs: number; response: string };

/** A stand-in for env.AI: answers each run from `route`; every input is kept. */
function fakeAi(route: (input: Record<string, unknown>, index: number) => AiAnswer) {
  const inputs: Record<string, unknown>[] = [];
  const ai = {
    async run(_model: string, input: Record<string, unknown>) {
      inputs.push(input);
      const answer = route(input, inputs.length - 1);
      if (answer instanceof Error) throw answer;
      if ("delayMs" in answer) {
        await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        return { response: answer.response };
      }
      return answer;
    },
  };
  return { ai, inputs };
}

describe("Workers AI through askModel", () => {
  const usage = { prompt_tokens: 900, completion_tokens: 30 };

  it("a JSON call asks for json_object; an object response (JSON mode) validates", async () => {
    const { ai, inputs } = fakeAi(() => ({ response: { queries: ["Tariff of 1828"] }, usage }));
    expect(await plan(new WorkersAiModel(ai, "@cf/meta/llama-3.1-8b-instruct"))).toMatchObject({ ok: true, value: { queries: ["Tariff of 1828"] } });
    expect(inputs[0]).toMatchObject({ response_format: { type: "json_object" }, max_tokens: 300 });
  });

  it("a fenced or prose answer parses; a model that refuses JSON mode is asked without it, once per model", async () => {
    const fenced = fakeAi(() => ({ response: 'Sure.\n```json\n{"queries": ["a"]}\n```', usage }));
    expect(await plan(new WorkersAiModel(fenced.ai, "m"))).toMatchObject({ ok: true, value: { queries: ["a"] } });

    const refusing = fakeAi((input) =>
      input.response_format
        ? new Error("5006: Error: required properties at '/' are 'prompt'; invalid input")
        : { response: 'The plan is {"queries": ["b"]}.', usage },
    );
    const model = new WorkersAiModel(refusing.ai, "m");
    expect(await plan(model)).toMatchObject({ ok: true, value: { queries: ["b"] } });
    expect(await plan(model)).toMatchObject({ ok: true, value: { queries: ["b"] } });
    expect(refusing.inputs.map((input) => "response_format" in input)).toEqual([true, false, false]);
  });

  it("a capacity error (429) then success is retried; reported usage is charged, an estimate when none is reported", async () => {
    const { ai, inputs } = fakeAi((_, index) =>
      index === 0 ? new Error("3040: Capacity temporarily exceeded, please try again.") : { response: "The brief [1].", usage },
    );
    const b = budget();
    expect(await write(new WorkersAiModel(ai, "m"), b)).toMatchObject({ ok: true, value: "The brief [1]." });
    expect(inputs).toHaveLength(2);
    expect(b.costUsd).toBe(llmCostUsd(900, 30));

    const silent = fakeAi(() => ({ response: "No usage here [1]." }));
    const estimated = budget();
    expect(await write(new WorkersAiModel(silent.ai, "m"), estimated)).toMatchObject({ ok: true });
    expect(estimated.costUsd).toBeGreaterThan(0);
  });

  it("an internal error on every attempt fails cleanly with reason provider; an invalid request is not retried", async () => {
    const down = fakeAi(() => new Error("3043: Internal server error"));
    expect(await write(new WorkersAiModel(down.ai, "m"))).toMatchObject({ ok: false, reason: "provider" });
    expect(down.inputs).toHaveLength(MODEL_ATTEMPTS);

    const missing = fakeAi(() => new Error("5007: No such model @cf/none"));
    expect(await write(new WorkersAiModel(missing.ai, "@cf/none"))).toMatchObject({ ok: false, reason: "provider" });
    expect(missing.inputs).toHaveLength(1);
    expect([statusOf(new Error("3036: daily free allocation exceeded")), statusOf(new Error("socket hang up"))]).toEqual([429, undefined]);
  });

  it("the job's abort signal stops a delayed call (the binding takes no signal: the wait is raced)", async () => {
    const { ai } = fakeAi(() => ({ delayMs: 3_000, response: "too late" }));
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error("cancelled")), 100);
    const started = Date.now();
    expect(await write(new WorkersAiModel(ai, "m"), budget(), abort.signal)).toMatchObject({ ok: false, reason: "aborted" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a call past its per-call timeout fails as retryable, and is retried", async () => {
    const { ai, inputs } = fakeAi((_, index) => (index === 0 ? { delayMs: 2_000, response: "late" } : { response: "in time [1].", usage }));
    expect(await write(new WorkersAiModel(ai, "m", { timeoutMs: 100 }))).toMatchObject({ ok: true, value: "in time [1]." });
    expect(inputs).toHaveLength(2);
  });
});

// --- OpenAI-compatible: a local server that refuses response_format ----------------------------

describe("OpenAI-compatible servers without JSON mode", () => {
  const BASE = "https://local-llm.test/v1";

  it("a 400 to response_format is answered by the same call without it, then the model stops sending it", async () => {
    const { handler, calls } = scriptedModel(BASE, (call) =>
      "response_format" in call.body
        ? { status: 400, body: { error: { message: "Unknown field: response_format" } } }
        : 'Sure:\n```json\n{"queries": ["q"]}\n```',
    );
    server.use(handler);
    const b = budget();
    const model = new OpenAiCompatibleModel(BASE, "llama", undefined);
    expect(await plan(model, b)).toMatchObject({ ok: true, value: { queries: ["q"] } });
    expect(await plan(model, b)).toMatchObject({ ok: true, value: { queries: ["q"] } });
    expect(calls.map((call) => "response_format" in call.body)).toEqual([true, false, false]);
    // Charged for the two answered calls only (the scripted usage), never for the refused one.
    expect(b.costUsd).toBeCloseTo(2 * llmCostUsd(800, 150), 6);
  });

  it("a 400 that is not about the format fails the call after one try without it, and JSON mode stays on", async () => {
    const { handler, calls } = scriptedModel(BASE, () => ({ status: 400, body: { error: { message: "context length exceeded" } } }));
    server.use(handler);
    const model = new OpenAiCompatibleModel(BASE, "llama");
    expect(await plan(model)).toMatchObject({ ok: false, reason: "provider" });
    expect(calls.map((call) => "response_format" in call.body)).toEqual([true, false]);
    const { handler: ok, calls: later } = scriptedModel(BASE, () => '{"queries": ["r"]}');
    server.use(ok);
    expect(await plan(model)).toMatchObject({ ok: true });
    expect(later[0]!.body.response_format).toEqual({ type: "json_object" });
  });

  it("a 429 then success is retried; the abort signal stops a delayed call", async () => {
    let n = 0;
    const { handler, calls } = scriptedModel(BASE, () => (n++ === 0 ? { status: 429 } : "ok [1]."));
    server.use(handler);
    expect(await write(new OpenAiCompatibleModel(BASE, "m"))).toMatchObject({ ok: true, value: "ok [1]." });
    expect(calls).toHaveLength(2);

    server.use(scriptedModel(BASE, () => ({ delayMs: 10_000, text: "late" })).handler);
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error("cancelled")), 100);
    const started = Date.now();
    expect(await write(new OpenAiCompatibleModel(BASE, "m"), budget(), abort.signal)).toMatchObject({ ok: false, reason: "aborted" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

// --- LLM_CONTEXT_TOKENS -----------------------------------------------------------------------

describe("LLM_CONTEXT_TOKENS: a model's context window, for stages to size their evidence to", () => {
  const base = { ENVIRONMENT: "development", JWT_SECRET: "test-secret-that-is-at-least-32-characters-long" } as unknown as Env;

  it("is validated with the configuration", () => {
    expect(loadConfig({ ...base, LLM_CONTEXT_TOKENS: "8192" }).LLM_CONTEXT_TOKENS).toBe(8192);
    expect(loadConfig({ ...base }).LLM_CONTEXT_TOKENS).toBeUndefined();
    expect(() => loadConfig({ ...base, LLM_CONTEXT_TOKENS: "lots" })).toThrow(/LLM_CONTEXT_TOKENS must be a number of tokens/);
    expect(() => loadConfig({ ...base, LLM_CONTEXT_TOKENS: "512" })).toThrow(/LLM_CONTEXT_TOKENS must be at least 1024 tokens/);
  });

  it("is exposed on every model built from configuration, and absent when unset", () => {
    const ai = { run: async () => ({ response: "" }) };
    for (const config of [
      { LLM_PROVIDER: "openai", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" },
      { LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k" },
      { LLM_PROVIDER: "workers-ai", AI: ai },
    ]) {
      expect(createChatModel({ ...config, LLM_CONTEXT_TOKENS: "8192" })?.contextTokens).toBe(8192);
      expect(createChatModel(config)?.contextTokens).toBeUndefined();
    }
  });
});

// --- LLM_TIMEOUT_MS ---------------------------------------------------------------------------

describe("LLM_TIMEOUT_MS: how long one model call may take", () => {
  const BASE = "https://relayed-llm.test/v1";
  const base = { ENVIRONMENT: "development", JWT_SECRET: "test-secret-that-is-at-least-32-characters-long" } as unknown as Env;

  it("is validated with the configuration: whole milliseconds, 1 s to 10 minutes; unset is the default", () => {
    expect(loadConfig({ ...base, LLM_TIMEOUT_MS: "300000" }).LLM_TIMEOUT_MS).toBe(300_000);
    expect(loadConfig({ ...base }).LLM_TIMEOUT_MS).toBeUndefined();
    expect(() => loadConfig({ ...base, LLM_TIMEOUT_MS: "slow" })).toThrow(/LLM_TIMEOUT_MS must be a number of milliseconds/);
    expect(() => loadConfig({ ...base, LLM_TIMEOUT_MS: "1.5" })).toThrow(/LLM_TIMEOUT_MS must be a whole number of milliseconds/);
    expect(() => loadConfig({ ...base, LLM_TIMEOUT_MS: "500" })).toThrow(/LLM_TIMEOUT_MS must be at least 1000 ms/);
    expect(() => loadConfig({ ...base, LLM_TIMEOUT_MS: "600001" })).toThrow(/LLM_TIMEOUT_MS must be at most 600000 ms/);
  });

  it("a model built from configuration gives up a call after it (the default would wait 90 s): the retry answers", async () => {
    const { handler, calls } = scriptedModel(BASE, () => (calls.length === 1 ? { delayMs: 120_000, text: "too late" } : "in time [1]."));
    server.use(handler);
    const model = createChatModel({ LLM_PROVIDER: "openai", OPENAI_BASE_URL: BASE, LLM_TIMEOUT_MS: "1000" })!;
    expect(await write(model)).toMatchObject({ ok: true, value: "in time [1]." });
    expect(calls).toHaveLength(2);
  });
});
