/**
 * One question asked as a customer asks it: POST /v1/research with the API key; a 200 carries
 * the result, a 202 is followed to its end over SSE (the events_url, until the `result` event)
 * or, if the stream breaks, by polling the status_url with backoff (250 ms growing to 2 s).
 */
import { isTerminal, type JobStatus } from "../../src/db/schema/jobs";
import type { AnswerBearing } from "./answer";
import { type ApiClient, HttpError } from "./client";

export interface ResearchResult {
  id: string;
  status: JobStatus;
  question: string;
  brief: string | null;
  /** Absent on servers older than the field (the evaluation then scores the brief's opening). */
  answer?: AnswerBearing["answer"];
  sources: { url: string; title: string; domain: string }[];
  credits_charged: number;
  cost_usd: number;
  error: string | null;
  latency_ms: number | null;
  wave_count: number | null;
}

interface Accepted {
  id: string;
  status: "pending";
  status_url: string;
  events_url: string;
}

export interface Asked {
  /** The final result, or null when the client never got one. */
  result: ResearchResult | null;
  /** Submit to result, as the client saw it. */
  wallMs: number;
  /** 200 (sync) or 202 (async), or the HTTP error status. */
  httpStatus: number;
  /** How the result was obtained. */
  via: "sync" | "sse" | "poll" | "none";
  /** Why there is no succeeded result (HTTP error, job error, client timeout). */
  error: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads an SSE stream until its `result` event; null if the stream ends first. */
async function resultOverSse(url: string, apiKey: string, signal: AbortSignal): Promise<ResearchResult | null> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}`, Accept: "text/event-stream" }, signal });
  if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data: string[] = [];
        for (const line of frame.split("\n")) {
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const content = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = content;
          else if (field === "data") data.push(content);
        }
        if (event === "result") return JSON.parse(data.join("\n")) as ResearchResult;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function resultByPolling(api: ApiClient, statusUrl: string, apiKey: string, deadline: number): Promise<ResearchResult | null> {
  const path = new URL(statusUrl).pathname;
  let delay = 250;
  while (Date.now() < deadline) {
    const { body } = await api.get<ResearchResult>(path, apiKey);
    if (isTerminal(body.status)) return body;
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    delay = Math.min(2_000, Math.round(delay * 1.5));
  }
  return null;
}

export async function ask(
  api: ApiClient,
  apiKey: string,
  question: string,
  mode: string,
  timeoutMs: number,
  extra: Record<string, unknown> = {},
): Promise<Asked> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = Date.now() + timeoutMs;
  let submitted;
  try {
    submitted = await api.request<ResearchResult | Accepted>("POST", "/v1/research", { body: { question, mode, ...extra }, token: apiKey, timeoutMs });
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 0;
    return { result: null, wallMs: elapsed(), httpStatus: status, via: "none", error: (error as Error).message };
  }
  const done = (result: ResearchResult | null, via: Asked["via"], note?: string): Asked => ({
    result,
    wallMs: elapsed(),
    httpStatus: submitted.status,
    via,
    error: !result ? (note ?? "no result") : result.status === "succeeded" ? null : `job ${result.status}: ${result.error ?? "no error message"}`,
  });
  if (submitted.status === 200) return done(submitted.body as ResearchResult, "sync");

  const accepted = submitted.body as Accepted;
  let sseProblem = "";
  try {
    const result = await resultOverSse(accepted.events_url, apiKey, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
    if (result) return done(result, "sse");
    sseProblem = "event stream ended without a result";
  } catch (error) {
    sseProblem = `event stream failed (${(error as Error).message})`;
  }
  if (Date.now() >= deadline) return done(null, "none", `client timeout after ${timeoutMs} ms (${sseProblem})`);
  try {
    const result = await resultByPolling(api, accepted.status_url, apiKey, deadline);
    return done(result, "poll", result ? undefined : `client timeout after ${timeoutMs} ms while polling (${sseProblem})`);
  } catch (error) {
    return done(null, "none", `${sseProblem}; polling failed (${(error as Error).message})`);
  }
}
