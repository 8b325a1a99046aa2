// How the bench talks to the service: its HTTP client, the accounts a run needs, a job's SSE
// stream, and one autocannon load.
import autocannon, { type AutocannonOptions } from "autocannon";
import type { StartedServer } from "../test/e2e/server.ts";
import { round } from "./report.ts";
import { ADMIN, DURATION_SECS } from "./settings.ts";

export class Client {
  readonly base: string;
  readonly token: string;
  constructor(base: string, token = "") {
    this.base = base;
    this.token = token;
  }
  async call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const response = await fetch(this.base + path, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${init.token ?? this.token}` },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
}

/** Signs up the admin and a user, gives the user a key and plenty of credits. */
export async function prepare(server: StartedServer) {
  const anon = new Client(server.baseUrl);
  const admin = (await anon.call("/api/auth/signup", { body: { email: ADMIN, password: "bench admin password" } })).body;
  const user = (await anon.call("/api/auth/signup", { body: { email: `bench-${Date.now()}@example.com`, password: "bench password 1" } })).body;
  const key = (await anon.call("/api/keys", { body: { name: "bench" }, token: user.access_token })).body.plaintext as string;
  const grant = await anon.call(`/api/admin/users/${user.user.id}/credits`, {
    body: { delta_credits: 1_000_000, note: "benchmark credits", idempotency_key: "bench-grant" },
    token: admin.access_token,
  });
  if (grant.status !== 200) throw new Error(`could not grant credits: ${grant.status} ${JSON.stringify(grant.body)}`);
  return { userId: user.user.id as string, key, adminToken: admin.access_token as string, api: new Client(server.baseUrl, key) };
}

export type Ctx = Awaited<ReturnType<typeof prepare>>;

export interface SseEvent {
  id: number;
  event: string;
  data: any;
  emittedAt: number;
  receivedAt: number;
}

/** Follows a job's SSE stream until its result event. */
export async function follow(url: string, key: string, onEvent?: (event: SseEvent) => void, onOpen?: (at: number) => void): Promise<SseEvent[]> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  onOpen?.(Date.now());
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    const receivedAt = Date.now();
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      let emittedAt = NaN;
      for (const line of frame.split("\n")) {
        if (line.startsWith(": emitted_at=")) emittedAt = Number(line.slice(13));
        else if (!line.startsWith(":")) fields[line.slice(0, line.indexOf(":"))] = line.slice(line.indexOf(":") + 1).trim();
      }
      if (!fields.event) continue;
      const event = { id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data!), emittedAt, receivedAt };
      events.push(event);
      onEvent?.(event);
      if (event.event === "result") {
        await reader.cancel();
        return events;
      }
    }
  }
}

/** One autocannon load of `options` (DURATION_SECS, 10 connections unless told), as a table row. */
export async function load(title: string, options: AutocannonOptions) {
  const result = await autocannon({ duration: DURATION_SECS, connections: 10, ...options });
  const row = {
    title,
    rps: round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
    /** Response size, headers included. */
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
  console.log(`  ${title}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}`);
  return row;
}
