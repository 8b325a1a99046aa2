import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { API_TYPES_PATH, apiTypesFrom } from "../../scripts/lib/web-client";
import { serverClient } from "./server";

const server = serverClient(inject("server"));

describe("the dashboard, served by npm start", () => {
  it("serves the app at / and for its client-side routes, while the API keeps its JSON 404s", async () => {
    const home = await fetch(`${server.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(await home.text()).toContain('<div id="root"></div>');
    // A page of the app (client-side route) is the same app, not a 404.
    const page = await fetch(`${server.baseUrl}/keys`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"></div>');
    // The API is the Worker's, first: unknown API paths are JSON 404s, /openapi.json and /healthz answer.
    const unknown = await fetch(`${server.baseUrl}/api/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${server.baseUrl}/v1/no-such-thing`)).status).toBe(401);
    // An MCP client probing for OAuth metadata after a 401 must not get the app's HTML.
    const probe = await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    expect(probe.status).toBe(404);
    expect(probe.headers.get("Content-Type")).toMatch(/application\/json/);
    // The API reference's renderer is one of the app's static files.
    const renderer = await fetch(`${server.baseUrl}/docs-assets/scalar.js`);
    expect(renderer.status).toBe(200);
    expect(renderer.headers.get("Content-Type")).toMatch(/javascript/);
    await renderer.body?.cancel();
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect(((await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("its typed API client never drifts from /openapi.json (regenerate with npm run web:client)", async () => {
    const generated = await apiTypesFrom(`${server.baseUrl}/openapi.json`);
    expect(generated === readFileSync(API_TYPES_PATH, "utf8"), "web/src/api/schema.d.ts is stale: run npm run web:client").toBe(true);
  });
});
