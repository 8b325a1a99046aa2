import { describe, expect, it } from "vitest";
import { call, createKey, signupUser } from "./helpers";

/**
 * Issue 39, item 9b: /mcp/ (a trailing slash, as some MCP clients send) is the MCP endpoint, and
 * no path under an API prefix answers anything but JSON: an unknown one is the documented 404
 * body. (That such paths reach the Worker at all, not the dashboard's single-page fallback, is
 * wrangler.toml's run_worker_first: test/repo/worker-first.test.ts.)
 */
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "slash", version: "1" } },
};
const ACCEPT = { Accept: "application/json, text/event-stream" };

async function account() {
  const user = await signupUser();
  return { user, key: (await createKey(user)).plaintext };
}

describe("API prefixes", () => {
  it("serves MCP at /mcp/ as at /mcp: initialize, then a tool list", async () => {
    const { key } = await account();
    const response = await call("/mcp/", { body: INITIALIZE, headers: ACCEPT, token: key });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    const initialized = JSON.parse(/^data: (.*)$/m.exec(await response.text())![1]!);
    expect(initialized).toMatchObject({ jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "deep-research" } } });

    const listed = await call("/mcp/", {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { ...ACCEPT, "MCP-Protocol-Version": "2025-11-25" },
      token: key,
    });
    expect(listed.status).toBe(200);
    const tools = JSON.parse(/^data: (.*)$/m.exec(await listed.text())![1]!);
    expect(tools.result.tools.map((tool: { name: string }) => tool.name)).toContain("deep_research");
  });

  it("authenticates /mcp/ once, like /mcp: 401 with the challenge, 405 for GET", async () => {
    const unauthorized = await call("/mcp/", { body: INITIALIZE, headers: ACCEPT });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("WWW-Authenticate")).toBe(
      'Bearer realm="mcp", resource_metadata="https://api.example.test/.well-known/oauth-protected-resource/mcp", scope="research"',
    );
    expect(await unauthorized.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    const { key } = await account();
    const get = await call("/mcp/", { method: "GET", token: key, headers: { Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
  });

  it("answers an unknown path under /v1, /api and /mcp with the JSON 404 body, never HTML", async () => {
    const { user, key } = await account();
    const cases: [string, string][] = [
      ["/v1", key],
      ["/v1/", key],
      ["/v1/nope", key],
      ["/v1/research/extra/deep/path", key],
      ["/mcp/nope", key],
      ["/mcp/tools/list", key],
      ["/api", user.accessToken],
      ["/api/", user.accessToken],
      ["/api/nope", user.accessToken],
      ["/api/keys/extra/deep", user.accessToken],
    ];
    for (const [path, token] of cases) {
      const response = await call(path, { token });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Content-Type"), path).toContain("application/json");
      expect(await response.json(), path).toEqual({ error: { code: "not_found", message: expect.stringContaining(path) } });
    }
  });

  it("answers JSON, not HTML, under an API prefix without credentials too", async () => {
    for (const path of ["/v1/nope", "/mcp/nope", "/api/nope", "/mcp/"]) {
      const response = await call(path);
      expect(response.headers.get("Content-Type"), path).toContain("application/json");
      expect(await response.text(), path).not.toMatch(/<html|<!doctype/i);
    }
  });
});
