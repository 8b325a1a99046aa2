import { afterEach, describe, expect, it } from "vitest";
import { DeepResearch, DeepResearchError } from "../../sdk/src/index";
import { backoffMs } from "../../sdk/src/retry";
import { error, fakeService, hangUp, json } from "./fake-server";

const balance = { credits: 500, usd: "5.00" };
let close: (() => Promise<void>) | null = null;

async function serve(script: Parameters<typeof fakeService>[0]) {
  const service = await fakeService(script);
  close = service.close;
  return service;
}

afterEach(async () => {
  await close?.();
  close = null;
});

const client = (baseUrl: string, options: Partial<ConstructorParameters<typeof DeepResearch>[0]> = {}) =>
  new DeepResearch({ apiKey: "dr_test_key", baseUrl, baseDelayMs: 10, ...options });

describe("retries", () => {
  it("waits out a 429's Retry-After, then succeeds", async () => {
    const service = await serve([error(429, "rate_limited", "Too many requests.", { "Retry-After": "1" }), json(200, balance)]);
    const retries: unknown[] = [];
    expect(await client(service.baseUrl, { onRetry: (retry) => retries.push(retry) }).credits()).toEqual(balance);
    expect(service.requests).toHaveLength(2);
    const waited = service.requests[1]!.at - service.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
    expect(service.requests[1]!.headers.authorization).toBe("Bearer dr_test_key");
    expect(retries).toEqual([{ attempt: 1, delayMs: 1000, status: 429, error: null }]);
  });

  it("retries 5xx and dropped connections of a GET with backoff, up to maxRetries", async () => {
    const service = await serve([error(503, "service_unavailable", "Try later."), hangUp, json(200, balance)]);
    expect(await client(service.baseUrl).credits()).toEqual(balance);
    expect(service.requests).toHaveLength(3);

    const failing = await serve([error(500, "internal", "Boom.")]);
    const thrown = await client(failing.baseUrl, { maxRetries: 2 })
      .credits()
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(DeepResearchError);
    expect(thrown).toMatchObject({ status: 500, code: "internal", message: "Boom.", requestId: "req-500" });
    expect(failing.requests).toHaveLength(3);
  });

  it("retries a submit with the same Idempotency-Key every time, so it never starts twice", async () => {
    const result = {
      id: "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11",
      status: "succeeded",
      question: "q",
      brief: "b",
      typed: null,
      sources: [],
      citations: [],
      credits_charged: 15,
      cost_usd: 0.1,
      created_at: "2026-01-01T00:00:00.000Z",
      completed_at: "2026-01-01T00:00:01.000Z",
      error: null,
      latency_ms: 1000,
      wave_count: 1,
    };
    const service = await serve([hangUp, error(502, "internal", "Bad gateway."), error(409, "idempotency_conflict", "Still processing."), json(200, result)]);
    const submitted = await client(service.baseUrl).submit("q", { mode: "lite" });
    expect(submitted).toMatchObject({ status: 200, result: { id: result.id } });
    expect(service.requests).toHaveLength(4);
    const keys = new Set(service.requests.map((request) => request.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBe(submitted.idempotencyKey);
    expect(new Set(service.requests.map((request) => request.body)).size).toBe(1);
  });

  it("never repeats a POST without an Idempotency-Key after a 5xx (the work may be done), nor any other 4xx", async () => {
    const service = await serve([error(500, "internal", "Boom."), json(200, {})]);
    await expect(client(service.baseUrl).collections.create({ name: "x" })).rejects.toMatchObject({ status: 500 });
    expect(service.requests).toHaveLength(1);

    const refused = await serve([error(400, "invalid_request", "Invalid request: question must not be empty."), json(200, balance)]);
    await expect(client(refused.baseUrl).submit(" ")).rejects.toMatchObject({ status: 400, code: "invalid_request" });
    expect(refused.requests).toHaveLength(1);
  });

  it("gives a 429 back at once, with retryAfter, when it asks for longer than the client waits", async () => {
    const service = await serve([error(429, "rate_limited", "Too many requests.", { "Retry-After": "120" }), json(200, balance)]);
    const thrown = await client(service.baseUrl, { maxDelayMs: 5000 })
      .credits()
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ status: 429, code: "rate_limited", retryAfter: 120, requestId: "req-429" });
    expect(service.requests).toHaveLength(1);
  });

  it("with maxRetries 0 sends once; an unreachable service is a network_error", async () => {
    const service = await serve([error(503, "service_unavailable", "Try later."), json(200, balance)]);
    await expect(client(service.baseUrl, { maxRetries: 0 }).credits()).rejects.toMatchObject({ status: 503 });
    expect(service.requests).toHaveLength(1);
    await service.close();
    close = null;
    const thrown = await client(service.baseUrl, { maxRetries: 1 })
      .credits()
      .catch((e: unknown) => e);
    expect(thrown).toMatchObject({ status: 0, code: "network_error" });
    expect((thrown as Error).message).toContain(service.baseUrl);
  });

  it("an abort stops the wait between attempts", async () => {
    const service = await serve([error(429, "rate_limited", "Too many requests.", { "Retry-After": "30" })]);
    const controller = new AbortController();
    const pending = client(service.baseUrl).credits({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(backoffMs(0, 500, 60_000, () => 0)).toBe(250);
    expect(backoffMs(0, 500, 60_000, () => 1)).toBe(500);
    expect(backoffMs(3, 500, 60_000, () => 1)).toBe(4000);
    expect(backoffMs(20, 500, 60_000, () => 1)).toBe(60_000);
  });
});
