import { afterEach, describe, expect, it } from "vitest";
import { ConnectionError, DeepResearch, DeepResearchError, TimeoutError } from "../../sdk/src/index";
import { fakeService, json, silent } from "./fake-server";

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

describe("timeouts", () => {
  it("an attempt that gets no response in time is given up and retried like a network error", async () => {
    const service = await serve([silent, json(200, balance)]);
    const retries: unknown[] = [];
    expect(await client(service.baseUrl, { timeout: 200, onRetry: (retry) => retries.push(retry.error) }).credits()).toEqual(balance);
    expect(service.requests).toHaveLength(2);
    expect(retries).toEqual([expect.any(TimeoutError)]);
  });

  it("the last attempt throws a TimeoutError (a ConnectionError, status 0, code timeout)", async () => {
    const service = await serve([silent]);
    const thrown = await client(service.baseUrl, { timeout: 100, maxRetries: 1 })
      .credits()
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TimeoutError);
    expect(thrown).toBeInstanceOf(ConnectionError);
    expect(thrown).toBeInstanceOf(DeepResearchError);
    expect(thrown).toMatchObject({
      name: "TimeoutError",
      status: 0,
      code: "timeout",
      message: `GET ${service.baseUrl}/v1/credits did not answer within 100 ms.`,
    });
    expect(service.requests).toHaveLength(2);
  });

  it("a call's own timeout overrides the client's; a POST without an Idempotency-Key is not repeated", async () => {
    const service = await serve([silent]);
    const slow = client(service.baseUrl, { timeout: 60_000 });
    await expect(slow.collections.create({ name: "x" }, { timeout: 100 })).rejects.toMatchObject({ code: "timeout" });
    expect(service.requests).toHaveLength(1);
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
    let finish: (() => void) | null = null;
    const service = await serve([
      (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.write(`id: 1\nevent: status\ndata: {"status":"running"}\n\n`);
        finish = () => res.end(`id: 2\nevent: result\ndata: ${JSON.stringify(result)}\n\n`);
      },
    ]);
    const events: string[] = [];
    for await (const event of client(service.baseUrl, { timeout: 100, maxRetries: 0 }).stream("job-1")) {
      events.push(event.event);
      // The result is sent only once the first event has been read and well past the timeout.
      if (event.event === "status") setTimeout(() => finish!(), 300);
    }
    expect(events).toEqual(["status", "result"]);
    expect(service.requests).toHaveLength(1);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
