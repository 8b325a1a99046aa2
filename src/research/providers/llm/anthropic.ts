import { providerJson } from "../http";
import { type ChatMessage, type ChatModel, type ChatRequest, type ChatResponse, ProviderError } from "../types";
import { MODEL_TIMEOUT_MS, type ModelOptions } from "./options";

interface Message {
  content?: { type: string; text?: string }[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Said after the system text when the answer must be JSON (the Messages API has no JSON mode). */
export const ANTHROPIC_JSON_INSTRUCTION = "Answer with one JSON object only: no prose and no code fence around it.";

/**
 * Anthropic Messages API (POST /v1/messages); usage.input_tokens / output_tokens are metered.
 *
 * The API has no JSON mode: a JSON call says so after the system text and prefills the answer
 * with "{" (an assistant turn the model continues), which is put back in front of the text it
 * returns. A model that refuses a prefill (400) is asked once more with the instruction alone.
 */
export class AnthropicModel implements ChatModel {
  readonly name: string;
  readonly contextTokens?: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly apiKey: string,
    private readonly model: string,
    private readonly baseUrl = "https://api.anthropic.com",
    options: ModelOptions = {},
  ) {
    this.name = `anthropic:${model}`;
    this.timeoutMs = options.timeoutMs ?? MODEL_TIMEOUT_MS;
    if (options.contextTokens) this.contextTokens = options.contextTokens;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const messages = request.messages.filter((message) => message.role !== "system");
    const prefill = Boolean(request.json) && messages.at(-1)?.role !== "assistant";
    let body: Message;
    let prefilled = prefill;
    try {
      body = await this.post(request, prefill ? [...messages, { role: "assistant", content: "{" }] : messages);
    } catch (error) {
      if (!prefill || !(error instanceof ProviderError) || error.status !== 400) throw error;
      body = await this.post(request, messages);
      prefilled = false;
    }
    const text = (body.content ?? [])
      .filter((block) => block.type === "text")
      .map((block) => block.text ?? "")
      .join("");
    return {
      // The prefill is part of the answer; a model that repeated it anyway is not given a second brace.
      text: prefilled && !text.trimStart().startsWith("{") ? `{${text}` : text,
      inputTokens: body.usage?.input_tokens ?? 0,
      outputTokens: body.usage?.output_tokens ?? 0,
    };
  }

  private post(request: ChatRequest, messages: ChatMessage[]): Promise<Message> {
    return providerJson<Message>("anthropic", `${this.baseUrl.replace(/\/+$/, "")}/v1/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-api-key": this.apiKey, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: this.model,
        max_tokens: request.maxTokens,
        system: request.json ? `${request.system}\n\n${ANTHROPIC_JSON_INSTRUCTION}` : request.system,
        messages,
      }),
      signal: request.signal,
      timeoutMs: this.timeoutMs,
    });
  }
}
