import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/env";
import worker from "../src/index";
import { RateLimiter } from "../src/rate-limit/counter-object";
import { LeasedHits, leaseSize } from "../src/rate-limit/leased-hits";
import { RATE_RULES, type RateRuleName } from "../src/rate-limit/rules";
import { BASE, call, createKey, expectError, json, login, randomIp, signupUser, uniqueEmail } from "./helpers";

const scale = loadConfig(env).RATE_LIMIT_SCALE;

/** Requests a rule allows per window, as the service computes it. */
function allowed(rule: RateRuleName): number {
  return Math.max(1, Math.floor(RATE_RULES[rule].limit * scale));
}

async function expectRateLimited(response: Response, rule: RateRuleName) {
  const retryAfter = response.headers.get("Retry-After");
  await expectError(response, 429, "rate_limited");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(RATE_RULES[rule].windowMs / 1000);
}

describe("rate limits", () => {
  it("locks a client out of an account after failed logins, but the right password from another client still signs in", async () => {
    const user = await signupUser();
    const attacker = randomIp();
    for (let i = 0; i < allowed("login:ip-email"); i++) {
      await expectError(await login(user.email, `wrong password ${i}`, attacker), 401, "invalid_credentials");
    }
    // That client is refused even with the right password (and for another spelling of the email)...
    await expectRateLimited(await login(user.email, user.password, attacker), "login:ip-email");
    await expectRateLimited(await login(`  ${user.email.toUpperCase()}`, user.password, attacker), "login:ip-email");
    // ...while the owner, from their own client, is not locked out.
    expect((await login(user.email, user.password, randomIp())).status).toBe(200);
  });

  it("forgets a client's failed logins once it signs in", async () => {
    const user = await signupUser();
    const ip = randomIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 1; i < allowed("login:ip-email"); i++) {
        await expectError(await login(user.email, `typo ${i}`, ip), 401, "invalid_credentials");
      }
      expect((await login(user.email, user.password, ip)).status).toBe(200);
    }
  });

  it("limits failed logins per account across clients, more slowly, and successes do not count", async () => {
    const user = await signupUser();
    for (let i = 0; i < allowed("login:email"); i++) {
      if (i % 10 === 0) expect((await login(user.email, user.password)).status).toBe(200); // forgiven, not counted
      await expectError(await login(user.email, `distributed guess ${i}`), 401, "invalid_credentials");
    }
    await expectRateLimited(await login(user.email, user.password), "login:email");
    const other = await signupUser();
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it("limits login attempts per client IP, whatever the email", async () => {
    const ip = randomIp();
    for (let i = 0; i < allowed("login:ip"); i++) {
      await expectError(await login(uniqueEmail("spray"), "some password", ip), 401, "invalid_credentials");
    }
    const user = await signupUser();
    await expectRateLimited(await login(user.email, user.password, ip), "login:ip");
    expect((await login(user.email, user.password, randomIp())).status).toBe(200);
  });

  it("limits signups per client IP", async () => {
    const ip = randomIp();
    for (let i = 0; i < allowed("signup:ip"); i++) {
      const response = await call("/api/auth/signup", { body: { email: uniqueEmail("bulk"), password: "correct horse battery" }, ip });
      expect(response.status).toBe(200);
    }
    const email = uniqueEmail("late");
    await expectRateLimited(await call("/api/auth/signup", { body: { email, password: "correct horse battery" }, ip }), "signup:ip");
    expect((await call("/api/auth/signup", { body: { email, password: "correct horse battery" } })).status).toBe(200);
  });

  it("limits signup attempts per email", async () => {
    const user = await signupUser();
    for (let i = 1; i < allowed("signup:email"); i++) {
      await expectError(await call("/api/auth/signup", { body: { email: user.email, password: "correct horse battery" } }), 409, "email_taken");
    }
    await expectRateLimited(await call("/api/auth/signup", { body: { email: user.email, password: "correct horse battery" } }), "signup:email");
  });

  it("limits forgot-password requests per email", async () => {
    const user = await signupUser();
    for (let i = 0; i < allowed("forgot:email"); i++) {
      expect((await call("/api/auth/forgot-password", { body: { email: user.email } })).status).toBe(200);
    }
    await expectRateLimited(await call("/api/auth/forgot-password", { body: { email: user.email } }), "forgot:email");
  });

  it("limits forgot-password requests per client IP", async () => {
    const ip = randomIp();
    for (let i = 0; i < allowed("forgot:ip"); i++) {
      expect((await call("/api/auth/forgot-password", { body: { email: uniqueEmail("ghost") }, ip })).status).toBe(200);
    }
    await expectRateLimited(await call("/api/auth/forgot-password", { body: { email: uniqueEmail("ghost") }, ip }), "forgot:ip");
  });

  it("limits reset-password attempts per client IP", async () => {
    const ip = randomIp();
    for (let i = 0; i < allowed("reset:ip"); i++) {
      const response = await call("/api/auth/reset-password", { body: { token: `guess-${i}`, password: "a new password" }, ip });
      await expectError(response, 400, "invalid_request");
    }
    await expectRateLimited(await call("/api/auth/reset-password", { body: { token: "guess-x", password: "a new password" }, ip }), "reset:ip");
  });

  it("limits reset-password attempts per token, whatever the client IP", async () => {
    const token = `guess-${crypto.randomUUID()}`;
    for (let i = 0; i < allowed("reset:token"); i++) {
      await expectError(await call("/api/auth/reset-password", { body: { token, password: "a new password" } }), 400, "invalid_request");
    }
    await expectRateLimited(await call("/api/auth/reset-password", { body: { token, password: "a new password" } }), "reset:token");
  });

  it("throttles invalid API keys per client IP, and never a valid key from the same address", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const ip = randomIp();
    const credits = (token: string, from = ip) => call("/v1/credits", { token, ip: from });
    for (let i = 0; i < allowed("v1:invalid-key:ip"); i++) {
      await expectError(await credits(`dr_live_${"0".repeat(31)}${i % 10}`), 401, "unauthorized");
    }
    const refused = await credits(`dr_live_${"1".repeat(32)}`);
    await expectRateLimited(refused.clone(), "v1:invalid-key:ip");
    expect((await json(refused)).error.message).toMatch(/invalid API key/);
    expect((await credits(key.plaintext)).status).toBe(200);
    await expectError(await credits(`dr_live_${"2".repeat(32)}`, randomIp()), 401, "unauthorized");
  });

  it("a busy API key costs the rate limiter one call per leased block of requests, not one per request", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    let limiterCalls = 0;
    const { hit, take } = RateLimiter.prototype;
    RateLimiter.prototype.hit = function (this: RateLimiter, ...args) {
      limiterCalls += 1;
      return hit.apply(this, args);
    };
    RateLimiter.prototype.take = function (this: RateLimiter, ...args) {
      limiterCalls += 1;
      return take.apply(this, args);
    };
    try {
      const requests = 2 * leaseSize(allowed("v1:key"));
      for (let i = 0; i < requests; i++) expect((await call("/v1/credits", { token: key.plaintext })).status).toBe(200);
      expect(limiterCalls).toBe(2);
    } finally {
      Object.assign(RateLimiter.prototype, { hit, take });
    }
  });

  it("every answer to a valid key carries its limit's state, counting down (RateLimit-Limit, -Remaining, -Reset)", async () => {
    const key = await createKey(await signupUser());
    const states = [];
    for (let i = 0; i < 3; i++) {
      const response = await call("/v1/credits", { token: key.plaintext });
      expect(response.status).toBe(200);
      states.push(["Limit", "Remaining", "Reset"].map((field) => Number(response.headers.get(`RateLimit-${field}`))));
    }
    const limit = allowed("v1:key");
    expect(states.map(([l]) => l)).toEqual([limit, limit, limit]);
    expect(states.map(([, remaining]) => remaining)).toEqual([limit - 1, limit - 2, limit - 3]);
    expect(states.every(([, , reset]) => reset! >= 1 && reset! <= 60)).toBe(true);
  });

  it("a refused hit carries the state too: nothing remaining, and when it resets", async () => {
    const ip = randomIp();
    for (let i = 0; i < allowed("v1:invalid-key:ip"); i++) await call("/v1/credits", { token: `dr_live_${"3".repeat(32)}`, ip });
    const refused = await call("/v1/credits", { token: `dr_live_${"3".repeat(32)}`, ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("RateLimit-Limit")).toBe(String(allowed("v1:invalid-key:ip")));
    expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
    expect(refused.headers.get("RateLimit-Reset")).toBe(refused.headers.get("Retry-After"));
  });

  it("does not trust a client-sent CF-Connecting-IP unless the platform sets it (local emulation)", async () => {
    const emulated = { ...env, TRUST_CF_CONNECTING_IP: "false" } as typeof env;
    const forgot = (ip: string) =>
      worker.fetch(
        new Request(`${BASE}/api/auth/forgot-password`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
          body: JSON.stringify({ email: uniqueEmail("ghost") }),
        }),
        emulated,
        createExecutionContext(),
      );
    for (let i = 0; i < allowed("forgot:ip"); i++) expect((await forgot(randomIp())).status).toBe(200);
    await expectRateLimited(await forgot(randomIp()), "forgot:ip"); // rotating the header gains nothing
    expect((await call("/api/auth/forgot-password", { body: { email: uniqueEmail("ghost") } })).status).toBe(200); // trusted: its own bucket
  });

  it("exposes Retry-After, the RateLimit state and Link to the dashboard through CORS", async () => {
    const response = await call("/api/auth/login", {
      body: { email: uniqueEmail(), password: "whatever1" },
      headers: { Origin: "https://dashboard.example.test" },
    });
    const exposed = response.headers.get("Access-Control-Expose-Headers")!;
    for (const header of ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Link"]) expect(exposed).toContain(header);
  });
});

