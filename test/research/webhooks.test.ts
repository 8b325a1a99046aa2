import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { sweepDueWebhooks, WEBHOOK_SWEEP_MARGIN_MS } from "../../src/webhooks/delivery";
import { MAX_DELIVERY_ATTEMPTS } from "../../src/webhooks/signing";
import { BASE, call, dbFirst, dbRun, expectError, json, randomIp } from "../helpers";
import { dohHandler } from "../doh";
import {
  apiCaller,
  type ApiCaller,
  balanceOf,
  corpusLoaded,
  eventually,
  expectShortAnswerIn,
  hmacHex,
  recordRetryDelays,
  research,
  waitForTerminal,
} from "./helpers";

const HOOKS = "https://hooks.example.test";

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
  http.post(`${HOOKS}/redirect/*`, async ({ request }) => {
    received.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.text() });
    return new HttpResponse(null, { status: 307, headers: { Location: `${HOOKS}/ok/redirected` } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const receivedAt = (path: string) => received.filter((r) => r.path === path);

async function secretOf(caller: ApiCaller): Promise<string> {
  const response = await call("/api/settings/webhook-secret", { token: caller.accessToken });
  expect(response.status).toBe(200);
  const { secret } = await json(response);
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

async function deliveries(caller: ApiCaller, id: string) {
  const response = await call(`/v1/research/${id}/deliveries`, { token: caller.key });
  expect(response.status).toBe(200);
  return json<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number; created_at: string }[]>(response);
}

/** A finished job whose webhook_url points at `kind` on the receiver; waits for its first delivery attempt. */
async function jobWithWebhook(caller: ApiCaller, kind: "ok" | "fail" | "redirect") {
  const path = `/${kind}/${crypto.randomUUID()}`;
  const response = await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url: `${HOOKS}${path}` });
  expect(response.status).toBe(202);
  const { id } = await json(response);
  const result = await waitForTerminal(caller, id);
  await eventually(async () => (await deliveries(caller, id)).length > 0, "the first delivery attempt");
  return { id, path, result };
}

/**
 * The suite's env as a deployment's: ENVIRONMENT production (with a secret production accepts),
 * and a resolver endpoint of its own, so no answer cached by another test's resolver is reused.
 */
function productionEnv(dohUrl: string): typeof env {
  const secret = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { ...env, ENVIRONMENT: "production", JWT_SECRET: secret, DNS_OVER_HTTPS_URL: dohUrl } as typeof env;
}
const freshDohUrl = () => `https://doh-${crypto.randomUUID()}.example.test/dns-query`;

