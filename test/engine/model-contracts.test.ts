import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Budget } from "../../src/research/engine/budget";
import { askModel, MODEL_ATTEMPTS } from "../../src/research/engine/model";
import { budgetsForMode, llmCostUsd } from "../../src/research/pricing";
import { createChatModel } from "../../src/research/providers";
import { DEFAULT_MODELS } from "../../src/research/providers/llm/defaults";
import { refusedParam } from "../../src/research/providers/llm/openai";
import type { ChatModel } from "../../src/research/providers/types";

/**
 * Contract tests (issue 41, items 2 and 5): each provider's documented request and response shapes,
 * replayed through our code the way a stage calls it (askModel). The shapes are copied from the
 * provider's reference and SDK types, not from our own reading of what we send:
 * - Anthropic Messages: https://platform.claude.com/docs/en/api/messages (the SDK's `Message`,
 *   anthropic-sdk-typescript src/resources/messages/messages.ts), stop reasons:
 *   https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons, no prefill and
 *   `refusal` on current models: https://platform.claude.com/docs/en/models/haiku-5-5/migration-guide
 * - OpenAI chat completions: https://platform.openai.com/docs/api-reference/chat/create (openai-node
 *   `ChatCompletion`, `ChatCompletionCreateParams.max_completion_tokens`: "max_tokens ... is not
 *   compatible with o-series models"), reasoning models:
 *   https://platform.openai.com/docs/guides/reasoning (the error bodies below are OpenAI's
 *   `invalid_request_error` with `param`, as the API returns them).
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const Plan = z.object({ queries: z.array(z.string()).min(1) });
const prompt = { system: "Plan the searches.", user: "Question: who wrote the Tariff of 1828?" };
const noWait = async () => {};
const budget = () => new Budget(budgetsForMode("standard"));
const plan = (llm: ChatModel, b = budget()) =>
  askModel({ llm, budget: b, draw: "gathering", sleep: noWait }, { stage: "plan", prompt, maxTokens: 300, schema: Plan });
const write = (llm: ChatModel, b = budget()) => askModel({ llm, budget: b, draw: "synthesis", sleep: noWait }, { stage: "write", prompt, maxTokens: 300 });

/** An endpoint answering each request from `route`; every request's headers and body are kept. */
function endpoint(url: string, route: (body: Record<string, any>, index: number) => { status?: number; json: unknown }) {
  const requests: { headers: Headers; body: Record<string, any> }[] = [];
  server.use(
    http.post(url, async ({ request }) => {
      const body = (await request.json()) as Record<string, any>;
      requests.push({ headers: request.headers, body });
      const answer = route(body, requests.length - 1);
      return HttpResponse.json(answer.json as Record<string, unknown>, { status: answer.status ?? 200 });
    }),
  );
  return requests;
}

// --- Anthropic ---------------------------------------------------------------------------------

