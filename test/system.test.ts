import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { call, expectError, json } from "./helpers";

describe("cross-cutting behaviour", () => {
  it("GET /healthz answers ok once the database is reachable", async () => {
    const response = await call("/healthz");
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ ok: true });
  });

  it("every response carries an X-Request-Id, and an incoming one is echoed", async () => {
    const fresh = await call("/healthz");
    expect(fresh.headers.get("X-Request-Id")).toMatch(/.{8,}/);
    const echoed = await call("/healthz", { headers: { "X-Request-Id": "trace-abc-123" } });
    expect(echoed.headers.get("X-Request-Id")).toBe("trace-abc-123");
  });

  it("unknown routes answer 404 not_found with the error body", async () => {
    await expectError(await call("/nope"), 404, "not_found");
    await expectError(await call("/api/unknown/thing", { method: "POST", body: {} }), 404, "not_found");
  });

  it("malformed JSON is 400 invalid_request", async () => {
    await expectError(
      await call("/api/auth/login", { method: "POST", rawBody: "{not json", headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_request",
    );
  });

  it("a wrong content type is 400 invalid_request", async () => {
    await expectError(
      await call("/api/auth/login", { method: "POST", rawBody: "email=a@b.c", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      400,
      "invalid_request",
    );
    await expectError(await call("/api/auth/login", { method: "POST", rawBody: "" }), 400, "invalid_request");
  });

  it("zod failures list their issues under details", async () => {
    const body = await expectError(await call("/api/auth/signup", { body: { email: "nope", password: 5 } }), 400, "invalid_request");
    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "email" })]));
  });

  it("unknown fields in a body are rejected", async () => {
    await expectError(await call("/api/auth/login", { body: { email: "a@example.com", password: "x", remember_me: true } }), 400, "invalid_request");
  });

  it("serves an OpenAPI 3.1 document at version 0.1.0 generated from the route schemas", async () => {
    const response = await call("/openapi.json");
    expect(response.status).toBe(200);
    const doc = await json(response);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/healthz", "/api/auth/signup", "/api/auth/login", "/api/keys", "/api/keys/{id}", "/v1/credits", "/api/credits/balance"]),
    );
    expect(doc.components.schemas.SignupBody.properties.password.minLength).toBe(8);
    expect(doc.components.securitySchemes).toHaveProperty("apiKey");
    expect(doc.components.securitySchemes).toHaveProperty("jwt");
  });

  it("GET /docs renders the reference page from this origin only: its script is ours, nothing reaches a third party", async () => {
    const response = await call("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain('"url":"/openapi.json?surface=public"');
    expect([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1])).toEqual(["/docs-assets/scalar.js"]);
    expect(html).not.toMatch(/https?:\/\//);
    // The options that would call out (fonts, telemetry, the AI agent) are off.
    expect(html).toContain('"withDefaultFonts":false');
    expect(html).toContain('"telemetry":false');
    expect(html).toContain('"agent":{"disabled":true}');
  });
});

describe("configuration", () => {
  it.each([
    [{ SEARCH_PROVIDER: "brave" }, "BRAVE_API_KEY is required when SEARCH_PROVIDER=brave"],
    [{ SEARCH_PROVIDER: "searxng" }, "SEARXNG_URL is required when SEARCH_PROVIDER=searxng"],
    [{ LLM_PROVIDER: "anthropic" }, "ANTHROPIC_API_KEY is required when LLM_PROVIDER=anthropic"],
  ])("a provider without its key answers 500 naming the variable, before any job is taken: %o", async (vars, message) => {
    const response = await worker.fetch(new Request("http://127.0.0.1/healthz"), { ...env, ...vars } as typeof env, createExecutionContext());
    const body = await expectError(response, 500, "internal");
    expect(body.error.message).toContain(message);
  });

  it.each([
    "replace-with-64-random-hex-characters-from-openssl-rand-hex-32", // .dev.vars.example
    "test-secret-that-is-at-least-32-characters-long", // this suite's
    "your-secret-goes-here-your-secret-goes-here",
    "0".repeat(64),
  ])("production refuses a placeholder JWT_SECRET that passes the length check: %s", async (secret) => {
    const production = { ...env, ENVIRONMENT: "production", JWT_SECRET: secret } as typeof env;
    const response = await worker.fetch(new Request("http://127.0.0.1/healthz"), production, createExecutionContext());
    const body = await expectError(response, 500, "internal");
    expect(body.error.message).toContain("JWT_SECRET is a placeholder");
    expect(body.error.message).not.toContain(secret);
  });

  it("the suite runs as local development: its bindings override wrangler.toml's production", () => {
    expect(env.ENVIRONMENT).toBe("development");
  });

  it("production accepts a random JWT_SECRET, and development keeps the placeholder working", async () => {
    const random = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const ok = (vars: Record<string, string>) =>
      worker.fetch(new Request("http://127.0.0.1/healthz"), { ...env, ...vars } as typeof env, createExecutionContext());
    expect((await ok({ ENVIRONMENT: "production", JWT_SECRET: random })).status).toBe(200);
    expect((await ok({ JWT_SECRET: "replace-with-64-random-hex-characters-from-openssl-rand-hex-32" })).status).toBe(200);
  });
});
