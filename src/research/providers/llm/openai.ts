import { providerJson } from "../http";
import { type ChatModel, type ChatRequest, type ChatResponse, ProviderError } from "../types";
import { MODEL_TIMEOUT_MS, type ModelOptions } from "./options";

interface Completion {
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * OpenAI-compatible chat completions (POST {base}/chat/completions): OpenAI, OpenRouter, Groq,
 * vLLM, Ollama, llama.cpp and others. Token usage comes from the response's `usage`.
 *
 * JSON is asked with `response_format: {type: "json_object"}`. Some local servers refuse a
 * `response_format` they do not know (llama.cpp and vLLM builds, some Ollama versions answer 400
 * or 422): the call is then made again once without it (the engine parses JSON out of prose), and
 * this model stops sending it.
 */
export class OpenAiCompatibleModel implements ChatModel {
  readonly name: string;
  readonly contextTokens?: number;
  private readonly timeoutMs: number;
  /** False once the server refused `response_format`. */
  private jsonMode = true;

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
    options: ModelOptions = {},
  ) {
    this.name = `openai:${model}`;
    this.timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
    if (options.contextTokens) this.contextTokens = options.contextTokens;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const withFormat = Boolean(request.json) && this.jsonMode;
    let body: Completion;
    try {
      body = await this.post(request, withFormat);
    } catch (error) {
      if (!withFormat || !refusedFormat(error)) throw error;
      body = await this.post(request, false);
      // The same request without response_format was accepted: the format was what the server refused.
      this.jsonMode = false;
    }
    return {
      text: body.choices?.[0]?.message?.content ?? "",
      inputTokens: body.usage?.prompt_tokens ?? 0,
      outputTokens: body.usage?.completion_tokens ?? 0,
    };
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
        max_tokens: request.maxTokens,
        temperature: 0.2,
        ...(withFormat ? { response_format: { type: "json_object" } } : {}),
      }),
      signal: request.signal,
      timeoutMs: this.timeoutMs,
    });
  }
}

/** A 400 (or 422) to a call that asked for JSON: the server may not know `response_format`. */
function refusedFormat(error: unknown): boolean {
  return error instanceof ProviderError && (error.status === 400 || error.status === 422);
}
