import { Validator } from "@seriousme/openapi-schema-validator";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

const server = serverClient(inject("server"));

const post = (path: string, body: unknown, token?: string) => server.post(path, body, token);

describe("npm start, over real HTTP", () => {
  it("says it generated a development JWT secret when there is no .dev.vars, and shows it on no command line", () => {
    expect(server.output()).toContain("generated development secret");
    const secret = readFileSync(join(server.stateDir, "dev-jwt-secret"), "utf8").trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const commandLines = readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8");
        } catch {
          return ""; // gone meanwhile
        }
      });
    // The scan sees wrangler's own command line (arguments are NUL-separated), so it is not vacuous.
    expect(commandLines.some((line) => line.includes("wrangler") && line.split("\0").includes(server.stateDir))).toBe(true);
    expect(commandLines.filter((line) => line.includes(secret))).toEqual([]);
    expect(server.output()).not.toContain(secret);
  });

  it("signs up, creates an API key and reads /v1/credits", async () => {
    const signup = await post("/api/auth/signup", { email: `e2e-${Date.now()}@example.com`, password: "e2e password 1" });
    expect(signup.status).toBe(200);
    expect(signup.headers.get("X-Request-Id")).toBeTruthy();
    const session = (await signup.json()) as { access_token: string; user: { email_verified: boolean } };
    expect(session.user.email_verified).toBe(false);

    const me = await fetch(`${server.baseUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${session.access_token}` } });
    expect(me.status).toBe(200);

    const created = await post("/api/keys", { name: "e2e" }, session.access_token);
    expect(created.status).toBe(200);
    const key = (await created.json()) as { plaintext: string };
    expect(key.plaintext).toMatch(/^dr_live_/);

    const credits = await fetch(`${server.baseUrl}/v1/credits`, { headers: { Authorization: `Bearer ${key.plaintext}` } });
    expect(credits.status).toBe(200);
    expect(await credits.json()).toEqual({ credits: 500, usd: "5.00" });

    const noKey = await fetch(`${server.baseUrl}/v1/credits`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("runs as local development (wrangler.toml says production): wrangler dev is given ENVIRONMENT development, and a loopback http webhook passes", async () => {
    const wranglerLines = readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        } catch {
          return [];
        }
      })
      .filter((args) => args.some((arg) => arg.includes("wrangler")) && args.includes(server.stateDir) && args.includes("dev"));
    expect(wranglerLines.some((args) => args.join(" ").includes("--var ENVIRONMENT:development"))).toBe(true);
    // Only development accepts http to a loopback host: the request gets past that check and fails
    // on its (impossible) budget instead, before anything is written.
    const { key: plaintext } = await newAccount(server, "e2e-env");
    const response = await post(
      "/v1/research",
      { question: "Anything?", mode: "lite", max_wallclock_secs: 0, webhook_url: "http://127.0.0.1:9/hook" },
      plaintext,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("impossible_budget");
  });

  it("serves the OpenAPI document and the docs page", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { info: { version: string } };
    expect(doc.info.version).toBe("0.1.0");
    expect((await fetch(`${server.baseUrl}/docs`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/docs/dashboard`)).status).toBe(200);
  });

  it("publishes a document that is valid OpenAPI 3.1 (responses are checked against it by every workers test), and so is each reference page's part", async () => {
    for (const query of ["", "?surface=public", "?surface=dashboard"]) {
      const validator = new Validator();
      const result = await validator.validate(await (await fetch(`${server.baseUrl}/openapi.json${query}`)).json());
      expect(result.errors ?? [], query).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
    }
  });
});
