import { providerJson } from "../http";
import type { ChatModel, ChatRequest, ChatResponse } from "../types";

/**
 * OpenAI-compatible chat completions (POST {base}/chat/completions): OpenAI, OpenRouter, Groq,
 * vLLM, Ollama and others. Token usage comes from the response's `usage`.
 */
export class OpenAiCompatibleModel implements ChatModel {
  readonly name: string;

  constructor(
    private readonly baseUrl: string,
    private readonly model: string,
    private readonly apiKey?: string,
  ) {
    this.name = `openai:${model}`;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    const body = await providerJson<{
      choices?: { message?: { content?: string | null } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    }>("openai", `${this.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: this.model,
        messages: [{ role: "system", content: request.system }, ...request.messages],
        max_tokens: request.maxTokens,
        temperature: 0.2,
        ...(request.json ? { response_format: { type: "json_object" } } : {}),
      }),
      signal: request.signal,
      timeoutMs: 90_000,
    });
    return {
      text: body.choices?.[0]?.message?.content ?? "",
      inputTokens: body.usage?.prompt_tokens ?? 0,
      outputTokens: body.usage?.completion_tokens ?? 0,
    };
  }
}
