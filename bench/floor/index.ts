// The platform's own floor, served by the same `wrangler dev` as the service in the same run:
// - `GET /`: a Worker that does nothing (section 1's anchor: what the platform alone allows).
// - `GET /wave?tasks=N&url=U`: one fan-out with nothing of ours in it: a Durable Object sends N
//   messages to a queue in one batch, the consumer fetches U for each (reading the body) and
//   reports the batch back to the object, which answers when all N are in. Section 2 compares a
//   research wave with the floor of its own searches and reads: what is left is our overhead.
// - `GET /d1`: the hello-world Worker asking one D1 query (`select 1`): section 1's floor for an
//   endpoint that must read D1 once (the balance is never cached).
// - `POST /corpus-wave` with `{"searches": [query], "reads": [url]}`: the corpus path's floor, a
//   Durable Object running a wave's searches and reads as the service's corpus providers make them
//   (the same SQL, on a copy of the service's D1), all at once, and nothing else: no engine.
// - `GET /sse?room=R` and `POST /sse/emit?room=R` with `{"schedule": [{"at", "bytes"}]}`: a bare
//   Durable Object that streams one event per entry (at its offset in ms, of its size; the last one
//   `result`; entries at the same offset as one chunk) to every open subscriber, in the service's
//   frame format (`: emitted_at=` first).
//   Section 4's floor: the same fan-out of a job's events, on the job's own schedule, with nothing
//   of ours in it. `GET /sse/count?room=R`: subscribers.
import { DurableObject } from "cloudflare:workers";
import { CorpusReader } from "../../src/research/providers/corpus-store";
import { CorpusSearch } from "../../src/research/providers/search/corpus";

interface Env {
  DB: D1Database;
  WAVE: DurableObjectNamespace<Wave>;
  STREAM: DurableObjectNamespace<Stream>;
  TASKS: Queue<{ key: string; url: string }>;
}

const encoder = new TextEncoder();

export class Stream extends DurableObject<Env> {
  private writers = new Set<WritableStreamDefaultWriter<Uint8Array>>();

  subscribe(): Response {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    this.writers.add(writer);
    void writer.write(encoder.encode(": open\n\n"));
    return new Response(readable, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store" } });
  }

  count(): number {
    return this.writers.size;
  }

  /**
   * Emits the events to every subscriber, each at its offset (ms from the first) with its size in
   * bytes: the schedule of a job's events, bursts included. Events at the same offset (emitted in
   * one turn) go as one chunk, as any batched fan-out sends them; each write is not awaited, as a
   * fan-out must not wait on its slowest reader; then the streams are closed.
   */
  async emit(schedule: { at: number; bytes: number }[]): Promise<void> {
    const started = Date.now();
    let id = 0;
    for (let from = 0; from < schedule.length; ) {
      const at = schedule[from]!.at;
      let to = from;
      while (to < schedule.length && schedule[to]!.at === at) to++;
      const wait = started + at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const emittedAt = Date.now();
      let text = "";
      for (const { bytes } of schedule.slice(from, to)) {
        id += 1;
        const data = JSON.stringify({ padding: "x".repeat(Math.max(0, bytes - 16)) });
        text += `: emitted_at=${emittedAt}\nid: ${id}\nevent: ${id === schedule.length ? "result" : "progress"}\ndata: ${data}\n\n`;
      }
      const chunk = encoder.encode(text);
      for (const writer of this.writers) writer.write(chunk).catch(() => this.writers.delete(writer));
      from = to;
    }
    for (const writer of this.writers) writer.close().catch(() => {});
    this.writers.clear();
  }
}

export class Wave extends DurableObject<Env> {
  private waiting = new Map<string, () => void>();

  /** One fan-out of `tasks` fetches through the queue; resolves with its wall-clock ms. */
  async run(tasks: number, url: string): Promise<number> {
    const started = Date.now();
    const id = crypto.randomUUID();
    let left = tasks;
    const allIn = new Promise<void>((resolve) => {
      for (let i = 0; i < tasks; i++) this.waiting.set(`${id}:${i}`, () => --left === 0 && resolve());
    });
    await this.env.TASKS.sendBatch(Array.from({ length: tasks }, (_, i) => ({ body: { key: `${id}:${i}`, url } })));
    await allIn;
    return Date.now() - started;
  }

  /** A wave's corpus searches, then its reads, each set at once; resolves with its wall-clock ms. */
  async corpusWave(searches: string[], reads: string[], hitsPerSearch: number): Promise<number> {
    const started = Date.now();
    const [search, reader] = [new CorpusSearch(this.env.DB), new CorpusReader(this.env.DB)];
    await Promise.all(searches.map((query) => search.search({ query, limit: hitsPerSearch })));
    await Promise.all(reads.map((url) => reader.read(url)));
    return Date.now() - started;
  }

  async answered(keys: string[]): Promise<void> {
    for (const key of keys) {
      this.waiting.get(key)?.();
      this.waiting.delete(key);
    }
  }
}

const waveObject = (env: Env) => env.WAVE.get(env.WAVE.idFromName("floor"));
const streamObject = (env: Env, room: string) => env.STREAM.get(env.STREAM.idFromName(room));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const room = url.searchParams.get("room") ?? "floor";
    if (url.pathname === "/sse") return streamObject(env, room).subscribe();
    if (url.pathname === "/sse/count") return Response.json({ subscribers: await streamObject(env, room).count() });
    if (url.pathname === "/sse/emit") {
      const { schedule } = (await request.json()) as { schedule: { at: number; bytes: number }[] };
      await streamObject(env, room).emit(schedule);
      return new Response("emitted");
    }
    if (url.pathname === "/d1") return Response.json(await env.DB.prepare("select 1 as one").first());
    if (url.pathname === "/corpus-wave") {
      const { searches, reads, hitsPerSearch } = (await request.json()) as { searches: string[]; reads: string[]; hitsPerSearch: number };
      return Response.json({ ms: await waveObject(env).corpusWave(searches, reads, hitsPerSearch) });
    }
    if (url.pathname !== "/wave") return new Response("ok");
    const tasks = Math.max(1, Number(url.searchParams.get("tasks") ?? 1));
    return Response.json({ ms: await waveObject(env).run(tasks, url.searchParams.get("url") ?? "") });
  },

  async queue(batch: MessageBatch<{ key: string; url: string }>, env: Env): Promise<void> {
    await Promise.all(batch.messages.map(async (message) => (message.body.url ? (await fetch(message.body.url)).text() : "")));
    await waveObject(env).answered(batch.messages.map((message) => message.body.key));
    batch.ackAll();
  },
};