/** A Messages API response as the reference documents it: a thinking block may come before the text. */
function message(content: unknown[], stop_reason: string, usage = { input_tokens: 1400, output_tokens: 90 }) {
  return {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: DEFAULT_MODELS.anthropic,
    content,
    stop_reason,
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}
const thinking = { type: "thinking", thinking: "The question names a tariff; search its author.", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" };
const ANTHROPIC = "https://api.anthropic.com/v1/messages";
const anthropicModel = () => createChatModel({ LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "sk-ant-test" })!;

describe("Anthropic Messages API contract", () => {
  it("the default model is a current one; a JSON call ends on the user turn (no prefill) and reads the text block after thinking", async () => {
    const requests = endpoint(ANTHROPIC, () => ({ json: message([thinking, { type: "text", text: '{"queries": ["Tariff of 1828 author"]}' }], "end_turn") }));
    const b = budget();
    expect(await plan(anthropicModel(), b)).toMatchObject({ ok: true, value: { queries: ["Tariff of 1828 author"] } });
    const [{ headers, body }] = requests as [(typeof requests)[0]];
    expect(headers.get("x-api-key")).toBe("sk-ant-test");
    expect(headers.get("anthropic-version")).toBe("2023-06-01");
    expect(body.model).toBe("claude-haiku-5-5");
    expect(body).toMatchObject({ max_tokens: 300, messages: [{ role: "user", content: prompt.user }] });
    expect(body.messages.at(-1).role).toBe("user");
    expect(body).not.toHaveProperty("temperature"); // Haiku 5.5 refuses sampling parameters
    // Thinking counts toward max_tokens (.../models/haiku-5-5/whats-new-haiku-5-5): the answer gets the whole budget.
    expect(body.thinking).toEqual({ type: "disabled" });
    expect(b.costUsd).toBe(llmCostUsd(1400, 90));
  });

  it("a model that always thinks refuses thinking disabled with 400: asked again without it, once per model", async () => {
    // The error shape is https://platform.claude.com/docs/en/api/errors; the message's wording is ours.
    const refusal = { type: "error", error: { type: "invalid_request_error", message: "thinking.type.disabled is not supported for this model." } };
    const requests = endpoint(ANTHROPIC, (body) =>
      body.thinking ? { status: 400, json: refusal } : { json: message([thinking, { type: "text", text: "Calhoun [1]." }], "end_turn") },
    );
    const model = createChatModel({ LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k", LLM_MODEL: "claude-opus-5-5" })!;
    const b = budget();
    expect(await write(model, b)).toMatchObject({ ok: true, value: "Calhoun [1]." });
    expect(await write(model, b)).toMatchObject({ ok: true });
    expect(requests.map((request) => "thinking" in request.body)).toEqual([true, false, false]);
    expect(b.costUsd).toBeCloseTo(2 * llmCostUsd(1400, 90), 9);
  });

  it("stop_reason max_tokens with only thinking is a failed call: not retried, nothing charged", async () => {
    const requests = endpoint(ANTHROPIC, () => ({ json: message([thinking], "max_tokens", { input_tokens: 1400, output_tokens: 300 }) }));
    const b = budget();
    const answer = await plan(anthropicModel(), b);
    expect(answer).toMatchObject({ ok: false, reason: "provider" });
    expect(answer.ok ? "" : answer.detail).toMatch(/stop_reason max_tokens/);
    expect(requests).toHaveLength(1);
    expect(b.costUsd).toBe(0);
  });

  it("stop_reason refusal is a failed call even with part of an answer, nothing charged; max_tokens with text keeps the text", async () => {
    const refused = endpoint(ANTHROPIC, () => ({ json: message([{ type: "text", text: "The tariff was" }], "refusal") }));
    const b = budget();
    const answer = await write(anthropicModel(), b);
    expect(answer).toMatchObject({ ok: false, reason: "provider" });
    expect(answer.ok ? "" : answer.detail).toMatch(/refusal/);
    expect(refused).toHaveLength(1);
    expect(b.costUsd).toBe(0);

    endpoint(ANTHROPIC, () => ({ json: message([{ type: "text", text: "Calhoun drafted [1]" }], "max_tokens") }));
    expect(await write(anthropicModel())).toMatchObject({ ok: true, value: "Calhoun drafted [1]" });
  });
});

// --- OpenAI ------------------------------------------------------------------------------------

const OPENAI = "https://api.openai.com/v1/chat/completions";
/** A chat completion as the reference documents it (usage with the reasoning tokens of an o-series or gpt-5 model). */
function completion(content: string | null, finish_reason: string, extra: Record<string, unknown> = {}) {
  return {
    id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion",
    created: 1_741_570_283,
    model: "gpt-5-mini-2025-08-07",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null, annotations: [], ...extra }, finish_reason }],
    usage: { prompt_tokens: 1100, completion_tokens: 300, total_tokens: 1400, completion_tokens_details: { reasoning_tokens: 300 } },
  };
}
/** OpenAI's 400 to a parameter a reasoning model does not take. */
const unsupported = (param: string, message: string) => ({
  status: 400,
  json: { error: { message, type: "invalid_request_error", param, code: param === "temperature" ? "unsupported_value" : "unsupported_parameter" } },
});
const TEMPERATURE_400 = unsupported(
  "temperature",
  "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
);
const MAX_TOKENS_400 = unsupported("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
const openAiModel = () => createChatModel({ LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", LLM_MODEL: "gpt-5-mini" })!;

describe("OpenAI chat completions contract (reasoning models)", () => {
  it("sends max_completion_tokens; a 400 naming temperature is answered without it, and the model stops sending it", async () => {
    const requests = endpoint(OPENAI, (body) => ("temperature" in body ? TEMPERATURE_400 : { json: completion('{"queries": ["q"]}', "stop") }));
    const model = openAiModel();
    const b = budget();
    expect(await plan(model, b)).toMatchObject({ ok: true, value: { queries: ["q"] } });
    expect(await plan(model, b)).toMatchObject({ ok: true });
    expect(requests.map((request) => "temperature" in request.body)).toEqual([true, false, false]);
    for (const { body } of requests) {
      expect(body).toMatchObject({ model: "gpt-5-mini", max_completion_tokens: 300 });
      expect(body).not.toHaveProperty("max_tokens");
    }
    // Charged for the two answered calls only, never for the refused one.
    expect(b.costUsd).toBeCloseTo(2 * llmCostUsd(1100, 300), 9);
  });

  it("the default model (gpt-6-luna) is asked with reasoning_effort none; a model without the setting refuses it once and is asked without it from then on", async () => {
    expect(DEFAULT_MODELS.openai).toBe("gpt-6-luna");
    const luna = endpoint(OPENAI, () => ({ json: completion("Calhoun [1].", "stop") }));
    expect(await write(createChatModel({ LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-test" })!)).toMatchObject({ ok: true });
    expect(luna[0]?.body).toMatchObject({ model: "gpt-6-luna", reasoning_effort: "none", max_completion_tokens: 300 });
    server.resetHandlers();
    const REASONING_400 = unsupported("reasoning_effort", "Unsupported parameter: 'reasoning_effort' is not supported with this model.");
    const older = endpoint(OPENAI, (body) => ("reasoning_effort" in body ? REASONING_400 : { json: completion("Calhoun [1].", "stop") }));
    const model = createChatModel({ LLM_PROVIDER: "openai", OPENAI_API_KEY: "sk-test", LLM_MODEL: "gpt-4o-mini" })!;
    expect(await write(model)).toMatchObject({ ok: true });
    expect(await write(model)).toMatchObject({ ok: true });
    expect(older.map((request) => "reasoning_effort" in request.body)).toEqual([true, false, false]);
    // Another OpenAI-compatible server is never sent it.
    const base = "https://gateway.example/v1";
    const other = endpoint(`${base}/chat/completions`, () => ({ json: completion("Calhoun [1].", "stop") }));
    await write(createChatModel({ LLM_PROVIDER: "openai", OPENAI_BASE_URL: base, LLM_MODEL: "llama" })!);
    expect(other[0]?.body).not.toHaveProperty("reasoning_effort");
  });

  it("a server that refuses max_tokens (another host in front of a reasoning model) is asked with max_completion_tokens from then on", async () => {
    const base = "https://gateway.example/v1";
    const requests = endpoint(`${base}/chat/completions`, (body) => ("max_tokens" in body ? MAX_TOKENS_400 : { json: completion("Calhoun [1].", "stop") }));
    const model = createChatModel({ LLM_PROVIDER: "openai", OPENAI_BASE_URL: base, LLM_MODEL: "o4-mini" })!;
    expect(await write(model)).toMatchObject({ ok: true, value: "Calhoun [1]." });
    expect(await write(model)).toMatchObject({ ok: true });
    expect(requests.map((request) => ("max_tokens" in request.body ? "max_tokens" : "max_completion_tokens"))).toEqual([
      "max_tokens",
      "max_completion_tokens",
      "max_completion_tokens",
    ]);
  });

  it("finish_reason length with empty content (reasoning used the budget) is a failed call: not retried, nothing charged", async () => {
    const requests = endpoint(OPENAI, () => ({ json: completion("", "length") }));
    const b = budget();
    const answer = await plan(openAiModel(), b);
    expect(answer).toMatchObject({ ok: false, reason: "provider" });
    expect(answer.ok ? "" : answer.detail).toMatch(/finish_reason length/);
    expect(requests.length).toBeLessThan(MODEL_ATTEMPTS);
    expect(b.costUsd).toBe(0);
  });

  it("a refusal (content null, refusal set) is a failed call too", async () => {
    endpoint(OPENAI, () => ({ json: completion(null, "stop", { refusal: "I'm sorry, I can't help with that." }) }));
    const b = budget();
    expect(await write(openAiModel(), b)).toMatchObject({ ok: false, reason: "provider", detail: expect.stringMatching(/refusal/) });
    expect(b.costUsd).toBe(0);
  });

  it("reads the refused field from OpenAI's param first, and from words elsewhere; a 400 about a value names none", () => {
    expect(refusedParam(`openai: HTTP 400: ${JSON.stringify(MAX_TOKENS_400.json)}`)).toBe("max_tokens");
    expect(refusedParam(`openai: HTTP 400: ${JSON.stringify(TEMPERATURE_400.json)}`)).toBe("temperature");
    expect(refusedParam('openai: HTTP 400: {"detail": "Unknown field max_completion_tokens"}')).toBe("max_completion_tokens");
    expect(refusedParam("openai: HTTP 400: 'max_tokens' or 'max_completion_tokens' is too large: 4096")).toBeUndefined();
  });
});
