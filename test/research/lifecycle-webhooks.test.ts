import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/src/webhooks";
import worker from "../../src/index";
import { call, expectError, json } from "../helpers";
import { apiCaller, type ApiCaller, cancelledJob, corpusLoaded, eventually, holdTasks, research, waitForTerminal } from "./helpers";

const HOOKS = "https://lifecycle-hooks.example.test";
const ALL_EVENTS = ["research.started", "research.progress", "research.completed", "research.failed", "research.cancelled"];
const STANDARD = ["webhook-id", "webhook-timestamp", "webhook-signature"];
const SERVICE = ["X-Service-Signature", "X-Service-Timestamp"];

interface Received {
  path: string;
  headers: Headers;
  body: string;
}
const received: Received[] = [];

const server = setupServer(
  http.post(`${HOOKS}/ok/*`, async ({ request }) => {
    received.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.text() });
    return HttpResponse.json({ ok: true });
  }),
  http.post(`${HOOKS}/fail/*`, async ({ request }) => {
    received.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.text() });
    return new HttpResponse("broken", { status: 500 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const receivedAt = (path: string) => received.filter((r) => r.path === path);
const ofEvent = (path: string, event: string) => receivedAt(path).filter((r) => r.headers.get("X-Service-Event") === event);

async function secretOf(caller: ApiCaller): Promise<string> {
  const { secret } = await json(await call("/api/settings/webhook-secret", { token: caller.accessToken }));
  return secret;
}

/** The delivery's headers without `drop` (case-insensitive). */
function without(headers: Headers, drop: string[]): Headers {
  const copy = new Headers(headers);
  for (const name of drop) copy.delete(name);
  return copy;
}

/** Verifies a delivery with the SDK both ways: Standard Webhooks only, then X-Service-Signature only. */
async function expectSignedBothWays(delivery: Received, secret: string) {
  const standard = await verifyWebhook(delivery.body, without(delivery.headers, SERVICE), secret);
  expect(standard.scheme).toBe("standard-webhooks");
  const service = await verifyWebhook(delivery.body, without(delivery.headers, STANDARD), secret);
  expect(service.scheme).toBe("x-service-signature");
  expect(standard.deliveryId).toBe(delivery.headers.get("X-Service-Delivery"));
  expect(service.deliveryId).toBe(delivery.headers.get("webhook-id"));
  // Either signature is checked: a wrong secret fails both ways.
  await expect(verifyWebhook(delivery.body, without(delivery.headers, SERVICE), `${secret.slice(0, -4)}AAA=`)).rejects.toThrow();
  await expect(verifyWebhook(delivery.body, without(delivery.headers, STANDARD), `${secret}x`)).rejects.toThrow();
  return standard;
}

async function deliveries(caller: ApiCaller, id: string) {
  const response = await call(`/v1/research/${id}/deliveries`, { token: caller.key });
  expect(response.status).toBe(200);
  return json<{ delivery_id: string; event: string; attempt: number; status_code: number | null }[]>(response);
}

describe("lifecycle webhooks", () => {
  it("delivers started, throttled progress and the terminal event once each, signed both ways", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const path = `/ok/${crypto.randomUUID()}`;
    const response = await research(caller, {
      question: "What was the Tariff of 1828?",
      mode: "lite",
      webhook_url: `${HOOKS}${path}`,
      webhook_events: ALL_EVENTS,
    });
    expect(response.status).toBe(202);
    const { id } = await json(response);
    const result = await waitForTerminal(caller, id);
    expect(result.status).toBe("succeeded");
    await eventually(
      () => ofEvent(path, "research.started").length > 0 && ofEvent(path, "research.progress").length > 0 && ofEvent(path, "research.completed").length > 0,
      "the lifecycle deliveries",
    );
    // Every delivery made is recorded: wait for the list to hold them all before counting.
    await eventually(async () => (await deliveries(caller, id)).length === receivedAt(path).length, "the recorded attempts");

    expect(ofEvent(path, "research.started")).toHaveLength(1);
    expect(ofEvent(path, "research.completed")).toHaveLength(1);
    expect(ofEvent(path, "research.failed")).toHaveLength(0);
    expect(ofEvent(path, "research.cancelled")).toHaveLength(0);
    const progress = ofEvent(path, "research.progress");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(result.wave_count);

    const secret = await secretOf(caller);
    const ids = new Set<string>();
    for (const delivery of receivedAt(path)) {
      const verified = await expectSignedBothWays(delivery, secret);
      ids.add(verified.deliveryId!);
    }
    expect(ids.size).toBe(receivedAt(path).length); // each delivery its own id

    const started = await verifyWebhook(ofEvent(path, "research.started")[0]!.body, ofEvent(path, "research.started")[0]!.headers, secret);
    expect(started.deliveryId).toBe(`${id}:research.started`);
    expect(started.envelope).toMatchObject({ type: "research.started", job_id: id, data: { status: "running" } });
    const firstProgress = await verifyWebhook(progress[0]!.body, progress[0]!.headers, secret);
    expect(firstProgress.envelope).toMatchObject({ type: "research.progress", job_id: id, data: { wave: expect.any(Number), stage: expect.any(String) } });
    const completed = await verifyWebhook(ofEvent(path, "research.completed")[0]!.body, ofEvent(path, "research.completed")[0]!.headers, secret);
    expect(completed.deliveryId).toBe(id);
    expect(completed.envelope).toBeNull();
    expect(completed.result).toEqual(result);

    const list = await deliveries(caller, id);
    expect(new Set(list.map((d) => d.event))).toEqual(new Set(["research.started", "research.progress", "research.completed"]));
    expect(list.every((d) => d.status_code === 200 && d.attempt === 1)).toBe(true);
  });

  it("a request without webhook_events gets today's one research.completed delivery, also signed the Standard Webhooks way", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const path = `/ok/${crypto.randomUUID()}`;
    const { id } = await json(await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url: `${HOOKS}${path}` }));
    const result = await waitForTerminal(caller, id);
    await eventually(() => receivedAt(path).length > 0, "the delivery");
    await eventually(async () => (await deliveries(caller, id)).length > 0, "the recorded attempt");
    expect(receivedAt(path)).toHaveLength(1);
    const [delivery] = receivedAt(path);
    expect(delivery!.headers.get("X-Service-Event")).toBe("research.completed");
    expect(delivery!.headers.get("webhook-id")).toBe(id);
    expect(delivery!.headers.get("webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = await expectSignedBothWays(delivery!, await secretOf(caller));
    expect(verified.result).toEqual(result);
  });

  it("a cancelled job sends research.cancelled once (and no research.completed), its body the cancelled result", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const path = `/ok/${crypto.randomUUID()}`;
    const hold = holdTasks();
    try {
      const submitted = await research(caller, {
        question: "What ended the Nullification Crisis?",
        mode: "standard",
        webhook_url: `${HOOKS}${path}`,
        webhook_events: ["research.completed", "research.cancelled"],
      });
      const { id } = await json(submitted);
      await eventually(() => hold.heldFor(id).length > 0, "the first wave's tasks");
      const cancelled = cancelledJob(await json(await call(`/v1/research/${id}`, { method: "DELETE", token: caller.key })));
      expect(cancelled.status).toBe("cancelled");
      await eventually(() => ofEvent(path, "research.cancelled").length > 0, "the cancelled delivery");
      await eventually(async () => (await deliveries(caller, id)).length === receivedAt(path).length, "the recorded attempts");
      expect(ofEvent(path, "research.cancelled")).toHaveLength(1);
      expect(ofEvent(path, "research.completed")).toHaveLength(0);
      const verified = await expectSignedBothWays(ofEvent(path, "research.cancelled")[0]!, await secretOf(caller));
      expect(verified.result).toEqual(cancelled);
    } finally {
      await hold.release();
    }
  });

  it("webhook_events needs webhook_url; an unknown event is 400", async () => {
    const caller = await apiCaller();
    await expectError(
      await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_events: ["research.started"] }),
      400,
      "invalid_request",
    );
    await expectError(
      await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url: `${HOOKS}/ok/x`, webhook_events: ["research.exploded"] }),
      400,
      "invalid_request",
    );
  });

  it("webhook-id is stable across a retry of the same delivery", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const path = `/fail/${crypto.randomUUID()}`;
    const { id } = await json(
      await research(caller, {
        question: "What was the Tariff of 1828?",
        mode: "lite",
        webhook_url: `${HOOKS}${path}`,
        webhook_events: ["research.started", "research.completed"],
      }),
    );
    await waitForTerminal(caller, id);
    await eventually(() => ofEvent(path, "research.started").length > 0, "the first attempt");
    // The queue's retry of the started delivery (its second attempt), run now.
    const deliveryId = `${id}:research.started`;
    const batch = createMessageBatch("webhook-deliveries", [{ id: "retry-2", timestamp: new Date(), attempts: 2, body: { jobId: id, deliveryId } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch as never, env);
    await waitOnExecutionContext(ctx);
    const attempts = ofEvent(path, "research.started");
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.headers.get("webhook-id"))).toEqual([deliveryId, deliveryId]);
    const secret = await secretOf(caller);
    for (const attempt of attempts) await expectSignedBothWays(attempt, secret);
    expect((await deliveries(caller, id)).filter((d) => d.delivery_id === deliveryId).map((d) => d.attempt)).toEqual([1, 2]);
  });

  it("an account sends itself a test event, from the API and the dashboard; an unsafe URL is 400", async () => {
    const caller = await apiCaller();
    const secret = await secretOf(caller);
    const path = `/ok/${crypto.randomUUID()}`;
    const response = await call("/v1/webhooks/test", { token: caller.key, body: { url: `${HOOKS}${path}` } });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ event: "webhook.test", status_code: 200, error: null, delivery_id: expect.stringMatching(/^test_/) });
    const dashboard = await call("/api/settings/webhook-test", { token: caller.accessToken, body: { url: `${HOOKS}${path}` } });
    expect(dashboard.status).toBe(200);
    expect(receivedAt(path)).toHaveLength(2);
    for (const delivery of receivedAt(path)) {
      expect(delivery.headers.get("X-Service-Event")).toBe("webhook.test");
      const verified = await expectSignedBothWays(delivery, secret);
      expect(verified.envelope).toMatchObject({ type: "webhook.test", job_id: null });
    }
    const failing = await json(await call("/v1/webhooks/test", { token: caller.key, body: { url: `${HOOKS}/fail/x` } }));
    expect(failing).toMatchObject({ status_code: 500, error: expect.any(String) });
    await expectError(await call("/v1/webhooks/test", { token: caller.key, body: { url: "https://10.0.0.8/hook" } }), 400, "invalid_request");
    await expectError(await call("/v1/webhooks/test", { body: { url: `${HOOKS}${path}` } }), 401, "unauthorized");
  });

  it("resends a recorded delivery: same id and body, signed afresh, recorded as the next attempt", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const stranger = await apiCaller();
    const path = `/ok/${crypto.randomUUID()}`;
    const { id } = await json(await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url: `${HOOKS}${path}` }));
    await waitForTerminal(caller, id);
    await eventually(async () => (await deliveries(caller, id)).length > 0, "the first delivery");

    const resent = await call(`/v1/research/${id}/deliveries/${id}/resend`, { token: caller.key, method: "POST" });
    expect(resent.status).toBe(200);
    expect(await json(resent)).toMatchObject({ delivery_id: id, event: "research.completed", attempt: 2, status_code: 200, error: null });
    const dashboard = await call(`/api/playground/research/${id}/deliveries/${id}/resend`, { token: caller.accessToken, method: "POST" });
    expect(await json(dashboard)).toMatchObject({ attempt: 3, status_code: 200 });

    const all = receivedAt(path);
    expect(all).toHaveLength(3);
    expect(new Set(all.map((d) => d.body)).size).toBe(1);
    expect(new Set(all.map((d) => d.headers.get("webhook-id")))).toEqual(new Set([id]));
    const secret = await secretOf(caller);
    for (const delivery of all) await expectSignedBothWays(delivery, secret);
    expect((await deliveries(caller, id)).map((d) => d.attempt)).toEqual([1, 2, 3]);

    await expectError(await call(`/v1/research/${id}/deliveries/${id}:research.started/resend`, { token: caller.key, method: "POST" }), 404, "not_found");
    await expectError(await call(`/v1/research/${id}/deliveries/${id}/resend`, { token: stranger.key, method: "POST" }), 404, "not_found");
  });
});
