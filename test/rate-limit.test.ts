import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/env";
import { RATE_RULES, type RateRuleName } from "../src/services/rate-limiter";
import { call, expectError, login, randomIp, signupUser, uniqueEmail } from "./helpers";

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
  it("limits login attempts per email, whatever the client IP (and then even the right password is refused)", async () => {
    const user = await signupUser();
    for (let i = 0; i < allowed("login:email"); i++) {
      await expectError(await login(user.email, `wrong password ${i}`), 401, "invalid_credentials");
    }
    await expectRateLimited(await login(user.email, user.password), "login:email");
    // Another spelling of the same email shares the bucket.
    await expectRateLimited(await login(`  ${user.email.toUpperCase()}`, user.password), "login:email");
    // Other accounts are unaffected.
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

  it("exposes Retry-After to the dashboard through CORS", async () => {
    const response = await call("/api/auth/login", {
      body: { email: uniqueEmail(), password: "whatever1" },
      headers: { Origin: "https://dashboard.example.test" },
    });
    expect(response.headers.get("Access-Control-Expose-Headers")).toContain("Retry-After");
  });
});
