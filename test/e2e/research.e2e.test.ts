import { spawnSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openLocalD1 } from "../../scripts/lib/local-d1.mjs";
import { NODE_VERIFY, PYTHON_VERIFY } from "../../src/http/guides";
import { freePort, newAccount, serverClient } from "./server";

const server = serverClient(inject("server"));
let key: string;
let accessToken: string;
let userId: string;

beforeAll(async () => {
  ({ accessToken, userId, key } = await newAccount(server, "jobs-e2e"));
});

const post = (path: string, body: unknown, token?: string) => server.post(path, body, token);

interface SseEvent {
  id: number;
  event: string;
  data: any;
}

/** Reads an SSE stream until its `result` event (or the stream ends). */
async function readEvents(response: Response): Promise<SseEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        frame
          .split("\n")
          .filter((line) => !line.startsWith(":"))
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
      );
      if (fields.event) events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data ?? "null") });
    }
    if (events.at(-1)?.event === "result") {
      await reader.cancel();
      break;
    }
  }
  return events;
}

describe("research over real HTTP against npm start", () => {
  it("answers a lite job synchronously from the seeded corpus, with citations", async () => {
    const response = await post("/v1/research", { question: "How did presidents describe tariffs in the 19th century?", mode: "lite" }, key);
    expect(response.status).toBe(200);
    const result = (await response.json()) as any;
    expect(result.status).toBe("succeeded");
    expect(result.credits_charged).toBe(15);
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.brief).toMatch(/\[1\]/);
    const balance = await (await fetch(`${server.baseUrl}/v1/credits`, { headers: { Authorization: `Bearer ${key}` } })).json();
    expect(balance).toEqual({ credits: 485, usd: "4.85" });
  });

  it("a follow-up on the default corpus path (tasks run in the job) starts from the first job's pages: the same question again reads nothing new", async () => {
    const question = "What did Lyndon Johnson say about poverty?";
    const first = (await (await post("/v1/research", { question, mode: "lite" }, key)).json()) as any;
    expect(first.status).toBe("succeeded");
    const again = (await (await post("/v1/research", { question, mode: "lite", previous_job_id: first.id }, key)).json()) as any;
    expect(again).toMatchObject({ status: "succeeded", previous_job_id: first.id, thread: [first.id] });
    expect(again.charge_basis.rule).toBe("follow_up");
    // Every source is one the first job read, and the charge says how many pages it started from.
    expect(again.sources.length).toBeGreaterThan(0);
    for (const source of again.sources) expect(source.from_job_id).toBe(first.id);
    expect(again.charge_basis.reason).not.toMatch(/from its 0 pages/);
    expect(again.credits_charged).toBeLessThan(first.credits_charged);
  });

  it("runs a standard job asynchronously and streams it over SSE to its result", async () => {
    const accepted = await post("/v1/research", { question: "What did presidents say about the gold standard and silver coinage?" }, key);
    expect(accepted.status).toBe(202);
    const body = (await accepted.json()) as { id: string; status_url: string; events_url: string };
    expect(body.events_url).toBe(`${server.baseUrl}/v1/research/${body.id}/events`);
    const stream = await fetch(body.events_url, { headers: { Authorization: `Bearer ${key}` } });
    expect(stream.headers.get("Content-Type")).toContain("text/event-stream");
    const events = await readEvents(stream);
    const last = events.at(-1)!;
    expect(last.event).toBe("result");
    expect(last.data.status).toBe("succeeded");
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
    const polled = (await (await fetch(body.status_url, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    expect(polled.status).toBe("succeeded");
    expect(polled.sources.length).toBeGreaterThan(0);
    // On the corpus path the searches and reads ran in the job: not one task went through the
    // research-tasks queues (wrangler logs every batch it delivers as "QUEUE research-tasks-1 n/n").
    expect(server.output()).not.toMatch(/QUEUE research-tasks(-\d+)? /);
  });

  it("delivers a signed webhook to a local receiver", async () => {
    const secret = (
      (await (await fetch(`${server.baseUrl}/api/settings/webhook-secret`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as {
        secret: string;
      }
    ).secret;
    const port = await freePort();
    const received = new Promise<{ headers: Record<string, string | string[] | undefined>; body: string }>((resolve) => {
      const receiver: Server = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          res.writeHead(204).end();
          receiver.close();
          resolve({ headers: req.headers, body });
        });
      });
      receiver.listen(port, "127.0.0.1");
    });
    const accepted = await post(
      "/v1/research",
      { question: "What did presidents say about tariffs?", mode: "lite", webhook_url: `http://127.0.0.1:${port}/hook` },
      key,
    );
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    const delivery = await received;
    const expected = `sha256=${createHmac("sha256", secret).update(delivery.body).digest("hex")}`;
    expect(delivery.headers["x-service-signature"]).toBe(expected);
    expect(delivery.headers["x-service-event"]).toBe("research.completed");
    expect(JSON.parse(delivery.body)).toMatchObject({ id, status: "succeeded" });

    // The reference's webhooks guide: its Node and Python checks accept this delivery, and refuse it
    // with one byte of the body changed or with another secret.
    const signature = String(delivery.headers["x-service-signature"]);
    const tampered = delivery.body.replace('"succeeded"', '"succeedeD"');
    const cases: [string, string, boolean][] = [
      [delivery.body, secret, true],
      [tampered, secret, false],
      [delivery.body, `${secret}x`, false],
    ];
    const dir = mkdtempSync(join(tmpdir(), "guide-"));
    writeFileSync(
      join(dir, "verify.mjs"),
      `${NODE_VERIFY}\nconst [body, signature, secret] = JSON.parse(process.argv[2]);\nconsole.log(verifyWebhook(Buffer.from(body), signature, secret));\n`,
    );
    writeFileSync(
      join(dir, "verify.py"),
      `${PYTHON_VERIFY}\n\nimport json, sys\nbody, signature, secret = json.loads(sys.argv[1])\nprint(str(verify_webhook(body.encode(), signature, secret)).lower())\n`,
    );
    const python = spawnSync("python3", ["--version"]).status === 0;
    for (const [body, key, expected] of cases) {
      const input = JSON.stringify([body, signature, key]);
      expect(spawnSync(process.execPath, [join(dir, "verify.mjs"), input], { encoding: "utf8" }).stdout.trim()).toBe(String(expected));
      if (python) expect(spawnSync("python3", [join(dir, "verify.py"), input], { encoding: "utf8" }).stdout.trim()).toBe(String(expected));
    }
    if (!python) console.warn("python3 is not installed: the guide's Python check was not run");
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the cron under npm start: a job stuck past its deadline is swept (failed, nothing charged)", async () => {
    const id = randomUUID();
    const past = new Date(Date.now() - 10 * 60_000).toISOString();
    // A job whose object never started, as a crash between the row and the object would leave it.
    // Written beside the running server into its local D1 through wrangler's platform proxy (the
    // way the operator scripts write it; `wrangler d1 execute` cost ~15 s of CPU more). While other
    // files' requests write too, the file can be busy for a moment (SQLITE_BUSY): retried.
    const { db, dispose } = await openLocalD1(server.stateDir);
    try {
      const insert = db
        .prepare(
          `insert into research_jobs (id, user_id, origin, status, mode, question, request_json, credits_reserved, credits_charged, cost_usd_micros, created_at, deadline_at)
           values (?, ?, 'api', 'pending', 'lite', 'A stuck job?', '{}', 15, 0, 0, ?, ?)`,
        )
        .bind(id, userId, past, past);
      for (let attempt = 1; ; attempt++) {
        const failure = await insert.run().then(
          () => null,
          (error: unknown) => error,
        );
        if (!failure) break;
        if (attempt >= 10 || !/SQLITE_BUSY|database is locked/.test(String(failure))) throw failure;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } finally {
      await dispose();
    }
    const get = async () => (await (await fetch(`${server.baseUrl}/v1/research/${id}`, { headers: { Authorization: `Bearer ${key}` } })).json()) as any;
    let job = await get();
    for (let i = 0; i < 60 && job.status === "pending"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await get();
    }
    expect(job).toMatchObject({ id, status: "failed", credits_charged: 0 });
    // The sweep's log line reaches the captured output after its write is visible: waited for, not raced.
    const swept = /sweep: \d+ overdue, [1-9]\d* settled/;
    for (let i = 0; i < 60 && !swept.test(server.output()); i++) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.output()).toMatch(swept);
  });
});
