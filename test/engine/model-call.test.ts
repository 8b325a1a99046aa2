import { describe, expect, it } from "vitest";
import { z } from "zod";
import { budgetsForMode } from "../../src/research/pricing";
import { Budget } from "../../src/research/engine/budget";
import { askModel, evidenceChars, fitBlocks, MODEL_ATTEMPTS, parseModelJson } from "../../src/research/engine/model";
import { type ChatModel, type ChatRequest, ProviderError } from "../../src/research/providers/types";

/** A model that answers from a script, one entry per call: text, or an error to throw. */
function scripted(answers: (string | Error)[], usage = { inputTokens: 1000, outputTokens: 200 }) {
  const calls: ChatRequest[] = [];
  const model: ChatModel = {
    name: "scripted",
    async complete(request) {
      calls.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error("the script ran out");
      if (next instanceof Error) throw next;
      return { text: next, ...usage };
    },
  };
  return { model, calls };
}

const noWait = async () => {};
const prompt = { system: "Answer.", user: "The question." };
const Plan = z.object({ queries: z.array(z.string()).min(1) });

describe("parseModelJson: what real models answer", () => {
  it("reads a bare value, a fenced block, and a value inside prose", () => {
    expect(parseModelJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseModelJson('Here you go:\n```json\n{"a":[1,2]}\n```\nHope that helps.')).toEqual({ a: [1, 2] });
    expect(parseModelJson('Sure! The plan is {"queries":["x {y}"]} as asked.')).toEqual({ queries: ["x {y}"] });
    expect(parseModelJson('```\n["a","b"]')).toEqual(["a", "b"]);
  });

  it("finds nothing where there is no JSON", () => {
    expect(parseModelJson("I cannot help with that.")).toBeUndefined();
    expect(parseModelJson('{"a": 1')).toBeUndefined();
  });
});

describe("fitBlocks: a context budget per call", () => {
  it("keeps every block whole when they fit, and shares the budget fairly when they do not", () => {
    expect(fitBlocks(["one", "two"], 100)).toEqual(["one", "two"]);
    const cut = fitBlocks(["a".repeat(1000), "b".repeat(100), "c".repeat(1000)], 900);
    expect(cut.join("").length).toBeLessThanOrEqual(900);
    expect(cut[1]).toBe("b".repeat(100));
    expect(cut[0]!.endsWith("…")).toBe(true);
    expect(cut).toHaveLength(3);
  });
});

describe("evidenceChars: a stage's budget, smaller for a model with a small window (LLM_CONTEXT_TOKENS)", () => {
  it("keeps the stage's budget when the window is unknown or larger, and shrinks it to fit a small one", () => {
    expect(evidenceChars({}, 8000, 800)).toBe(32_000);
    expect(evidenceChars({ contextTokens: 128_000 }, 8000, 800)).toBe(32_000);
    // 8k window: 8192 - 800 answer - 1000 instructions.
    expect(evidenceChars({ contextTokens: 8192 }, 8000, 800)).toBe(6392 * 4);
    expect(evidenceChars({ contextTokens: 1024 }, 8000, 800)).toBe(256 * 4);
  });
});

describe("askModel: one call inside the envelope", () => {
  const budget = () => new Budget(budgetsForMode("standard"));

  it("validates JSON, charges the usage the provider reports", async () => {
    const { model } = scripted(['{"queries":["tariff of 1828"]}']);
    const b = budget();
    const answer = await askModel({ llm: model, budget: b, draw: "gathering" }, { stage: "plan", prompt, maxTokens: 300, schema: Plan });
    expect(answer).toMatchObject({ ok: true, value: { queries: ["tariff of 1828"] } });
    expect(b.costUsd).toBeGreaterThan(0);
  });

  it("one repair turn with the validator's errors, then the stage falls back", async () => {
    const repaired = scripted(['{"queries":[]}', 'Fixed: {"queries":["a"]}']);
    const ok = await askModel({ llm: repaired.model, budget: budget(), draw: "gathering" }, { stage: "plan", prompt, maxTokens: 300, schema: Plan });
    expect(ok).toMatchObject({ ok: true, value: { queries: ["a"] } });
    expect(repaired.calls[1]!.messages.at(-1)!.content).toMatch(/queries/);

    const hopeless = scripted(["not json", "still not json"]);
    const failed = await askModel({ llm: hopeless.model, budget: budget(), draw: "gathering" }, { stage: "plan", prompt, maxTokens: 300, schema: Plan });
    expect(failed).toMatchObject({ ok: false, reason: "invalid" });
    expect(hopeless.calls).toHaveLength(2);
  });

  it("retries a 429 and a 5xx with backoff, gives up after its attempts, never retries a 400", async () => {
    const flaky = scripted([new ProviderError("openai", "rate limited", 429), new ProviderError("openai", "HTTP 503", 503), "done"]);
    expect(await askModel({ llm: flaky.model, budget: budget(), draw: "synthesis", sleep: noWait }, { stage: "write", prompt, maxTokens: 300 })).toMatchObject({
      ok: true,
      value: "done",
    });

    const down = scripted(Array.from({ length: MODEL_ATTEMPTS + 1 }, () => new ProviderError("openai", "HTTP 500", 500)));
    expect(await askModel({ llm: down.model, budget: budget(), draw: "synthesis", sleep: noWait }, { stage: "write", prompt, maxTokens: 300 })).toMatchObject({
      ok: false,
      reason: "provider",
    });
    expect(down.calls).toHaveLength(MODEL_ATTEMPTS);

    const refused = scripted([new ProviderError("openai", "HTTP 400", 400), "never"]);
    expect(
      await askModel({ llm: refused.model, budget: budget(), draw: "synthesis", sleep: noWait }, { stage: "write", prompt, maxTokens: 300 }),
    ).toMatchObject({ ok: false, reason: "provider" });
    expect(refused.calls).toHaveLength(1);
  });

  it("is not made when the envelope cannot pay for it; the gathering draw leaves the synthesis reserve alone", async () => {
    const b = budget();
    b.chargeUsd(b.envelope.max_cost_usd - b.envelope.synthesis_cost_reserve_usd);
    const { model, calls } = scripted(["never"]);
    expect(await askModel({ llm: model, budget: b, draw: "gathering" }, { stage: "reflect", prompt, maxTokens: 300 })).toMatchObject({
      ok: false,
      reason: "budget",
    });
    expect(calls).toHaveLength(0);
    // The write stage may use the reserve.
    const writer = scripted(["the brief"]);
    expect(await askModel({ llm: writer.model, budget: b, draw: "synthesis" }, { stage: "write", prompt, maxTokens: 300 })).toMatchObject({ ok: true });
  });

  it("charges an estimate when the provider reports no usage (local servers), and stops with the job", async () => {
    const b = budget();
    const { model } = scripted(["an answer of some length"], { inputTokens: 0, outputTokens: 0 });
    await askModel({ llm: model, budget: b, draw: "synthesis" }, { stage: "write", prompt, maxTokens: 300 });
    expect(b.costUsd).toBeGreaterThan(0);

    const abort = new AbortController();
    abort.abort(new Error("cancelled"));
    const stopped = scripted(["never"]);
    expect(
      await askModel({ llm: stopped.model, budget: budget(), draw: "synthesis", signal: abort.signal }, { stage: "write", prompt, maxTokens: 300 }),
    ).toMatchObject({ ok: false, reason: "aborted" });
    expect(stopped.calls).toHaveLength(0);
  });
});
