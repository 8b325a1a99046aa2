import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/env";
import { RATE_RULES, type RateRuleName } from "../src/rate-limit/rules";
import { call, createKey, dbAll, expectError, json, login, signupUser, type TestUser } from "./helpers";

// Per-account limits on the dashboard operations that cost us per call (issue 39, item 8): 100 of
// 100 test events each sent a POST. Each limit answers 429 with the /v1 limiter's headers after its
// number, and nothing is sent past it. The clock is frozen: a slow machine cannot roll a window over.

const HOOKS = "https://dashboard-limit-hooks.example.test";
const received: string[] = [];
const server = setupServer(
  http.post(`${HOOKS}/*`, ({ request }) => {
    received.push(new URL(request.url).pathname);
    return HttpResponse.json({ ok: true });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => vi.useRealTimers());
afterAll(() => server.close());

const scale = loadConfig(env).RATE_LIMIT_SCALE;
const allowed = (rule: RateRuleName) => Math.max(1, Math.floor(RATE_RULES[rule].limit * scale));

/** A 429 of `rule`: the documented error body, Retry-After within the window, and the state as /v1 sends it. */
async function expectLimited(response: Response, rule: RateRuleName) {
  const headers = response.headers;
  await expectError(response, 429, "rate_limited");
  const retryAfter = Number(headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(RATE_RULES[rule].windowMs / 1000);
  expect(headers.get("RateLimit-Limit")).toBe(String(allowed(rule)));
  expect(headers.get("RateLimit-Remaining")).toBe("0");
  expect(headers.get("RateLimit-Reset")).toBe(headers.get("Retry-After"));
}

/** Spends `rule`'s whole window with `send`; each answer is `status` and carries the state, counting down. */
async function spend(rule: RateRuleName, status: number, send: () => Promise<Response>) {
  for (let i = 0; i < allowed(rule); i++) {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get("RateLimit-Limit")).toBe(String(allowed(rule)));
    expect(response.headers.get("RateLimit-Remaining")).toBe(String(allowed(rule) - i - 1));
    await response.arrayBuffer();
  }
}

async function frozenUser(): Promise<TestUser> {
  const user = await signupUser();
  vi.useFakeTimers({ toFake: ["Date"] });
  return user;
}

describe("per-account limits on the dashboard", () => {
  it("test events and delivery resends: one outbound bucket per account, on both surfaces; nothing is sent past it", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    vi.useFakeTimers({ toFake: ["Date"] });
    const path = `/${crypto.randomUUID()}`;
    const testEvent = () => call("/api/settings/webhook-test", { token: user.accessToken, body: { url: `${HOOKS}${path}` } });
    await spend("account:outbound", 200, testEvent);
    expect(received.filter((p) => p === path)).toHaveLength(allowed("account:outbound"));

    await expectLimited(await testEvent(), "account:outbound");
    await expectLimited(await call("/v1/webhooks/test", { token: key.plaintext, body: { url: `${HOOKS}${path}` } }), "account:outbound");
    const job = crypto.randomUUID();
    await expectLimited(
      await call(`/api/playground/research/${job}/deliveries/${job}/resend`, { method: "POST", token: user.accessToken }),
      "account:outbound",
    );
    await expectLimited(await call(`/v1/research/${job}/deliveries/${job}/resend`, { method: "POST", token: key.plaintext }), "account:outbound");
    expect(received.filter((p) => p === path)).toHaveLength(allowed("account:outbound"));

    // Another account's bucket is its own.
    const other = await signupUser();
    expect((await call("/api/settings/webhook-test", { token: other.accessToken, body: { url: `${HOOKS}${path}` } })).status).toBe(200);
  });

  it("playground submits: every attempt counts; past the limit nothing is reserved", async () => {
    const user = await frozenUser();
    const submit = (body: unknown) => call("/api/playground/research", { token: user.accessToken, body });
    await spend("account:research", 400, () => submit({}));
    await expectLimited(await submit({ question: "Why was the Tariff of 1828 called the Tariff of Abominations?", mode: "lite" }), "account:research");
    expect((await json(await call("/api/credits/balance", { token: user.accessToken }))).credits).toBe(500);
    expect(await dbAll("select id from research_jobs where user_id = ?", user.id)).toHaveLength(0);
  });

  it("playground quotes", async () => {
    const user = await frozenUser();
    const quote = () => call("/api/playground/research/quote", { token: user.accessToken, body: { question: "What did Lincoln say in 1862?", mode: "lite" } });
    await spend("account:quote", 200, quote);
    await expectLimited(await quote(), "account:quote");
  });

  it("support tickets: one email each, none past the limit", async () => {
    const user = await frozenUser();
    const ticket = () => call("/api/support", { token: user.accessToken, body: { category: "other", subject: "A question", body: "Details." } });
    await spend("account:email", 200, ticket);
    await expectLimited(await ticket(), "account:email");
    const confirmations = await dbAll("select id from outbox_emails where \"to\" = ? and subject like 'We received your request%'", user.email.toLowerCase());
    expect(confirmations).toHaveLength(allowed("account:email"));
    expect(await dbAll("select id from tickets where user_id = ?", user.id)).toHaveLength(allowed("account:email"));
  });

  it("checkouts and portal sessions share one bucket; past it the processor is not called", async () => {
    const user = await frozenUser();
    // No purchase yet: the portal is 400 without calling the processor, and still counts.
    await spend("account:payments", 400, () => call("/api/billing/portal", { method: "POST", token: user.accessToken }));
    await expectLimited(await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "handful" } }), "account:payments");
    expect(await dbAll("select id from payments where user_id = ?", user.id)).toHaveLength(0);
  });

  it("password changes: wrong guesses count, and past the limit even the right password is refused", async () => {
    const user = await frozenUser();
    const change = (current: string) =>
      call("/api/settings/password", { method: "PUT", token: user.accessToken, body: { current_password: current, new_password: "a brand new password" } });
    await spend("account:password", 401, () => change("a wrong guess"));
    await expectLimited(await change(user.password), "account:password");
    expect((await login(user.email, user.password)).status).toBe(200);
  });
});
