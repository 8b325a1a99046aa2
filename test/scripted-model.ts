import { delay, http, HttpResponse } from "msw";

/**
 * A scripted OpenAI-compatible model for tests (MSW, inside workerd): POST {base}/chat/completions
 * is answered by `route` from what the call contains, as a real model answers from its prompt.
 * `route` returns the answer's text, or a scripted failure: a status (429, 500), a delay past the
 * caller's timeout, or text that is not JSON. Every call is recorded with its system text, the
 * last user message and the whole request body.
 */
export interface ModelCall {
  system: string;
  /** The last user message (the prompt, or a repair turn). */
  user: string;
  messages: { role: string; content: string }[];
  body: Record<string, unknown>;
}

export type ScriptedAnswer = string | { status: number; body?: unknown } | { delayMs: number; text: string };

export function scriptedModel(baseUrl: string, route: (call: ModelCall) => ScriptedAnswer, usage = { prompt_tokens: 800, completion_tokens: 150 }) {
  const calls: ModelCall[] = [];
  const handler = http.post(`${baseUrl.replace(/\/+$/, "")}/chat/completions`, async ({ request }) => {
    const body = (await request.json()) as { messages?: { role: string; content: string }[] };
    const messages = body.messages ?? [];
    const call: ModelCall = {
      system: messages.find((message) => message.role === "system")?.content ?? "",
      user: [...messages].reverse().find((message) => message.role === "user")?.content ?? "",
      messages,
      body: body as Record<string, unknown>,
    };
    calls.push(call);
    const answer = route(call);
    if (typeof answer === "object" && "status" in answer) {
      return HttpResponse.json(answer.body ?? { error: { message: `scripted ${answer.status}` } }, { status: answer.status });
    }
    let text: string;
    if (typeof answer === "object") {
      await delay(answer.delayMs);
      text = answer.text;
    } else {
      text = answer;
    }
    return HttpResponse.json({
      id: `chatcmpl-${calls.length}`,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage,
    });
  });
  return { handler, calls };
}
