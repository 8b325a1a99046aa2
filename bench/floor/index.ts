// The platform's own floor, served by the same `wrangler dev` as the service in the same run:
// - `GET /`: a Worker that does nothing (section 1's anchor: what the platform alone allows).
// - `GET /wave?tasks=N&url=U`: one fan-out with nothing of ours in it: a Durable Object sends N
//   messages to a queue in one batch, the consumer fetches U for each (reading the body) and
//   reports the batch back to the object, which answers when all N are in. Section 2 compares a
//   research wave with the floor of its own searches and reads: what is left is our overhead.
import { DurableObject } from "cloudflare:workers";

interface Env {
  WAVE: DurableObjectNamespace<Wave>;
  TASKS: Queue<{ key: string; url: string }>;
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

  async answered(keys: string[]): Promise<void> {
    for (const key of keys) {
      this.waiting.get(key)?.();
      this.waiting.delete(key);
    }
  }
}

const waveObject = (env: Env) => env.WAVE.get(env.WAVE.idFromName("floor"));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
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