describe("leased hits", () => {
  /** A counter object's fixed window, in memory: what several isolates share. */
  function sharedCounter(clock: () => number) {
    let windowStart = -Infinity;
    let count = 0;
    const calls = { count: 0 };
    const stub = {
      async giveBack(hits: number, windowEndsAt: number) {
        if (windowEndsAt === windowStart + 60_000) count = Math.max(0, count - hits);
      },
      async take(want: number, limit: number, windowMs: number) {
        calls.count += 1;
        if (clock() - windowStart >= windowMs) [windowStart, count] = [clock(), 0];
        const granted = Math.max(0, Math.min(want, limit - count));
        count += Math.max(granted, 1);
        return {
          granted,
          retryAfterSecs: Math.max(1, Math.ceil((windowStart + windowMs - clock()) / 1000)),
          windowEndsAt: windowStart + windowMs,
          remaining: Math.max(0, limit - count),
        };
      },
    };
    return { calls, counter: async () => stub as unknown as DurableObjectStub<RateLimiter> };
  }

  it("never lets more than the limit through across isolates, and a refusal says when to retry", async () => {
    let now = 1_000_000;
    const { calls, counter } = sharedCounter(() => now);
    const isolates = [new LeasedHits(100, () => now), new LeasedHits(100, () => now), new LeasedHits(100, () => now)];
    let allowedHits = 0;
    const refusals: number[] = [];
    for (let i = 0; i < 200; i++) {
      const decision = await isolates[i % 3]!.hit("v1:key:k", 100, 60_000, counter);
      if (decision.allowed) allowedHits += 1;
      else refusals.push(decision.retryAfterSecs);
    }
    expect(allowedHits).toBeLessThanOrEqual(100);
    expect(allowedHits).toBeGreaterThanOrEqual(100 - 2 * leaseSize(100)); // at most a block unspent per other isolate
    expect(refusals.every((secs) => secs >= 1 && secs <= 60)).toBe(true);
    expect(refusals.length).toBeGreaterThan(0);
    expect(calls.count).toBeLessThan(200);
    now += 60_000; // the next window: every isolate's lease has lapsed
    expect((await isolates[0]!.hit("v1:key:k", 100, 60_000, counter)).allowed).toBe(true);
  });

  it("one isolate counts the remaining hits exactly, across the leases it takes", async () => {
    const { counter } = sharedCounter(() => 0);
    const leases = new LeasedHits(100, () => 0);
    const remaining: number[] = [];
    for (let i = 0; i < 3 * leaseSize(100); i++) remaining.push((await leases.hit("k", 100, 60_000, counter)).remaining);
    expect(remaining).toEqual(remaining.map((_, i) => 100 - i - 1));
  });

  it("keeps a bounded number of subjects, and gives back the unspent hits of a lease it lets go", async () => {
    const counters = new Map(["a", "b", "c"].map((subject) => [subject, sharedCounter(() => 0)]));
    const leases = new LeasedHits(2, () => 0);
    const given: Promise<unknown>[] = [];
    for (const [subject, { counter }] of counters) await leases.hit(subject, 100, 60_000, counter, (work) => given.push(work));
    expect((leases as unknown as { leases: Map<string, unknown> }).leases.size).toBe(2);
    await Promise.all(given);
    // "a" was let go with leaseSize - 1 hits unspent: its counter has them back, all but the one spent.
    const { counter: a } = counters.get("a")!;
    expect((await (await a()).take(100, 100, 60_000)).granted).toBe(99);
  });

  it("concurrent misses in one isolate share one lease request: every hit granted is spent, none lost", async () => {
    const { calls, counter } = sharedCounter(() => 0);
    const leases = new LeasedHits(100, () => 0);
    const decisions = await Promise.all(Array.from({ length: 150 }, () => leases.hit("k", 100, 60_000, counter)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(100);
    // One counter call per block, and one for the refusal the waiters share.
    expect(calls.count).toBe(100 / leaseSize(100) + 1);
  });
});
