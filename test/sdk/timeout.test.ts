import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, DeepResearch, DeepResearchError, TimeoutError } from "../../sdk/src/index";
import { fakeService, silent } from "./fake-server";

const balance = { credits: 500, usd: "5.00" };
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function serve(script: Parameters<typeof fakeService>[0]) {
  const service = await fakeService(script);
  close = service.close;
  return service;
}

const client = (baseUrl: string, options: Partial<ConstructorParameters<typeof DeepResearch>[0]> = {}) =>
  new DeepResearch({ apiKey: "dr_test_key", baseUrl, baseDelayMs: 10, ...options });

/**
 * A fetch that answers attempts in turn from `script` (each Response once) without a network: `null` never answers
 * (until the attempt's signal aborts, as a real connection does). A timer under test therefore
 * races nothing: a loaded machine that is slow to connect cannot make an attempt vanish before the
 * server saw it (issue 38: "expected [] to have a length of 1").
 */
function scriptedFetch(script: (Response | null)[]) {
  const attempts: Request[] = [];
  const fetch = (request: Request) => {
    attempts.push(request);
    const answer = script[Math.min(attempts.length - 1, script.length - 1)];
    if (answer) return Promise.resolve(answer);
    return new Promise<Response>((_resolve, reject) => {
      if (request.signal.aborted) return reject(request.signal.reason);
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
  };
  return { fetch, attempts };
}

const jsonResponse = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
const baseUrl = "http://127.0.0.1:9";

describe("timeouts", () => {
  it("an attempt that gets no response in time is given up and retried like a network error", async () => {
    const service = scriptedFetch([null, jsonResponse(balance)]);
    const retries: unknown[] = [];
    expect(await client(baseUrl, { fetch: service.fetch, timeout: 200, onRetry: (retry) => retries.push(retry.error) }).credits()).toEqual(balance);
    expect(service.attempts).toHaveLength(2);
    expect(retries).toEqual([expect.any(TimeoutError)]);
    // The attempt given up was aborted, so its connection is released.
    expect(service.attempts[0]!.signal.aborted).toBe(true);
  });

  it("the last attempt throws a TimeoutError (a ConnectionError, status 0, code timeout)", async () => {
    const service = scriptedFetch([null]);
    const thrown = await client(baseUrl, { fetch: service.fetch, timeout: 100, maxRetries: 1 })
      .credits()
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TimeoutError);
    expect(thrown).toBeInstanceOf(ConnectionError);
    expect(thrown).toBeInstanceOf(DeepResearchError);
    expect(thrown).toMatchObject({
      name: "TimeoutError",
      status: 0,
      code: "timeout",
      message: `GET ${baseUrl}/v1/credits did not answer within 100 ms.`,
    });
    expect(service.attempts).toHaveLength(2);
  });

  it("a call's own timeout overrides the client's; a POST without an Idempotency-Key is not repeated", async () => {
    const service = scriptedFetch([null]);
    const slow = client(baseUrl, { fetch: service.fetch, timeout: 60_000 });
    await expect(slow.collections.create({ name: "x" }, { timeout: 100 })).rejects.toMatchObject({ code: "timeout" });
    expect(service.attempts.map((attempt) => attempt.method)).toEqual(["POST"]);
  });

  it("a real connection that gets no answer times out too", async () => {
    const service = await serve([silent]);
    await expect(client(service.baseUrl, { timeout: 100, maxRetries: 0 }).credits()).rejects.toMatchObject({ code: "timeout" });
  });

  it("the caller's signal still aborts as it is, not as a timeout", async () => {
    const service = await serve([silent]);
    const controller = new AbortController();
    const pending = client(service.baseUrl, { timeout: 60_000 }).credits({ signal: controller.signal });
    await waitFor(() => service.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("bounds the wait for the response only, not its body: an event stream may run longer", async () => {
    const result = { id: "job-1", status: "succeeded" };
    const encoder = new TextEncoder();
    let stream!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        stream = controller;
        controller.enqueue(encoder.encode(`id: 1\nevent: status\ndata: {"status":"running"}\n\n`));
      },
    });
    const service = scriptedFetch([new Response(body, { headers: { "Content-Type": "text/event-stream" } })]);
    const events: string[] = [];
    for await (const event of client(baseUrl, { fetch: service.fetch, timeout: 100, maxRetries: 0 }).stream("job-1")) {
      events.push(event.event);
      if (event.event !== "status") continue;
      // The result comes once the first event has been read and well past the timeout (a late
      // timer on a loaded machine only makes the wait longer, which is what is tested).
      await new Promise((resolve) => setTimeout(resolve, 300));
      stream.enqueue(encoder.encode(`id: 2\nevent: result\ndata: ${JSON.stringify(result)}\n\n`));
      stream.close();
    }
    expect(events).toEqual(["status", "result"]);
    expect(service.attempts).toHaveLength(1);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
