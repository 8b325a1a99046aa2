import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { SDK_TYPES_PATH, sdkTypesFrom } from "../../scripts/lib/sdk-client";
import { DeepResearch, DeepResearchError, InvalidRequestError, ResearchCancelledError, verifyWebhook, WebhookVerificationError } from "../../sdk/src/index";
import type { ResearchEvent } from "../../sdk/src/index";
import { freePort, newAccount, serverClient, untilHealthy } from "./server";

const server = serverClient(inject("server"));
const TARIFFS = "How did presidents describe tariffs in the 19th century?";
let accessToken: string;
let key: string;
let client: DeepResearch;

/** One account for the file (500 free credits), and the SDK on its key. */
beforeAll(async () => {
  ({ accessToken, key } = await newAccount(server, "sdk-e2e"));
  client = new DeepResearch({ apiKey: key, baseUrl: server.baseUrl });
});

async function collect(events: AsyncIterable<ResearchEvent>): Promise<ResearchEvent[]> {
  const seen: ResearchEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** A max job, capped low. */
const MAX_JOB = { mode: "max", maxCredits: 40 } as const;

/** The SDK on a new account of the server whose jobs run until cancelled (global-setup.ts). */
const heldServer = serverClient(inject("heldServer"));
let heldClient: DeepResearch;
beforeAll(async () => {
  await untilHealthy(heldServer);
  heldClient = new DeepResearch({ apiKey: (await newAccount(heldServer, "sdk-e2e-held")).key, baseUrl: heldServer.baseUrl });
}, 280_000);

describe("the SDK against npm start", () => {
  it("its types never drift from /openapi.json (regenerate with npm run sdk:client)", async () => {
    const generated = await sdkTypesFrom(`${server.baseUrl}/openapi.json`);
    expect(generated === readFileSync(SDK_TYPES_PATH, "utf8"), "sdk/src/schema.d.ts is stale: run npm run sdk:client").toBe(true);
  });

  it("research() answers a lite job synchronously, charged its price", async () => {
    const before = await client.credits.get();
    const result = await client.research(TARIFFS, { mode: "lite" });
    expect(result).toMatchObject({ status: "succeeded", question: TARIFFS, credits_charged: 15, error: null });
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.brief).toMatch(/\[1\]/);
    expect((await client.credits.get()).credits).toBe(before.credits - 15);
  });

  it("research() follows an asynchronous job over its events to the result", async () => {
    const events: ResearchEvent[] = [];
    const stages: string[] = [];
    let acceptedId = "";
    const result = await client.research("What did presidents say about the gold standard?", {
      mode: "lite",
      onAccepted: (job) => (acceptedId = job.id),
      onEvent: (event) => events.push(event),
      onProgress: (progress) => stages.push(progress.stage),
    });
    expect(result).toMatchObject({ id: acceptedId, status: "succeeded", credits_charged: 15 });
    expect(events[0]).toMatchObject({ event: "status", data: { status: "pending" } });
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
    expect(events.filter((event) => event.event === "source").length).toBeGreaterThan(0);
    expect(stages).toContain("searching");
    expect(stages.at(-1)).toBe("done");
    expect(events.at(-1)).toEqual({ id: events.length, event: "result", data: result });
    expect(await client.research.get(result.id)).toEqual(result);
  });

  it("stream() resumes a connection dropped mid-event with Last-Event-ID: no event lost or repeated", async () => {
    const eventRequests: { lastEventId: string | null }[] = [];
    // The first events connection is cut in the middle of event 6's frame, as a network drop would.
    const cutting = async (request: Request): Promise<Response> => {
      const response = await fetch(request);
      if (!request.url.endsWith("/events")) return response;
      eventRequests.push({ lastEventId: request.headers.get("Last-Event-ID") });
      if (eventRequests.length > 1) return response;
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      let passed = 0;
      let cut = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          // The reset comes after the half frame is read (an error at once would discard it unread).
          if (cut) {
            controller.error(new TypeError("terminated: the connection was reset"));
            await reader.cancel();
            return;
          }
          const { value, done } = await reader.read();
          if (done) return controller.close();
          seen += decoder.decode(value, { stream: true });
          const at = seen.indexOf("\nid: 6\n");
          if (at < 0) {
            passed = seen.length;
            return controller.enqueue(value);
          }
          // Events 1 to 5 whole, then half of event 6's frame, then (next read) the reset.
          controller.enqueue(new TextEncoder().encode(seen.slice(passed, at + "\nid: 6\nev".length)));
          cut = true;
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const flaky = new DeepResearch({ apiKey: key, baseUrl: server.baseUrl, fetch: cutting });
    const submitted = await flaky.submit("What did presidents say about railroads and canals?", { ...MAX_JOB, async: true });
    expect(submitted.status).toBe(202);
    const id = submitted.status === 202 ? submitted.job.id : "";
    const resumed = await collect(flaky.stream(id));
    expect(eventRequests.map((request) => request.lastEventId)).toEqual([null, "5"]);
    // The whole log, replayed from the start once the job is over, is exactly what was seen.
    const replayed = await collect(client.research.stream(id));
    expect(resumed).toEqual(replayed);
    expect(resumed.map((event) => event.id)).toEqual(resumed.map((_, index) => index + 1));
    expect(resumed.at(-1)!.event).toBe("result");
    expect(resumed.length).toBeGreaterThan(10);
  });

  it("aborting research() cancels the job: charged only for the work done, and the balance agrees", async () => {
    // On the server whose jobs run until cancelled (global-setup.ts): the abort lands mid-run.
    const held = heldClient;
    const before = await held.credits();
    const controller = new AbortController();
    const thrown = await held
      .research("What did presidents say about the telegraph and the postal service?", {
        ...MAX_JOB,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ResearchCancelledError);
    const { job } = thrown as ResearchCancelledError;
    expect(job.status).toBe("cancelled");
    expect(job.credits_charged).toBeLessThanOrEqual(MAX_JOB.maxCredits);
    expect(await held.get(job.id)).toMatchObject({ status: "cancelled", credits_charged: job.credits_charged });
    expect((await held.credits()).credits).toBe(before.credits - job.credits_charged);
    // cancel() of a finished job returns it unchanged.
    expect(await held.cancel(job.id)).toMatchObject({ id: job.id, status: "cancelled", credits_charged: job.credits_charged });
    // list() has it, and filters by status.
    const cancelled = await held.list({ status: "cancelled" });
    expect(cancelled.map((row) => row.id)).toContain(job.id);
    expect(cancelled.every((row) => row.status === "cancelled")).toBe(true);
  });

  it("list() is newest first, and jobs.list() follows the Link header page by page", async () => {
    const all = await client.research.list({ limit: 100 });
    expect(all.map((row) => row.created_at)).toEqual([...all.map((row) => row.created_at)].sort().reverse());
    // Iterated, jobs.list() follows the service's Link header page by page to the same list.
    const paged: string[] = [];
    for await (const row of client.research.list({ limit: 2 })) paged.push(row.id);
    expect(all.length).toBeGreaterThan(2);
    expect(paged).toEqual(all.map((row) => row.id));
    const { data, response, requestId } = await client.research.list({ limit: 1 }).withResponse();
    expect(data).toHaveLength(1);
    expect(response.headers.get("Link")).toMatch(/^<[^>]+[?&]offset=1[^>]*>; rel="next"$/);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("quote() prices a request as its submit would, reserving nothing; one the balance cannot pay is not covered", async () => {
    const before = (await client.credits.get()).credits;
    expect(await client.research.quote(TARIFFS, { mode: "lite" })).toEqual({
      mode: "lite",
      metered: false,
      credits_reserved: 15,
      max_charge_credits: 15,
      max_charge_usd: 0.15,
      envelope: { max_waves: 1, max_searches: 4, max_pages: 5, max_wallclock_secs: 60 },
      runs: "sync",
      balance_credits: before,
      covered: true,
      covered_by: "balance",
      insufficient_credits: null,
      follow_up: null,
    });
    expect(await client.research.quote(TARIFFS, { mode: "max", maxCredits: 1_000_000, async: true })).toMatchObject({
      metered: true,
      credits_reserved: 1_000_000,
      runs: "async",
      covered: false,
      covered_by: null,
      insufficient_credits: `This max job needs 1000000 credits; the balance is ${before}.`,
    });
    expect((await client.credits.get()).credits).toBe(before);
    await expect(client.research.quote(TARIFFS, { mode: "max" })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("the same Idempotency-Key returns the same job, charged once; another body with it is a typed 422", async () => {
    const before = await client.credits.get();
    const idempotencyKey = randomUUID();
    const first = await client.research.create("What did presidents say about the national debt?", { mode: "lite", idempotencyKey });
    const again = await client.research.create("What did presidents say about the national debt?", { mode: "lite", idempotencyKey });
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect((await client.credits.get()).credits).toBe(before.credits - 15);
    const reused = await client.research.create("Another question?", { mode: "lite", idempotencyKey }).catch((error: unknown) => error);
    expect(reused).toBeInstanceOf(DeepResearchError);
    expect(reused).toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });

  it("collections: create, upload files and JSON documents, research over them, delete", async () => {
    const collection = await client.collections.create({ name: "Board papers", description: "SDK e2e" });
    const uploaded = await client.collections.upload(collection.id, [
      {
        name: "harbor.md",
        data: "# Harbor budget\n\nIn March 2026 the board cut the harbor budget by 12 percent and moved the savings to dredging the north channel.",
      },
      new File(["Ferry minutes. The board agreed to keep the night ferry running through the winter."], "ferry.txt", { type: "text/plain" }),
    ]);
    expect(uploaded).toMatchObject({ ingested: 2 });
    const added = await client.collections.addDocuments(collection.id, [
      { title: "Budget memo", text: "The harbor budget cut of 12 percent frees money for the lighthouse repairs.", url: "https://intranet.example/memo" },
    ]);
    expect(added.ingested).toBe(1);
    expect((await client.collections.documents(collection.id)).map((doc) => doc.title).sort()).toEqual(["Budget memo", "Harbor budget", "ferry"].sort());
    expect((await client.collections.list()).map((c) => c.id)).toContain(collection.id);

    const result = await client.research("What did the board decide about the harbor budget?", { mode: "lite", collections: [collection.id] });
    expect(result.status).toBe("succeeded");
    expect(result.sources.length).toBeGreaterThan(0);
    for (const source of result.sources) expect(source.url).toMatch(new RegExp(`^(collection://${collection.id}/|https://intranet\\.example/memo$)`));
    expect(result.brief).toMatch(/12 percent/);

    await client.collections.delete(collection.id);
    await expect(client.collections.get(collection.id)).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("errors are typed: a 402 and a 401 carry code, status, message and the request id", async () => {
    const broke = await client.research(TARIFFS, { mode: "max", maxCredits: 1_000_000 }).catch((error: unknown) => error);
    expect(broke).toBeInstanceOf(DeepResearchError);
    expect(broke).toMatchObject({ status: 402, code: "insufficient_credits" });
    expect((broke as DeepResearchError).message).toMatch(/needs 1000000 credits/);
    expect((broke as DeepResearchError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    const stranger = new DeepResearch({ apiKey: "dr_live_not_a_key", baseUrl: server.baseUrl });
    await expect(stranger.credits()).rejects.toMatchObject({ name: "AuthenticationError", status: 401, code: "unauthorized" });
    await expect(client.research.get(randomUUID())).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("verifyWebhook() accepts a real delivery, signed with the account's secret, and refuses it under another secret", async () => {
    const secret = (
      (await (await fetch(`${server.baseUrl}/api/settings/webhook-secret`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as {
        secret: string;
      }
    ).secret;
    const port = await freePort();
    const delivered = new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve) => {
      const receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          res.writeHead(204).end();
          receiver.close();
          resolve({ headers: req.headers, body: Buffer.concat(chunks) });
        });
      });
      receiver.listen(port, "127.0.0.1");
    });
    const result = await client.research("What did presidents say about railroads?", { mode: "lite", webhookUrl: `http://127.0.0.1:${port}/hook` });
    const { headers, body } = await delivered;
    const verified = await verifyWebhook(body, headers, secret);
    expect(verified).toMatchObject({ event: "research.completed", deliveryId: result.id, result: { id: result.id, status: "succeeded" } });
    await expect(verifyWebhook(body, headers, `${secret}x`)).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
