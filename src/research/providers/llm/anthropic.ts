import { providerJson } from "../http";
import type { ChatModel, ChatRequest, ChatResponse } from "../types";

/** Anthropic Messages API (POST /v1/messages); usage.input_tokens / output_tokens are metered. */
export class AnthropicModel implements ChatModel {
  readonly name: string;

  constructor(
    private readonly apiKey: string,
    private readonly model: string,
    private readonly baseUrl = "https://api.anthropic.com",
  ) {
    this.name = `anthropic:${model}`;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const body = await providerJson<{
      content?: { type: string; text?: string }[];
      usage?: { input_tokens?: number; output_tokens?: number };
    }>("anthropic", `${this.baseUrl.replace(/\/+$/, "")}/v1/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-api-key": this.apiKey, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: this.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: request.messages.filter((message) => message.role !== "system"),
      }),
      signal: request.signal,
      timeoutMs: 90_000,
    });
    return {
      text: (body.content ?? []).filter((block) => block.type === "text").map((block) => block.text ?? "").join(""),
      inputTokens: body.usage?.input_tokens ?? 0,
      outputTokens: body.usage?.output_tokens ?? 0,
    };
  }
}
