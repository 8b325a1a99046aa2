import { providerJson } from "../http";
import { type ChatModel, type ChatRequest, type ChatResponse, ProviderError } from "../types";
import { noText } from "./no-text";
import { MODEL_TIMEOUT_MS, type ModelOptions } from "./options";

/** The parts of a Messages API response we read (https://platform.claude.com/docs/en/api/messages). */
interface Message {
  content?: { type: string; text?: string }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

/** Said after the system text when the answer must be JSON. */
export const ANTHROPIC_JSON_INSTRUCTION = "Answer with one JSON object only: no prose and no code fence around it.";

/**
 * Anthropic Messages API (POST /v1/messages); usage.input_tokens / output_tokens are metered.
 *
 * A JSON call says so after the system text and the answer is parsed tolerantly (parseModelJson:
 * a fence or prose around the object still parses). No "{" prefill: current models (Claude Haiku
 * 5.5 and later) answer a request whose last turn is the assistant's with 400, so every JSON call
 * would fail once first. Structured outputs (`output_config.format`) would need each stage's schema
 * in the subset the API accepts; see docs/decisions.md, issue 41.
 *
 * Thinking is turned off (`thinking: {type: "disabled"}`): current models think by default and the
 * thinking counts toward `max_tokens`, which the engine sizes and prices as the answer's length, so
 * a plan's 300 tokens could all go to thinking. A model that cannot turn it off (Opus 5.5 and Fable
 * think always) answers 400 naming `thinking`: the call is made again without it, and this model
 * stops sending it. Only `text` blocks are the answer (thinking blocks come first). The stop reason
 * is read: `refusal` (the safety classifier stopped the answer) and `max_tokens` with no text (the
 * budget went to thinking) are failed calls, never charged as text.
 */
export class AnthropicModel implements ChatModel {
  readonly name: string;
  readonly contextTokens?: number;
  private readonly timeoutMs: number;
  /** False once the model refused `thinking: {type: "disabled"}`. */
  private disableThinking = true;

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
    let body: Message;
    try {
      body = await this.post(request);
    } catch (error) {
      if (!this.disableThinking || !refusedThinking(error)) throw error;
      this.disableThinking = false;
      body = await this.post(request);
    }
    const text = (body.content ?? [])
      .filter((block) => block.type === "text")
      .map((block) => block.text ?? "")
      .join("");
    const stop = body.stop_reason ?? "none";
    // A refusal may have streamed part of an answer before the classifier stopped it: none of it stands.
    if (stop === "refusal") throw noText("anthropic", "stop_reason refusal");
    if (!text.trim()) throw noText("anthropic", `stop_reason ${stop}, no text`);
    return { text, inputTokens: body.usage?.input_tokens ?? 0, outputTokens: body.usage?.output_tokens ?? 0 };
  }

  private post(request: ChatRequest): Promise<Message> {
    return providerJson<Message>("anthropic", `${this.baseUrl.replace(/\/+$/, "")}/v1/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-api-key": this.apiKey, "anthropic-version": "2023-06-01" },
      body: JSON.stringify({
        model: this.model,
        max_tokens: request.maxTokens,
        system: request.json ? `${request.system}\n\n${ANTHROPIC_JSON_INSTRUCTION}` : request.system,
        messages: request.messages.filter((message) => message.role !== "system"),
        ...(this.disableThinking ? { thinking: { type: "disabled" } } : {}),
      }),
      signal: request.signal,
      timeoutMs: this.timeoutMs,
    });
  }
}

/** A 400 that names `thinking`: the model cannot turn its thinking off. */
function refusedThinking(error: unknown): boolean {
  return error instanceof ProviderError && error.status === 400 && /\bthinking\b/i.test(error.message);
}
