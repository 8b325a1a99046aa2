import { providerJson } from "../http";
import { type ChatModel, type ChatRequest, type ChatResponse, ProviderError } from "../types";
import { noText } from "./no-text";
import { MODEL_TIMEOUT_MS, type ModelOptions } from "./options";

/** The parts of a chat completion we read (openai-node `ChatCompletion`, src/resources/chat/completions). */
interface Completion {
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

type TokenField = "max_tokens" | "max_completion_tokens";

/**
 * OpenAI-compatible chat completions (POST {base}/chat/completions): OpenAI, OpenRouter, Groq,
 * vLLM, Ollama, llama.cpp and others. Token usage comes from the response's `usage`.
 *
 * What a server refuses is learned from its 400 (or 422), once per model, and the call is made
 * again without it:
 * - the output limit: OpenAI itself gets `max_completion_tokens` (its reasoning models, o-series and
 *   gpt-5, refuse `max_tokens`); any other server gets `max_tokens`, which llama.cpp, vLLM and
 *   Ollama all read (Ollama ignores a field it does not know, so it would run unbounded). A 400
 *   naming the field sent switches to the other one.
 * - `temperature: 0.2`: reasoning models take only the default, and say so naming `temperature`.
 * - `reasoning_effort: "none"`, to OpenAI only: its current models reason by default (gpt-6-luna at
 *   `medium`, https://developers.openai.com/api/docs/models/gpt-6-luna), and reasoning tokens count
 *   toward `max_completion_tokens`, which the engine sizes and prices as the answer; a model
 *   without the setting (gpt-4o-mini) refuses it naming `reasoning_effort`.
 * - `response_format: {type: "json_object"}`: some llama.cpp, vLLM and Ollama builds refuse it;
 *   the engine then parses JSON out of prose.
 *
 * `finish_reason` is read: `length` (reasoning used the whole budget), `content_filter` or a
 * `refusal` with no text is a failed call, never charged as text.
 */
export class OpenAiCompatibleModel implements ChatModel {
  readonly name: string;
  readonly contextTokens?: number;
  private readonly timeoutMs: number;
  /** False once the server refused `response_format`. */
  private jsonMode = true;
  /** False once the model refused `temperature`. */
  private temperature = true;
  /** True while `reasoning_effort: "none"` is sent (OpenAI's own API, until a model refuses it). */
  private noReasoning: boolean;
  private tokenField: TokenField;

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
    options: ModelOptions = {},
  ) {
    this.name = `openai:${model}`;
    this.timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
    if (options.contextTokens) this.contextTokens = options.contextTokens;
    this.tokenField = isOpenAi(baseUrl) ? "max_completion_tokens" : "max_tokens";
    this.noReasoning = isOpenAi(baseUrl);
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    let withFormat = Boolean(request.json) && this.jsonMode;
    let droppedFormat = false;
    let body: Completion;
    // At most one retry per thing a server can refuse (token field, temperature, reasoning, format).
    for (let attempt = 0; ; attempt++) {
      try {
        body = await this.post(request, withFormat);
        break;
      } catch (error) {
        if (attempt >= 4 || !refused(error)) throw error;
        if (this.learn(error)) continue;
        if (!withFormat) throw error;
        withFormat = false;
        droppedFormat = true;
      }
    }
    // The same request without response_format was accepted: the format was what the server refused.
    if (droppedFormat) this.jsonMode = false;
    const choice = body.choices?.[0];
    const text = choice?.message?.content ?? "";
    if (!text.trim()) {
      const why = choice?.message?.refusal ? "refusal" : `finish_reason ${choice?.finish_reason ?? "none"}`;
      throw noText("openai", `${why}, no text`);
    }
    return { text, inputTokens: body.usage?.prompt_tokens ?? 0, outputTokens: body.usage?.completion_tokens ?? 0 };
  }

  /** Stops sending what a 400 names, if this model still sends it; false when it names nothing we can drop. */
  private learn(error: ProviderError): boolean {
    const param = refusedParam(error.message);
    if (param === "temperature" && this.temperature) {
      this.temperature = false;
      return true;
    }
    if (param === "reasoning_effort" && this.noReasoning) {
      this.noReasoning = false;
      return true;
    }
    if (param === this.tokenField) {
      this.tokenField = param === "max_tokens" ? "max_completion_tokens" : "max_tokens";
      return true;
    }
    return false;
  }

  private post(request: ChatRequest, withFormat: boolean): Promise<Completion> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    return providerJson<Completion>("openai", `${this.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: this.model,
        messages: [{ role: "system", content: request.system }, ...request.messages],
        [this.tokenField]: request.maxTokens,
        ...(this.temperature ? { temperature: 0.2 } : {}),
        ...(this.noReasoning ? { reasoning_effort: "none" } : {}),
        ...(withFormat ? { response_format: { type: "json_object" } } : {}),
      }),
      signal: request.signal,
      timeoutMs: this.timeoutMs,
    });
  }
}

/** OpenAI's own API, whose current models take `max_completion_tokens` (and refuse `max_tokens` on reasoning models). */
function isOpenAi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/** A 400 (or 422): the server refused something in the request. */
function refused(error: unknown): error is ProviderError {
  return error instanceof ProviderError && (error.status === 400 || error.status === 422);
}

/**
 * The request field a 400 says the server does not take. OpenAI's error says it in `param`
 * ("Unsupported parameter: 'max_tokens' is not supported with this model. Use
 * 'max_completion_tokens' instead.", param "max_tokens"), so `param` is read first: the message
 * names the other field too. Other servers only say it in words. A 400 about a field's value (a
 * limit too large for the context) names no field here: dropping or switching it would not help.
 */
export function refusedParam(message: string): string | undefined {
  if (!/unsupported|not supported|unknown|unrecognized|not allowed|not permitted|extra (?:inputs|fields)/i.test(message)) return undefined;
  const param = /"param"\s*:\s*"([a-z_]+)"/.exec(message)?.[1] ?? /Unsupported (?:parameter|value): '([a-z_]+)'/i.exec(message)?.[1];
  if (param) return param;
  return /\b(max_completion_tokens|max_tokens|temperature|reasoning_effort)\b/.exec(message)?.[1];
}
