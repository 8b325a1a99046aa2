import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedServer, startServer } from "./server";

let server: StartedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown, token?: string) => server.post(path, body, token);

describe("npm start, over real HTTP", () => {
  it("says it generated a development JWT secret when there is no .dev.vars", () => {
    expect(server.output()).toContain("generated development secret");
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

  it("serves the OpenAPI document and the docs page", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { info: { version: string } };
    expect(doc.info.version).toBe("0.1.0");
    expect((await fetch(`${server.baseUrl}/docs`)).status).toBe(200);
  });

  it("publishes a document that is valid OpenAPI 3.1 (responses are checked against it by every workers test)", async () => {
    const validator = new Validator();
    const result = await validator.validate(await (await fetch(`${server.baseUrl}/openapi.json`)).json());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });
});
