import { describe, expect, it } from "vitest";
import { Budget } from "../../src/research/engine/budget";
import { askModel } from "../../src/research/engine/model";
import { budgetsForMode, llmCostUsd } from "../../src/research/pricing";
import { DEFAULT_MODELS } from "../../src/research/providers/llm/defaults";
import { type AiBinding, WorkersAiModel } from "../../src/research/providers/llm/workers-ai";

/**
 * Issue 41, item 4: Workers AI as its docs say it answers today. The models deprecated on
 * 2026-05-30 answered `{response, usage}`; the recommended replacements answer the chat-completions
 * shape `{choices: [{message: {content}, finish_reason}], usage}`
 * (https://developers.cloudflare.com/changelog/post/2026-05-08-planned-model-deprecations/). The
 * binding's `run(model, inputs, options)` takes `options.signal` (workers-types `AiOptions`).
 */
const prompt = { system: "Write.", user: "The sources." };
const noWait = async () => {};
const write = (llm: WorkersAiModel, budget = new Budget(budgetsForMode("standard")), signal?: AbortSignal) =>
  askModel({ llm, budget, draw: "synthesis", sleep: noWait, signal }, { stage: "write", prompt, maxTokens: 300 });

function binding(answer: (options: { signal?: AbortSignal } | undefined) => Promise<unknown> | unknown) {
  const calls: { model: string; options?: { signal?: AbortSignal } }[] = [];
  const ai: AiBinding = {
    async run(model, _input, options) {
      calls.push({ model, options });
      return answer(options);
    },
  };
  return { ai, calls };
}

describe("Workers AI, current models", () => {
  it("the default writer is a current model, not the deprecated llama-3.1-8b-instruct", () => {
    expect(DEFAULT_MODELS["workers-ai"]).toBe("@cf/zai-org/glm-4.7-flash");
  });

  it("reads the chat-completions answer of the current models, and charges its reported usage", async () => {
    const { ai } = binding(() => ({
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "The brief [1]." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 900, completion_tokens: 30, total_tokens: 930 },
    }));
    const budget = new Budget(budgetsForMode("standard"));
    expect(await write(new WorkersAiModel(ai, DEFAULT_MODELS["workers-ai"]), budget)).toMatchObject({ ok: true, value: "The brief [1]." });
    expect(budget.costUsd).toBe(llmCostUsd(900, 30));
  });

  it("a call that produced no text is a failed call, not retried and not charged", async () => {
    const { ai, calls } = binding(() => ({
      choices: [{ message: { content: "" }, finish_reason: "length" }],
      usage: { prompt_tokens: 900, completion_tokens: 300 },
    }));
    const budget = new Budget(budgetsForMode("standard"));
    const answer = await write(new WorkersAiModel(ai, "m"), budget);
    expect(answer).toMatchObject({ ok: false, reason: "provider", detail: expect.stringContaining("no text (finish_reason length)") });
    expect(calls).toHaveLength(1);
    expect(budget.costUsd).toBe(0);
  });

  it("passes the binding an abort signal that the job's cancel aborts, so an abandoned call stops", async () => {
    const abort = new AbortController();
    const { ai, calls } = binding(
      (options) =>
        new Promise((_, reject) => {
          options?.signal?.addEventListener("abort", () => reject(new Error("The operation was aborted")));
          abort.abort(new Error("cancelled"));
        }),
    );
    expect(await write(new WorkersAiModel(ai, "m"), undefined, abort.signal)).toMatchObject({ ok: false, reason: "aborted" });
    expect(calls[0]!.options?.signal?.aborted).toBe(true);
  });
});
