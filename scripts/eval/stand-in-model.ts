/**
 * A local OpenAI-compatible stand-in (POST /v1/chat/completions on 127.0.0.1), so
 * `npm run eval -- <file> --llm openai --model stand-in` runs end to end on a machine that reaches
 * no hosted model. It answers the engine's calls crudely but validly, as a weak local model would:
 * - the plan: the question itself as the one query; a reflection: read the first page listed as
 *   not yet read; the critic: every claim supported;
 * - any other JSON call (response_format set, or JSON asked for in the system text): `{}`, a valid
 *   object the stage's schema rejects, so it falls back to its offline version (typed output);
 * - the brief (numbered sources in the prompt; the write stage's `{"claims", "answer"}` JSON, or plain
 *   text): the first sentence of each of the first sources as a claim quoting itself, so every claim
 *   is one its quote states, and no short answer (null); the revise turn withdraws what failed;
 * - anything else: one sentence saying it cannot tell.
 * It reports usage (4 characters a token) as a real server does. `--refuse-json-mode` answers 400
 * to any `response_format`, as some llama.cpp, vLLM and Ollama builds do. GET /stats gives the
 * calls answered by kind. A test can hold the calls of one kind (`hold("brief")`) until it
 * releases them: the job is then exactly at that stage, by state.
 *
 *   npx tsx scripts/eval/stand-in-model.ts [--port N] [--refuse-json-mode]
 *   OPENAI_BASE_URL=http://127.0.0.1:N/v1 npm run eval -- <file> --llm openai --model stand-in
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  response_format?: unknown;
}

export interface StandInStats {
  calls: number;
  byKind: Record<string, number>;
  refusedJsonMode: number;
}

/** What the stand-in answers to one chat completion request. */
export function standInAnswer(body: ChatBody): { kind: string; text: string } {
  const messages = body.messages ?? [];
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  const user = [...messages].reverse().find((message) => message.role === "user")?.content ?? "";
  // The write stage asks for {"claims", "answer"} as JSON (each claim with its verbatim quotes); an older brief prompt for plain text.
  const writesClaims = /"claims"/.test(system) && !/revising/.test(system);
  const json = body.response_format !== undefined || /\bJSON\b/.test(system) || /\bJSON\b/.test(user.split("\n")[0] ?? "");
  const sources = numberedSources(user);
  if (sources.length > 0 && (writesClaims || !json)) {
    const claims = sources.slice(0, 4).flatMap(({ n, text }) => {
      const sentence = firstSentence(text);
      return sentence ? [{ text: sentence, quotes: [{ source: n, quote: sentence }], heading: null, bullet: false }] : [];
    });
    if (claims.length > 0) {
      // No short answer: the stand-in cannot tell one, and an honest null leaves the engine's own.
      if (writesClaims) return { kind: "brief", text: JSON.stringify({ claims, answer: null }) };
      return { kind: "brief", text: claims.map((claim) => `${claim.text.replace(/[.!?]+$/, "")} [${claim.quotes[0]!.source}].`).join("\n") };
    }
  }
  // The revise turn: the stand-in withdraws what failed (it cannot find better quotes).
  if (/revising a research brief/.test(system)) {
    const ids = [...user.matchAll(/^\[(\d+)\] /gm)].map((match) => Number(match[1]));
    return { kind: "revise", text: JSON.stringify({ claims: ids.map((id) => ({ id, withdraw: true })) }) };
  }
  // The gathering stages and the critic, read from their instructions as a model reads them.
  if (/plan the web searches/.test(system)) {
    const question = /^Question: (.*)$/m.exec(user)?.[1]?.trim() ?? "";
    return { kind: "plan", text: JSON.stringify({ sub_questions: [question], queries: question ? [question.replace(/\?$/, "")] : [] }) };
  }
  if (/direct a research job between rounds/.test(system)) {
    // The first listed page not yet read, if any: a reflection that asks for a page.
    const page = /Pages not yet read:\n- (\S+)/.exec(user)?.[1];
    return { kind: "reflect", text: JSON.stringify({ answered: false, open_sub_question: null, queries: [], urls: page ? [page] : [] }) };
  }
  if (/fact checker/.test(system)) {
    const ids = [...user.matchAll(/^\[(\d+)\] /gm)].map((match) => Number(match[1]));
    return { kind: "critic", text: JSON.stringify({ verdicts: ids.map((id) => ({ id, verdict: "supported" })) }) };
  }
  if (json) return { kind: "json", text: "{}" };
  return { kind: "other", text: "The sources do not say." };
}

