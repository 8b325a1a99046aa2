import { ProviderError, type ChatModel, type ChatRequest, type ChatResponse } from "../types";

/** The part of the Workers AI binding we use (the `[ai] binding = "AI"` of wrangler.toml). */
export interface AiBinding {
  run(model: string, input: Record<string, unknown>): Promise<unknown>;
}

/**
 * Workers AI through its binding. Text models answer `{ response, usage: { prompt_tokens,
 * completion_tokens } }`; when a model omits usage, tokens are estimated from the text length
 * so the call is still metered.
 */
export class WorkersAiModel implements ChatModel {
  readonly name: string;

  constructor(
    private readonly ai: AiBinding,
    private readonly model: string,
  ) {
    this.name = `workers-ai:${model}`;
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const messages = [{ role: "system", content: request.system }, ...request.messages];
    let result: { response?: string | object; usage?: { prompt_tokens?: number; completion_tokens?: number } };
    try {
      result = (await this.ai.run(this.model, { messages, max_tokens: request.maxTokens })) as typeof result;
    } catch (error) {
      throw new ProviderError("workers-ai", error instanceof Error ? error.message : String(error));
    }
    const text = typeof result.response === "string" ? result.response : JSON.stringify(result.response ?? "");
    const prompt = messages.map((message) => message.content).join("\n");
    return {
      text,
      inputTokens: result.usage?.prompt_tokens ?? Math.ceil(prompt.length / 4),
      outputTokens: result.usage?.completion_tokens ?? Math.ceil(text.length / 4),
    };
  }
}
