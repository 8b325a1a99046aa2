import { describe, expect, it } from "vitest";
import { call, dbFirst, expectError, json, signupUser, type TestUser } from "../helpers";

/**
 * The dashboard's side of MCP's OAuth in the Workers runtime, through HTTP: the consent page's
 * getOAuthConsentRequest and completeOAuthConsentRequest, and the API keys page's
 * listOAuthConnections and revokeOAuthConnection. An agent registers and sends the browser to
 * /oauth/authorize (as an MCP client does); the signed-in account reads and answers the request
 * with its access token; the agent exchanges the code; the connection is listed and revoked, after
 * which its tokens are refused. A request is used up once answered (404 to anyone after), and a
 * connection is its account's: another account neither lists nor revokes it (404).
 */

const ORIGIN = "https://api.example.test"; // test/helpers.ts BASE: the issuer
const DASHBOARD = "https://dashboard.example.test"; // DASHBOARD_URL in vitest.config.ts
const REDIRECT_URI = "https://agent.example.test/oauth/callback";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "consent-test", version: "1" } },
};
const ACCEPT = { Accept: "application/json, text/event-stream" };

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

async function pkce() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** Dynamic client registration (RFC 7591), as an MCP client does it; its client_id. */
async function registerAgent(name: string): Promise<string> {
  const response = await call("/oauth/register", {
    body: {
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  });
  expect(response.status).toBe(201);
  return (await json(response)).client_id;
}

/** An agent that registered and sent the browser to /oauth/authorize: the consent request's id, and what the agent keeps. */
async function pendingRequest(name = "Consent test agent") {
  const clientId = await registerAgent(name);
  const { verifier, challenge } = await pkce();
  const state = base64url(crypto.getRandomValues(new Uint8Array(12)));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: "research",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${ORIGIN}/mcp`,
  });
  const authorize = await call(`/oauth/authorize?${query}`);
  expect(authorize.status).toBe(302);
  const consent = new URL(authorize.headers.get("Location")!);
  expect(`${consent.origin}${consent.pathname}`).toBe(`${DASHBOARD}/oauth/consent`);
  const requestId = consent.searchParams.get("request")!;
  expect(requestId).toMatch(/^[A-Za-z0-9]{32}$/);
  return { clientId, verifier, state, requestId, name };
}

/** The agent's code exchange at the token endpoint (PKCE, a public client). */
async function exchangeCode(clientId: string, code: string, verifier: string) {
  const response = await call("/oauth/token", {
    rawBody: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(response.status).toBe(200);
  const tokens = await json(response);
  expect(tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: expect.stringMatching(/^bearer$/i) });
  return tokens as { access_token: string; refresh_token: string };
}

function refreshTokens(clientId: string, refreshToken: string) {
  return call("/oauth/token", {
    rawBody: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
}

/** The HTTP status /mcp answers an initialize with this bearer token (the body is not read further). */
async function mcpStatus(token: string): Promise<number> {
  const response = await call("/mcp", { body: INITIALIZE, headers: ACCEPT, token });
  await response.body?.cancel();
  return response.status;
}

async function connections(user: TestUser): Promise<any[]> {
  const response = await call("/api/oauth/connections", { token: user.accessToken });
  expect(response.status).toBe(200);
  return (await json(response)).connections;
}

function approve(user: TestUser, requestId: string, creditCap: number) {
  return call(`/api/oauth/requests/${requestId}/complete`, { token: user.accessToken, body: { decision: "approve", credit_cap: creditCap } });
}

describe("OAuth consent and connections through the dashboard API", () => {
  it("reads the request, approves it, lists the new connection, revokes it, and its tokens are refused after", async () => {
    const owner = await signupUser();
    const agent = await pendingRequest("Research agent (consent test)");

    // The consent page reads what it shows: the signed-in account, the agent, where it goes, what it may do.
    const read = await call(`/api/oauth/requests/${agent.requestId}`, { token: owner.accessToken });
    expect(read.status).toBe(200);
    const details = await json(read);
    expect(details).toEqual({
      request: agent.requestId,
      account_email: owner.email,
      client_id: agent.clientId,
      client_name: agent.name,
      client_uri: null,
      redirect_uri: REDIRECT_URI,
      redirect_host: "agent.example.test",
      redirect_is_loopback: false,
      scope: ["research"],
      resource: `${ORIGIN}/mcp`,
      expires_at: expect.any(String),
    });
    const ttl = Date.parse(details.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(8 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    // No connection before the owner answers.
    expect(await connections(owner)).toEqual([]);

    // Approving without a cap is refused and leaves the request open.
    await expectError(
      await call(`/api/oauth/requests/${agent.requestId}/complete`, { token: owner.accessToken, body: { decision: "approve" } }),
      400,
      "invalid_request",
    );
    const approved = await approve(owner, agent.requestId, 250);
    expect(approved.status).toBe(200);
    const back = new URL((await json(approved)).redirect_to);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe(agent.state);
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    const code = back.searchParams.get("code")!;
    expect(code).toBeTruthy();

    // Answered, the request is gone: reading or answering it again is 404, and no second connection is made.
    await expectError(await call(`/api/oauth/requests/${agent.requestId}`, { token: owner.accessToken }), 404, "not_found");
    await expectError(await approve(owner, agent.requestId, 250), 404, "not_found");

    // The new connection is listed with the cap the owner gave and nothing spent.
    const listed = await connections(owner);
    expect(listed).toEqual([
      {
        id: expect.stringMatching(/^conn_[A-Za-z0-9]{24}$/),
        client_id: agent.clientId,
        client_name: agent.name,
        redirect_uri: REDIRECT_URI,
        scope: ["research"],
        credit_cap: 250,
        credits_spent: 0,
        credits_reserved: 0,
        credits_remaining: 250,
        created_at: expect.any(String),
        last_used_at: null,
        revoked_at: null,
      },
    ]);
    const connection = listed[0];

    // The agent's tokens work on /mcp, and its use shows on the connection.
    const tokens = await exchangeCode(agent.clientId, code, agent.verifier);
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    expect((await connections(owner))[0].last_used_at).toEqual(expect.any(String));

    // Revoked: answered as revoked, listed as revoked (still listed), and its tokens are refused at once.
    const revoked = await call(`/api/oauth/connections/${connection.id}`, { token: owner.accessToken, method: "DELETE" });
    expect(revoked.status).toBe(200);
    const revokedBody = await json(revoked);
    expect(revokedBody).toMatchObject({ id: connection.id, client_id: agent.clientId, credit_cap: 250, revoked_at: expect.any(String) });
    const after = await connections(owner);
    expect(after.map((c) => [c.id, c.revoked_at])).toEqual([[connection.id, revokedBody.revoked_at]]);
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    const refreshed = await refreshTokens(agent.clientId, tokens.refresh_token);
    expect(refreshed.status).toBe(400);
    expect(await json(refreshed)).toMatchObject({ error: "invalid_grant" });
    // Revoking again changes nothing.
    const again = await call(`/api/oauth/connections/${connection.id}`, { token: owner.accessToken, method: "DELETE" });
    expect(again.status).toBe(200);
    expect((await json(again)).revoked_at).toBe(revokedBody.revoked_at);
  });

  it("a denied request makes no connection and sends the agent access_denied", async () => {
    const owner = await signupUser();
    const agent = await pendingRequest();
    const denied = await call(`/api/oauth/requests/${agent.requestId}/complete`, { token: owner.accessToken, body: { decision: "deny" } });
    expect(denied.status).toBe(200);
    const back = new URL((await json(denied)).redirect_to);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(agent.state);
    expect(back.searchParams.get("code")).toBeNull();
    expect(await connections(owner)).toEqual([]);
    await expectError(await call(`/api/oauth/requests/${agent.requestId}`, { token: owner.accessToken }), 404, "not_found");
  });

  it("another account cannot read or answer a request once answered, nor see or revoke the connection; unknown ids are 404", async () => {
    const owner = await signupUser();
    const other = await signupUser();
    const agent = await pendingRequest();
    // Without a signed-in account the request is neither read nor answered (and stays open).
    await expectError(await call(`/api/oauth/requests/${agent.requestId}`), 401, "unauthorized");
    await expectError(await call(`/api/oauth/requests/${agent.requestId}/complete`, { body: { decision: "approve", credit_cap: 10 } }), 401, "unauthorized");
    expect((await approve(owner, agent.requestId, 100)).status).toBe(200);

    // The request is used up for everyone: the other account can neither read it nor approve it for itself.
    await expectError(await call(`/api/oauth/requests/${agent.requestId}`, { token: other.accessToken }), 404, "not_found");
    await expectError(await approve(other, agent.requestId, 100), 404, "not_found");
    expect(await connections(other)).toEqual([]);

    // The connection is the owner's: another account does not list it, and revoking it is 404, like an unknown id.
    const [connection] = await connections(owner);
    await expectError(await call(`/api/oauth/connections/${connection.id}`, { token: other.accessToken, method: "DELETE" }), 404, "not_found");
    await expectError(await call("/api/oauth/connections/conn_000000000000000000000000", { token: other.accessToken, method: "DELETE" }), 404, "not_found");
    expect(await connections(owner)).toEqual([connection]);
    expect(await dbFirst("SELECT revoked_at FROM oauth_connections WHERE id = ?", connection.id)).toEqual({ revoked_at: null });

    // Unknown or malformed ids: 404 for a well-formed request id nobody issued, 400 for what is not an id.
    await expectError(await call(`/api/oauth/requests/${"A".repeat(32)}`, { token: other.accessToken }), 404, "not_found");
    await expectError(await call("/api/oauth/requests/not-a-request", { token: other.accessToken }), 400, "invalid_request");
    await expectError(await call("/api/oauth/connections/not-a-connection", { token: other.accessToken, method: "DELETE" }), 400, "invalid_request");
    await expectError(await call("/api/oauth/connections", {}), 401, "unauthorized");
  });
});