/** The "[n] Title (domain)\ntext" blocks of a prompt's sources. */
function numberedSources(prompt: string): { n: number; text: string }[] {
  const blocks: { n: number; text: string }[] = [];
  for (const block of prompt.split(/\n(?=\[\d+\] )/)) {
    const match = /^\[(\d+)\] [^\n]*\n([\s\S]+)$/.exec(block.trim());
    if (match) blocks.push({ n: Number(match[1]), text: match[2]!.trim() });
  }
  return blocks;
}

function firstSentence(text: string): string {
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  return sentence.replace(/\s+/g, " ").trim().slice(0, 400);
}

const tokens = (text: string) => Math.ceil(text.length / 4);

/** Calls of one kind held unanswered: `arrived` once one is, `aborted` once its caller gave up on it. */
export interface HeldCalls {
  arrived: Promise<void>;
  aborted: Promise<void>;
  release(): void;
}

export interface StandIn {
  server: Server;
  baseUrl: string;
  stats: StandInStats;
  hold(kind: string): HeldCalls;
}

export function startStandIn(options: { port?: number; refuseJsonMode?: boolean } = {}): Promise<StandIn> {
  const stats: StandInStats = { calls: 0, byKind: {}, refusedJsonMode: 0 };
  const holds = new Map<string, { held: (() => void)[]; arrived: () => void; aborted: () => void }>();
  const hold = (kind: string): HeldCalls => {
    let arrived!: () => void;
    let aborted!: () => void;
    const calls = { held: [] as (() => void)[], arrived: () => arrived(), aborted: () => aborted() };
    holds.set(kind, calls);
    return {
      arrived: new Promise<void>((resolve) => (arrived = resolve)),
      aborted: new Promise<void>((resolve) => (aborted = resolve)),
      release() {
        holds.delete(kind);
        for (const answer of calls.held.splice(0)) answer();
      },
    };
  };
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method === "GET" && request.url === "/stats") return send(200, stats);
    if (request.method !== "POST" || !request.url?.replace(/\/+$/, "").endsWith("/chat/completions")) return send(404, { error: { message: "not found" } });
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (raw += chunk));
    request.on("end", () => {
      let body: ChatBody;
      try {
        body = JSON.parse(raw) as ChatBody;
      } catch {
        return send(400, { error: { message: "the body is not JSON" } });
      }
      if (options.refuseJsonMode && body.response_format !== undefined) {
        stats.refusedJsonMode++;
        return send(400, { error: { message: "Unsupported parameter: response_format" } });
      }
      const { kind, text } = standInAnswer(body);
      stats.calls++;
      stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
      const prompt = (body.messages ?? []).map((message) => message.content).join("\n");
      const answer = () =>
        send(200, {
          id: `chatcmpl-stand-in-${stats.calls}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? "stand-in",
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: tokens(prompt), completion_tokens: tokens(text), total_tokens: tokens(prompt) + tokens(text) },
        });
      const held = holds.get(kind);
      if (!held) return answer();
      held.held.push(() => {
        if (!response.destroyed) answer();
      });
      // The caller gave up (a cancelled job aborts its model call): the connection closes unanswered.
      response.on("close", () => {
        if (!response.writableEnded) held.aborted();
      });
      held.arrived();
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, baseUrl: `http://127.0.0.1:${port}/v1`, stats, hold });
    });
  });
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2);
  const portAt = args.indexOf("--port");
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 0;
  const { server, baseUrl, stats } = await startStandIn({ port, refuseJsonMode: args.includes("--refuse-json-mode") });
  console.log(`stand-in model at ${baseUrl} (OPENAI_BASE_URL=${baseUrl})`);
  const stop = () => {
    console.log(`stand-in model: ${JSON.stringify(stats)}`);
    server.close(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
