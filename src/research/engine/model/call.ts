import type { z } from "zod";
import { llmCostUsd } from "../../pricing";
import { type ChatMessage, type ChatModel, ProviderError } from "../../providers/types";
import type { Budget } from "../budget";
import { type Prompt, repairPrompt } from "../prompts";
import { estimateTokens } from "./context";
import { parseModelJson } from "./json";

/** The stages a hosted model may take; each falls back to its offline version when a call does not succeed. */
export type ModelStage = "plan" | "reflect" | "write" | "revise" | "critic" | "typed";

export interface ModelContext {
  llm: ChatModel;
  budget: Budget;
  /** Cancel or the deadline: aborts an in-flight call. */
  signal?: AbortSignal;
  /**
   * What the call draws on: `gathering` (plan, reflect) may only spend what the fan-out may, so the
   * synthesis reserve holds; `synthesis` (write, critic, typed) may use the reserve, never more.
   */
  draw: "gathering" | "synthesis";
  /** Waits between retries (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

export interface ModelAsk<T> {
  stage: ModelStage;
  prompt: Prompt;
  /** The answer's length at most, in tokens: what the gate prices before the call. */
  maxTokens: number;
  /** When set, the answer is JSON checked by this schema (one repair turn, then the call fails). */
  schema?: z.ZodType<T>;
  /**
   * How the answer's text becomes the value the schema checks (default `parseModelJson`); a stage
   * may accept more than JSON (the write stage takes a prose brief with its [n] markers).
   * Undefined: not a value (the repair turn says so).
   */
  read?: (text: string) => unknown;
}

export type ModelAnswer<T> =
  | { ok: true; value: T; text: string }
  /** Why the stage falls back: the envelope cannot pay, the provider kept failing, the answer never validated, or the job stopped. */
  | { ok: false; reason: "budget" | "provider" | "invalid" | "aborted"; detail: string };

/** Attempts of one call when the provider answers 429 or 5xx (or the network fails), within the time left. */
export const MODEL_ATTEMPTS = 3;
const BACKOFF_MS = 500;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One call of a hosted model inside the job's envelope: priced from an estimate of its tokens
 * before it is made (refused when the envelope cannot pay), charged from the usage the provider
 * reports (the estimate when it reports none), retried with backoff on 429 and 5xx while time is
 * left, aborted with the job. A JSON answer is parsed tolerantly and validated; an invalid one gets
 * one repair turn with the validator's errors. Never throws: a failed call is the stage's cue to
 * fall back to its offline version.
 */
export async function askModel<T = string>(context: ModelContext, ask: ModelAsk<T>): Promise<ModelAnswer<T>> {
  const messages: ChatMessage[] = [{ role: "user", content: ask.prompt.user }];
  let problem = "";
  for (let turn = 0; turn < (ask.schema ? 2 : 1); turn++) {
    if (turn === 1) messages.push({ role: "user", content: repairPrompt(problem) });
    const answered = await completeWithin(context, ask, messages);
    if (!answered.ok) return answered;
    const text = answered.text;
    if (!ask.schema) return { ok: true, value: text as T, text };
    messages.push({ role: "assistant", content: text });
    const json = (ask.read ?? parseModelJson)(text);
    if (json === undefined) {
      problem = "The answer is not JSON.";
      continue;
    }
    const parsed = ask.schema.safeParse(json);
    if (parsed.success) return { ok: true, value: parsed.data, text };
    problem = parsed.error.issues
      .slice(0, 8)
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
      .join("\n");
  }
  return { ok: false, reason: "invalid", detail: `${ask.stage}: ${problem}` };
}

/** One completion, gated, charged and retried; the text or why there is none. */
async function completeWithin(
  context: ModelContext,
  ask: ModelAsk<unknown>,
  messages: ChatMessage[],
): Promise<{ ok: true; text: string } | Extract<ModelAnswer<never>, { ok: false }>> {
  const { llm, budget, signal } = context;
  const json = ask.schema !== undefined;
  const promptTokens = estimateTokens(ask.prompt.system) + messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) return { ok: false, reason: "aborted", detail: `${ask.stage}: the job stopped` };
    if (!affordable(context, llmCostUsd(promptTokens, ask.maxTokens)))
      return { ok: false, reason: "budget", detail: `${ask.stage}: the envelope cannot pay for the call` };
    try {
      const response = await llm.complete({ system: ask.prompt.system, messages: [...messages], maxTokens: ask.maxTokens, json, signal });
      const reported = response.inputTokens > 0 || response.outputTokens > 0;
      budget.chargeUsd(reported ? llmCostUsd(response.inputTokens, response.outputTokens) : llmCostUsd(promptTokens, estimateTokens(response.text)));
      return { ok: true, text: response.text };
    } catch (error) {
      if (signal?.aborted) return { ok: false, reason: "aborted", detail: `${ask.stage}: the job stopped` };
      const retryable = !(error instanceof ProviderError) || error.retryable;
      const wait = BACKOFF_MS * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
      if (!retryable || attempt >= MODEL_ATTEMPTS || wait >= timeLeftMs(context)) {
        return { ok: false, reason: "provider", detail: `${ask.stage}: ${error instanceof Error ? error.message : String(error)}` };
      }
      await (context.sleep ?? pause)(wait);
    }
  }
}

function affordable(context: ModelContext, usd: number): boolean {
  const { budget } = context;
  if (context.draw === "synthesis") return budget.canAfford(usd);
  return usd <= budget.gatheringCostLeftUsd() + 1e-9 && budget.gatheringTimeLeftMs() > 0;
}

function timeLeftMs(context: ModelContext): number {
  return context.draw === "synthesis" ? context.budget.timeLeftMs() : context.budget.gatheringTimeLeftMs();
}
