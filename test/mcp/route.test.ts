import { describe, expect, it } from "vitest";
import { call, createKey, json, signupUser, suspendUser } from "../helpers";

/** POST /mcp's HTTP behaviour: the API-key middleware in front, then the MCP transport. */

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const ACCEPT = { Accept: "application/json, text/event-stream" };

async function keyOfNewUser() {
  const user = await signupUser();
  return { user, key: (await createKey(user)).plaintext };
}

describe("/mcp", () => {
  it("is 401 with the API's error body and a Bearer challenge without a key or with a bad one", async () => {
    for (const token of [undefined, "dr_live_unknown"]) {
      const response = await call("/mcp", { body: INITIALIZE, headers: ACCEPT, token });
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toBe(
        'Bearer realm="mcp", resource_metadata="https://api.example.test/.well-known/oauth-protected-resource/mcp", scope="research"',
      );
      expect(await json(response)).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    }
  });

  it("is 403 account_suspended for a suspended account's key, like /v1", async () => {
    const { user, key } = await keyOfNewUser();
    await suspendUser(user.id);
    const response = await call("/mcp", { body: INITIALIZE, headers: ACCEPT, token: key });
    expect(response.status).toBe(403);
    expect(await json(response)).toEqual({ error: { code: "account_suspended", message: "This account is suspended." } });
  });

  it("answers GET and DELETE with 405 and Allow: POST (no server stream, no session to end)", async () => {
    const { key } = await keyOfNewUser();
    for (const method of ["GET", "DELETE"]) {
      const response = await call("/mcp", { method, token: key, headers: { Accept: "text/event-stream" } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("POST");
      expect(await json(response)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    }
  });

  it("initializes over an SSE response with a fresh Mcp-Session-Id, and takes a notification with 202", async () => {
    const { key } = await keyOfNewUser();
    const response = await call("/mcp", { body: INITIALIZE, headers: ACCEPT, token: key });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/event-stream");
    expect(response.headers.get("X-Request-Id")).toBeTruthy();
    expect(response.headers.get("Content-Encoding")).toBe("identity");
    const session = response.headers.get("Mcp-Session-Id");
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const text = await response.text();
    const message = JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", serverInfo: { name: "deep-research" } } });

    const again = await call("/mcp", { body: INITIALIZE, headers: ACCEPT, token: key });
    expect(again.headers.get("Mcp-Session-Id")).not.toBe(session);
    await again.body?.cancel();

    const notified = await call("/mcp", {
      body: { jsonrpc: "2.0", method: "notifications/initialized" },
      headers: { ...ACCEPT, "Mcp-Session-Id": session!, "MCP-Protocol-Version": "2025-11-25" },
      token: key,
    });
    expect(notified.status).toBe(202);
    expect(notified.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("leaves protocol mistakes to the MCP transport's JSON-RPC errors", async () => {
    const { key } = await keyOfNewUser();
    const noAccept = await call("/mcp", { body: INITIALIZE, token: key, headers: { Accept: "application/json" } });
    expect(noAccept.status).toBe(406);
    const notJson = await call("/mcp", { rawBody: "{nope", token: key, headers: { ...ACCEPT, "Content-Type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });
});
