import { type ChatModel, type ChatRequest, type ChatResponse, ProviderError } from "../types";
import { MODEL_TIMEOUT_MS, type ModelOptions } from "./options";

/** The part of the Workers AI binding we use (the `[ai] binding = "AI"` npm run deploy adds); its options take an abort `signal` (workers-types `AiOptions`). */
export interface AiBinding {
  run(model: string, input: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * What a text model answers: the older models `{response, usage}`, the current ones (the
 * replacements Cloudflare recommends for the models deprecated on 2026-05-30) the chat-completions
 * shape `{choices: [{message: {content}, finish_reason}], usage}`. Both are read.
 */
interface AiResult {
  response?: string | object | null;
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * Workers AI through its binding. Text models answer `{ response, usage: { prompt_tokens,
 * completion_tokens } }`; when a model omits usage, tokens are estimated from the text length
 * so the call is still metered.
 *
 * JSON is asked with `response_format: {type: "json_object"}` (Workers AI's JSON mode, which some
 * models support; their `response` is then an object, written back as JSON text). A model that
 * refuses it is asked once more without it, and this model stops sending it.
 *
 * The binding's `signal` option is the job's signal and the call's timeout together, so an
 * abandoned call is stopped; the wait is raced against them too, so the job never waits on a
 * binding that does not stop. A call that produced no text (an empty message, `finish_reason`
 * `length` with nothing written) is a failed call, never charged. Its errors carry no HTTP
 * status: the message's Workers AI code or words say which are worth a retry.
 */
export class WorkersAiModel implements ChatModel {
  readonly name: string;
  readonly contextTokens?: number;
  private readonly timeoutMs: number;
  /** False once the model refused `response_format`. */
  private jsonMode = true;

  constructor(
    private readonly ai: AiBinding,
    private readonly model: string,
    options: ModelOptions = {},
  ) {
    this.name = `workers-ai:${model}`;
    this.timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
    if (options.contextTokens) this.contextTokens = options.contextTokens;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const messages = [{ role: "system", content: request.system }, ...request.messages];
    const input: Record<string, unknown> = { messages, max_tokens: request.maxTokens };
    const withFormat = Boolean(request.json) && this.jsonMode;
    let result: AiResult;
    try {
      result = await this.run(withFormat ? { ...input, response_format: { type: "json_object" } } : input, request.signal);
    } catch (error) {
      if (!withFormat || !(error instanceof ProviderError) || error.status !== 400) throw error;
      result = await this.run(input, request.signal);
      this.jsonMode = false;
    }
    const text = textOf(result);
    if (!text.trim()) {
      const finish = result?.choices?.[0]?.finish_reason;
      // Asked again it would answer the same: not a retry, and nothing to charge.
      throw new ProviderError("workers-ai", `the model answered no text${finish ? ` (finish_reason ${finish})` : ""}`, 422);
    }
    const prompt = messages.map((message) => message.content).join("\n");
    return {
      text,
      inputTokens: result?.usage?.prompt_tokens ?? Math.ceil(prompt.length / 4),
      outputTokens: result?.usage?.completion_tokens ?? Math.ceil(text.length / 4),
    };
  }

  private async run(input: Record<string, unknown>, signal?: AbortSignal): Promise<AiResult> {
    if (signal?.aborted) throw new ProviderError("workers-ai", `aborted: ${reasonText(signal.reason)}`);
    let stop: (error: ProviderError) => void = () => {};
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    const timer = setTimeout(() => stop(new ProviderError("workers-ai", `timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    const onAbort = () => stop(new ProviderError("workers-ai", `aborted: ${reasonText(signal?.reason)}`));
    signal?.addEventListener("abort", onAbort);
    try {
      const callSignal = AbortSignal.any([...(signal ? [signal] : []), AbortSignal.timeout(this.timeoutMs)]);
      const call = this.ai.run(this.model, input, { signal: callSignal }).catch((error: unknown) => {
        throw new ProviderError("workers-ai", error instanceof Error ? error.message : String(error), statusOf(error));
      });
      call.catch(() => {}); // a call the job stopped waiting for may still fail later: nobody listens
      return (await Promise.race([call, stopped])) as AiResult;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** The answer's text in either shape: `response` (a string, or an object in JSON mode) or the first choice's message. */
function textOf(result: AiResult | null | undefined): string {
  const response = result?.response;
  if (typeof response === "string") return response;
  if (response != null) return JSON.stringify(response);
  return result?.choices?.[0]?.message?.content ?? "";
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason ?? "the caller stopped");
}

/**
 * The HTTP status an error of the binding stands for: its own `status` when it has one, else
 * read from Workers AI's error codes and words (3040 capacity, 3036 daily allocation and rate
 * limits: 429; 5007 no such model, 5006 and 8001 invalid input: 400; 3001, 3043 internal: 500).
 * Undefined (a network failure, retried) when nothing says.
 */
export function statusOf(error: unknown): number | undefined {
  const own = (error as { status?: unknown } | null)?.status;
  if (typeof own === "number" && own >= 400) return own;
  const message = error instanceof Error ? error.message : String(error);
  if (/\b(3040|3036)\b|capacity|rate.?limit|too many requests|\b429\b/i.test(message)) return 429;
  if (/\b(5007|5006|8001)\b|no such model|invalid input|bad input|\b400\b/i.test(message)) return 400;
  if (/\b(3001|3043)\b|internal server error|\b50[0-4]\b/i.test(message)) return 500;
  return undefined;
}