/** POST /v1/research through the worker with `workerEnv` (the suite's bindings, or production's). */
async function submitWith(workerEnv: typeof env, caller: ApiCaller, body: Record<string, unknown>) {
  const request = new Request(`${BASE}/v1/research`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${caller.key}`, "CF-Connecting-IP": randomIp() },
    body: JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, workerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The job's row in the webhook outbox (what makes its delivery durable). */
function outboxOf(jobId: string) {
  return dbFirst<{ state: string; attempts: number; next_attempt_at: string }>(
    "select state, attempts, next_attempt_at from webhook_outbox where job_id = ?",
    jobId,
  );
}

/** Runs the webhook consumer on one message of the job's terminal delivery (its id is the job's), as the queue would deliver its `attempts`-th try. */
async function deliverAttempt(jobId: string, attempts: number, workerEnv: typeof env = env) {
  const batch = createMessageBatch("webhook-deliveries", [{ id: `msg-${attempts}`, timestamp: new Date(), attempts, body: { jobId, deliveryId: jobId } }]);
  const delays = recordRetryDelays(batch);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, workerEnv);
  await waitOnExecutionContext(ctx);
  const result = await getQueueResult(batch, ctx);
  return { ...result, retryMessages: result.retryMessages.map((m) => ({ ...m, delaySeconds: delays.get(m.msgId) })) };
}

describe("webhooks", () => {
  it("delivers the final ResearchResult, signed with the account's secret", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path, result } = await jobWithWebhook(caller, "ok");
    const [delivery] = receivedAt(path);
    expect(receivedAt(path)).toHaveLength(1);
    expect(JSON.parse(delivery!.body)).toEqual(result);
    expectShortAnswerIn(JSON.parse(delivery!.body));
    expect(delivery!.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(delivery!.headers.get("X-Service-Event")).toBe("research.completed");
    expect(delivery!.headers.get("X-Service-Delivery")).toMatch(/^[0-9a-f-]{36}$/);
    const timestamp = Number(delivery!.headers.get("X-Service-Timestamp"));
    expect(Number.isInteger(timestamp)).toBe(true);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    const secret = await secretOf(caller);
    expect(delivery!.headers.get("X-Service-Signature")).toBe(`sha256=${await hmacHex(secret, delivery!.body)}`);

    const attempts = await deliveries(caller, id);
    expect(attempts).toEqual([
      {
        delivery_id: id,
        event: "research.completed",
        attempt: 1,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
        created_at: expect.any(String),
      },
    ]);
  });

  it("retries a failing receiver with exponential backoff, gives up after the last attempt, records every attempt", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    expect(await deliveries(caller, id)).toEqual([expect.objectContaining({ attempt: 1, status_code: 500, error: expect.any(String) })]);

    const delays: number[] = [];
    for (let attempt = 2; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      const outcome = await deliverAttempt(id, attempt);
      if (attempt < MAX_DELIVERY_ATTEMPTS) {
        expect(outcome.explicitAcks).toEqual([]);
        expect(outcome.retryMessages).toHaveLength(1);
        delays.push(outcome.retryMessages[0]!.delaySeconds!);
      } else {
        expect(outcome.retryMessages).toEqual([]);
        expect(outcome.explicitAcks).toEqual([`msg-${attempt}`]);
      }
    }
    expect(delays[0]).toBe(120);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBe(delays[i - 1]! * 2);
    // The first attempt's retry (the live queue's) waited 60 s: 60, 120, 240, ... spans well over an hour.
    expect(60 + delays.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3600);
    expect(MAX_DELIVERY_ATTEMPTS).toBeGreaterThanOrEqual(6);

    const attempts = await deliveries(caller, id);
    expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: MAX_DELIVERY_ATTEMPTS }, (_, i) => i + 1));
    for (const a of attempts) expect(a).toMatchObject({ status_code: 500, error: expect.any(String) });
    expect(receivedAt(path)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
  });

  it("the first failed attempt is retried after 60 s", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id } = await jobWithWebhook(caller, "fail");
    // The live queue made attempt 1 already; replay it as if it had not (else it is a duplicate, skipped).
    await dbRun("update webhook_outbox set attempts = 0 where job_id = ?", id);
    const outcome = await deliverAttempt(id, 1);
    expect(outcome.retryMessages).toEqual([{ msgId: "msg-1", delaySeconds: 60 }]);
  });

  it("a 3xx is a failure: the redirect is not followed", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "redirect");
    expect(receivedAt(path)).toHaveLength(1);
    expect(receivedAt("/ok/redirected")).toHaveLength(0);
    expect(await deliveries(caller, id)).toEqual([expect.objectContaining({ attempt: 1, status_code: 307, error: expect.any(String) })]);
    const outcome = await deliverAttempt(id, 2);
    expect(outcome.retryMessages).toHaveLength(1);
    expect(receivedAt("/ok/redirected")).toHaveLength(0);
  });

  it("rotating the secret changes the signing key", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const before = await secretOf(caller);
    expect(await secretOf(caller)).toBe(before);
    const rotated = await call("/api/settings/webhook-secret/rotate", { method: "POST", token: caller.accessToken });
    expect(rotated.status).toBe(200);
    const { secret: after } = await json(rotated);
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    expect(await secretOf(caller)).toBe(after);

    const { path } = await jobWithWebhook(caller, "ok");
    const [delivery] = receivedAt(path);
    expect(delivery!.headers.get("X-Service-Signature")).toBe(`sha256=${await hmacHex(after, delivery!.body)}`);
    expect(delivery!.headers.get("X-Service-Signature")).not.toBe(`sha256=${await hmacHex(before, delivery!.body)}`);

    await expectError(await call("/api/settings/webhook-secret", { token: caller.key }), 401, "unauthorized");
    await expectError(await call("/api/settings/webhook-secret/rotate", { method: "POST" }), 401, "unauthorized");
  });

  it("re-checks the URL at delivery time: an unsafe destination is refused and not retried", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    await dbRun("update research_jobs set webhook_url = ? where id = ?", "https://169.254.169.254/latest/meta-data", id);
    const outcome = await deliverAttempt(id, 2);
    expect(outcome.retryMessages).toEqual([]);
    expect(outcome.explicitAcks).toEqual(["msg-2"]);
    const attempts = await deliveries(caller, id);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toMatchObject({ attempt: 2, status_code: null, error: expect.stringMatching(/refused/) });
    expect(receivedAt(path)).toHaveLength(1);
    expect(await outboxOf(id)).toMatchObject({ state: "given_up", attempts: 2 });
  });

  it("a retry lost with its queue message is sent again by the sweep once overdue, and then succeeds; a delivered one is never sent again", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    expect(await outboxOf(id)).toMatchObject({ state: "pending", attempts: 1 });
    // The queue's retry of attempt 1 (due in 60 s) is lost, as a local queue loses it at a restart.
    // The receiver is fixed meanwhile.
    server.use(
      http.post(`${HOOKS}${path}`, async ({ request }) => {
        received.push({ path, headers: request.headers, body: await request.text() });
        return HttpResponse.json({ ok: true });
      }),
    );
    const dueAt = Date.parse((await outboxOf(id))!.next_attempt_at);
    expect(dueAt - Date.now()).toBeGreaterThan(50_000);

    // Due but not overdue by the margin: the queue's own retry may still come, the sweep leaves it.
    expect((await sweepDueWebhooks(env, dueAt + WEBHOOK_SWEEP_MARGIN_MS - 1000)).resent).not.toContain(id);
    expect((await sweepDueWebhooks(env, dueAt + WEBHOOK_SWEEP_MARGIN_MS)).resent).toContain(id);
    await eventually(async () => (await deliveries(caller, id)).length === 2, "attempt 2, sent by the sweep");
    expect((await deliveries(caller, id))[1]).toMatchObject({ attempt: 2, status_code: 200, error: null });
    expect(receivedAt(path)).toHaveLength(2);
    expect(receivedAt(path)[1]!.headers.get("X-Service-Delivery")).toBe(id);
    expect(await outboxOf(id)).toMatchObject({ state: "delivered", attempts: 2 });

    // Delivered: no later sweep sends it again, and a late queue message (the lost retry, after all) skips.
    expect((await sweepDueWebhooks(env, Date.now() + 7 * 86_400_000)).resent).not.toContain(id);
    const late = await deliverAttempt(id, 2);
    expect(late.explicitAcks).toEqual(["msg-2"]);
    expect(late.retryMessages).toEqual([]);
    expect(await deliveries(caller, id)).toHaveLength(2);
    expect(receivedAt(path)).toHaveLength(2);
  });

  it("the cron trigger runs the webhook sweep", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    server.use(http.post(`${HOOKS}${path}`, () => HttpResponse.json({ ok: true })));
    // Attempt 2 was due 10 minutes ago and never came.
    await dbRun("update webhook_outbox set next_attempt_at = ? where job_id = ?", new Date(Date.now() - 10 * 60_000).toISOString(), id);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await eventually(async () => (await deliveries(caller, id)).length === 2, "attempt 2, sent by the cron sweep");
    expect((await deliveries(caller, id))[1]).toMatchObject({ attempt: 2, status_code: 200 });
    expect(await outboxOf(id)).toMatchObject({ state: "delivered", attempts: 2 });
  });

  it("the sweep keeps the attempt count: a failing delivery re-sent by the sweep stops at the last attempt", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    // Every queue retry is lost: each attempt after the first is sent by the sweep, a day apart.
    for (let attempt = 2; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      expect((await sweepDueWebhooks(env, Date.now() + attempt * 86_400_000)).resent).toContain(id);
      await eventually(async () => (await deliveries(caller, id)).length === attempt, `attempt ${attempt}`);
    }
    expect((await deliveries(caller, id)).map((a) => a.attempt)).toEqual(Array.from({ length: MAX_DELIVERY_ATTEMPTS }, (_, i) => i + 1));
    expect(await outboxOf(id)).toMatchObject({ state: "given_up", attempts: MAX_DELIVERY_ATTEMPTS });
    const later = await sweepDueWebhooks(env, Date.now() + 30 * 86_400_000);
    expect(later.resent).not.toContain(id);
    expect(receivedAt(path)).toHaveLength(MAX_DELIVERY_ATTEMPTS);

    // An attempt that died mid-way after the last one started (the outbox still says pending) is given up, not made again.
    await dbRun("update webhook_outbox set state = 'pending' where job_id = ?", id);
    expect((await sweepDueWebhooks(env, Date.now() + 31 * 86_400_000)).givenUp).toContain(id);
    expect(await outboxOf(id)).toMatchObject({ state: "given_up", attempts: MAX_DELIVERY_ATTEMPTS });
    expect(await deliveries(caller, id)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
  });

  it("in production, a webhook_url whose host name resolves to loopback is 400 at submit, and nothing is written", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const asked: string[] = [];
    const doh = freshDohUrl();
    server.use(dohHandler({ "loop.example": { addresses: ["127.0.0.1"] }, "cname-loop.example": { cname: "loop.example" } }, asked, doh));
    const production = productionEnv(doh);
    const before = await balanceOf(caller);
    for (const webhook_url of ["https://loop.example:8443/h", "https://cname-loop.example/h"]) {
      const response = await submitWith(production, caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url });
      const body = await expectError(response, 400, "invalid_request");
      expect(body.error.message).toBe("Invalid request: webhook_url must not point at a host name that resolves to a loopback address.");
    }
    expect(asked).toContain("loop.example A");
    expect(await json(await call("/v1/research", { token: caller.key }))).toEqual([]);
    expect(await balanceOf(caller)).toBe(before);
    // The same names in development are not looked up (loopback and local names are allowed there).
    asked.length = 0;
    server.use(http.post("https://loop.example/h", () => HttpResponse.json({ ok: true })));
    const accepted = await submitWith(env, caller, { question: "What was the Tariff of 1828?", mode: "lite", webhook_url: "https://loop.example/h" });
    expect(accepted.status).toBe(202);
    const { id } = await json(accepted);
    await waitForTerminal(caller, id);
    await eventually(async () => (await deliveries(caller, id)).length > 0, "the delivery");
    expect((await deliveries(caller, id))[0]).toMatchObject({ status_code: 200 });
    expect(asked).toEqual([]);
  });

  it("re-resolves the host name at every delivery: a name that now resolves internally is refused and not retried", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    expect(receivedAt(path)).toHaveLength(1);
    const doh = freshDohUrl();
    server.use(dohHandler({ "hooks.example.test": { addresses: ["127.0.0.1"] } }, [], doh));
    const outcome = await deliverAttempt(id, 2, productionEnv(doh));
    expect(outcome.retryMessages).toEqual([]);
    expect(outcome.explicitAcks).toEqual(["msg-2"]);
    expect(receivedAt(path)).toHaveLength(1);
    const attempts = await deliveries(caller, id);
    expect(attempts[1]).toMatchObject({
      attempt: 2,
      status_code: null,
      error: "refused: webhook_url must not point at a host name that resolves to a loopback address",
    });
  });

  it("in production, a delivery whose host name cannot be resolved sends nothing and is retried", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { id, path } = await jobWithWebhook(caller, "fail");
    const doh = freshDohUrl();
    server.use(dohHandler({ "hooks.example.test": { httpStatus: 503 } }, [], doh));
    const outcome = await deliverAttempt(id, 2, productionEnv(doh));
    expect(outcome.retryMessages).toHaveLength(1);
    expect(receivedAt(path)).toHaveLength(1);
    expect((await deliveries(caller, id))[1]).toMatchObject({
      attempt: 2,
      status_code: null,
      error: expect.stringMatching(/^refused: .*could not be resolved/),
    });
    // Public again: the next attempt is sent.
    server.use(dohHandler({}, [], doh));
    await deliverAttempt(id, 3, productionEnv(doh));
    expect(receivedAt(path)).toHaveLength(2);
  });

  it("a job without a webhook has no deliveries", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const done = await json(await research(caller, { question: "What was the Tariff of 1828?", mode: "lite" }));
    expect(await deliveries(caller, done.id)).toEqual([]);
  });
});
