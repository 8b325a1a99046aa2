import { createHash, randomBytes } from "node:crypto";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

/**
 * MCP with OAuth (issue 44, item 2) over real HTTP against `npm start`: an agent built on the
 * official MCP SDK's client discovers the authorization server from /mcp's 401, registers itself,
 * sends the customer to consent (done here through the dashboard API with the customer's access
 * token, as the consent page does), exchanges the code with PKCE and runs research; a revoked
 * connection is refused at once; a connection's credit cap holds; what was not consented is refused.
 */

const server = serverClient(inject("server"));
const QUESTION = "How did presidents describe tariffs in the 19th century?";
const LITE_PRICE = 15;
const REDIRECT_URL = "http://127.0.0.1:45123/callback";
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
});

type Account = Awaited<ReturnType<typeof newAccount>>;
const customer = () => newAccount(server, "mcp-oauth-e2e");

/** An agent's OAuthClientProvider kept in memory: what it registered, its PKCE verifier, its tokens, where it was sent to authorize. */
class AgentAuth implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  savedTokens?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;

  get redirectUrl() {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "E2E research agent",
      redirect_uris: [REDIRECT_URL],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}

const mcpUrl = () => new URL(`${server.baseUrl}/mcp`);

async function api(path: string, account: Account, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(server.baseUrl + path, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${account.accessToken}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : null };
}

const credits = async (account: Account) =>
  ((await (await fetch(`${server.baseUrl}/v1/credits`, { headers: { Authorization: `Bearer ${account.key}` } })).json()) as { credits: number }).credits;

/** The browser at the authorization endpoint: it is sent on to the dashboard's consent page; the request's id. */
async function consentRequestId(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  const consent = new URL(response.headers.get("Location")!);
  expect(`${consent.origin}${consent.pathname}`).toBe(`${server.baseUrl}/oauth/consent`);
  return consent.searchParams.get("request")!;
}

/** The customer approves on the consent page (through its API route); the code the agent gets back. */
async function approve(account: Account, requestId: string, creditCap: number): Promise<string> {
  const completed = await api(`/api/oauth/requests/${requestId}/complete`, account, { method: "POST", body: { decision: "approve", credit_cap: creditCap } });
  expect(completed.status).toBe(200);
  const back = new URL(completed.body.redirect_to);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URL);
  expect(back.searchParams.get("iss")).toBe(server.baseUrl);
  return back.searchParams.get("code")!;
}

/**
 * The whole flow as an agent on the MCP SDK runs it: connect (401 with the challenge), discovery,
 * dynamic registration, PKCE, the customer's consent with `creditCap`, the code exchange, and a
 * connected client.
 */
async function connectAgent(account: Account, creditCap: number): Promise<{ client: Client; auth: AgentAuth }> {
  const auth = new AgentAuth();
  const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth });
  await expect(new Client({ name: "e2e-agent", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(auth.client?.client_id).toBeTruthy();
  expect(auth.authorizationUrl).toBeDefined();
  const code = await approve(account, await consentRequestId(auth.authorizationUrl!), creditCap);
  await first.finishAuth(code);
  expect(auth.savedTokens?.access_token).toBeTruthy();
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }));
  clients.push(client);
  return { client, auth };
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** A raw MCP initialize with a bearer token: the HTTP status /mcp answers it. */
async function initializeStatus(token: string): Promise<Response> {
  return fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

/** Dynamic registration by hand (RFC 7591), for the cases the SDK would never send. */
async function register(redirectUris = [REDIRECT_URL]): Promise<string> {
  const response = await fetch(`${server.baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Hand-made agent", redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(params: Record<string, string>): URL {
  const url = new URL(`${server.baseUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    state: "st4te",
    code_challenge_method: "S256",
    resource: `${server.baseUrl}/mcp`,
    ...params,
  })) {
    url.searchParams.set(name, value);
  }
  return url;
}

describe("MCP over OAuth", () => {
  it("serves the protected-resource and authorization-server metadata, and /mcp's 401 points at them", async () => {
    const challenge = await initializeStatus("not-a-token");
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="mcp", resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="research"`,
    );
    expect(await challenge.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });

    const resource = (await (await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${server.baseUrl}/mcp`, authorization_servers: [server.baseUrl], scopes_supported: ["research"] });

    const metadata = (await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      scopes_supported: ["research"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: expect.arrayContaining(["S256"]),
    });
  });

  it("connects an agent on the MCP SDK end to end and runs research within its connection, charged to the account", async () => {
    const account = await customer();
    const before = await credits(account);
    const { client } = await connectAgent(account, 100);

    const { tools } = await client.listTools();
    // The scope is research: the account's balance is not the agent's to read.
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "cancel_research",
      "deep_research",
      "get_research",
      "list_research",
      "plan_research",
      "quote_research",
      "start_research",
    ]);
    expect(client.getInstructions()).toMatch(/credit cap/);

    const result = await call(client, "deep_research", { question: QUESTION, mode: "lite" });
    expect(result.isError ?? false).toBe(false);
    const job = result.structuredContent as any;
    expect(job).toMatchObject({ status: "succeeded", question: QUESTION, credits_charged: LITE_PRICE });
    expect(textOf(result)).toContain(job.brief);
    expect(await credits(account)).toBe(before - LITE_PRICE);

    // Its jobs: the one it ran, not the account's others (an API-key job is not found).
    const listed = await call(client, "list_research");
    expect((listed.structuredContent as any).jobs.map((row: { id: string }) => row.id)).toEqual([job.id]);
    expect((await call(client, "get_research", { id: job.id })).structuredContent).toMatchObject({ id: job.id, status: "succeeded" });
    const keyJob = (await (await server.post("/v1/research", { question: QUESTION, mode: "lite" }, account.key)).json()) as { id: string };
    const other = await call(client, "get_research", { id: keyJob.id });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/^not_found: /);

    // The dashboard lists the connection with its cap and what it spent.
    const { body } = await api("/api/oauth/connections", account);
    expect(body.connections).toEqual([
      expect.objectContaining({
        client_name: "E2E research agent",
        redirect_uri: REDIRECT_URL,
        scope: ["research"],
        credit_cap: 100,
        credits_spent: LITE_PRICE,
        credits_reserved: 0,
        credits_remaining: 100 - LITE_PRICE,
        revoked_at: null,
      }),
    ]);
    // An API key on /mcp works as before, beside the connection.
    expect((await initializeStatus(account.key)).status).toBe(200);
  });

  it("refuses a revoked connection at once: its next MCP request is 401, and it cannot refresh", async () => {
    const account = await customer();
    const { client, auth } = await connectAgent(account, 100);
    expect((await call(client, "list_research")).isError ?? false).toBe(false);
    const [connection] = (await api("/api/oauth/connections", account)).body.connections;

    // Another account cannot see or revoke it.
    const stranger = await customer();
    expect((await api(`/api/oauth/connections/${connection.id}`, stranger, { method: "DELETE" })).status).toBe(404);
    expect((await api("/api/oauth/connections", stranger)).body.connections).toEqual([]);
    expect((await initializeStatus(auth.savedTokens!.access_token)).status).toBe(200);

    const revoked = await api(`/api/oauth/connections/${connection.id}`, account, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const refused = await initializeStatus(auth.savedTokens!.access_token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { code: "unauthorized", message: "Invalid, expired or revoked access token." } });
    const refresh = await fetch(`${server.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: auth.savedTokens!.refresh_token!, client_id: auth.client!.client_id }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
    // Listed as revoked on the dashboard.
    expect((await api("/api/oauth/connections", account)).body.connections[0].revoked_at).toBe(revoked.body.revoked_at);
  });

  it("holds a connection to its credit cap: a job past it is insufficient_credits, and nothing is charged", async () => {
    const account = await customer();
    const { client } = await connectAgent(account, LITE_PRICE + 5);
    const first = await call(client, "deep_research", { question: QUESTION, mode: "lite" });
    expect((first.structuredContent as any).credits_charged).toBe(LITE_PRICE);
    const balance = await credits(account);

    const second = await call(client, "deep_research", { question: QUESTION, mode: "lite" });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toBe(
      `insufficient_credits: This lite job needs ${LITE_PRICE} credits; this connection's credit cap (${LITE_PRICE + 5}) has 5 left. The account owner can connect the agent again with a higher cap.`,
    );
    const started = await call(client, "start_research", { question: QUESTION, mode: "lite" });
    expect(started.isError).toBe(true);
    expect(textOf(started)).toMatch(/^insufficient_credits: /);
    expect(await credits(account)).toBe(balance);
    expect(((await call(client, "list_research")).structuredContent as any).jobs).toHaveLength(1);
    // The account itself is not bounded by the connection: its API key still runs research.
    expect((await server.post("/v1/research", { question: QUESTION, mode: "lite" }, account.key)).status).toBe(200);
  });

  it("keeps a connection's idempotency keys its own: a repeat is the same job charged once, never a job the account started with an API key", async () => {
    const account = await customer();
    const { client } = await connectAgent(account, 100);
    // The account's own key used the same Idempotency-Key, with the same body, first.
    const byKey = await fetch(`${server.baseUrl}/v1/research`, {
      method: "POST",
      headers: { Authorization: `Bearer ${account.key}`, "Content-Type": "application/json", "Idempotency-Key": "agent-run-1" },
      body: JSON.stringify({ question: QUESTION, mode: "lite", async: true }),
    });
    expect(byKey.status).toBe(202);
    const keyJob = (await byKey.json()) as { id: string };
    const before = await credits(account);
    const args = { question: QUESTION, mode: "lite", idempotency_key: "agent-run-1" };
    const first = (await call(client, "start_research", args)).structuredContent as { id: string };
    expect(first.id).not.toBe(keyJob.id);
    const again = (await call(client, "start_research", args)).structuredContent as { id: string };
    expect(again.id).toBe(first.id);
    expect(await credits(account)).toBe(before - LITE_PRICE);
    // The key's job is not the connection's to read.
    expect(textOf(await call(client, "get_research", { id: keyJob.id }))).toMatch(/^not_found: /);
    const { body } = await api("/api/oauth/connections", account);
    expect(body.connections[0].credits_spent + body.connections[0].credits_reserved).toBe(LITE_PRICE);
  });

  it("refuses what was not consented: another scope, an unregistered redirect URI, a wrong PKCE verifier, a denied request", async () => {
    const account = await customer();
    const clientId = await register();
    const { challenge } = pkce();

    // A scope beyond research: back to the agent with invalid_scope, nothing to consent to.
    const escalated = await fetch(authorizeUrl({ client_id: clientId, redirect_uri: REDIRECT_URL, code_challenge: challenge, scope: "research admin" }), {
      redirect: "manual",
    });
    expect(escalated.status).toBe(302);
    const scopeError = new URL(escalated.headers.get("Location")!);
    expect(`${scopeError.origin}${scopeError.pathname}`).toBe(REDIRECT_URL);
    expect(scopeError.searchParams.get("error")).toBe("invalid_scope");
    expect(scopeError.searchParams.get("state")).toBe("st4te");

    // A redirect URI the client did not register: never redirected to, refused here.
    const elsewhere = await fetch(
      authorizeUrl({ client_id: clientId, redirect_uri: "http://127.0.0.1:45124/steal", code_challenge: challenge, scope: "research" }),
      {
        redirect: "manual",
      },
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("Location")).toBeNull();
    expect(((await elsewhere.json()) as any).error.code).toBe("invalid_request");

    // Without PKCE: refused (a public client must send a code challenge).
    const noPkce = authorizeUrl({ client_id: clientId, redirect_uri: REDIRECT_URL, code_challenge: challenge, scope: "research" });
    noPkce.searchParams.delete("code_challenge_method");
    noPkce.searchParams.delete("code_challenge");
    const withoutChallenge = await fetch(noPkce, { redirect: "manual" });
    expect(withoutChallenge.status).toBe(302);
    expect(new URL(withoutChallenge.headers.get("Location")!).searchParams.get("error")).toBe("invalid_request");

    // The consent page's request, read by the signed-in customer only.
    const requestId = await consentRequestId(authorizeUrl({ client_id: clientId, redirect_uri: REDIRECT_URL, code_challenge: challenge, scope: "research" }));
    expect((await fetch(`${server.baseUrl}/api/oauth/requests/${requestId}`)).status).toBe(401);
    const details = await api(`/api/oauth/requests/${requestId}`, account);
    expect(details.body).toMatchObject({
      client_id: clientId,
      client_name: "Hand-made agent",
      redirect_uri: REDIRECT_URL,
      redirect_host: "127.0.0.1",
      redirect_is_loopback: true,
      scope: ["research"],
      resource: `${server.baseUrl}/mcp`,
    });
    expect(details.body.account_email).toMatch(/^mcp-oauth-e2e-/);
    // Approving needs a cap.
    expect((await api(`/api/oauth/requests/${requestId}/complete`, account, { method: "POST", body: { decision: "approve" } })).status).toBe(400);
    const code = await approve(account, requestId, 50);
    // Used once: the request is gone.
    expect((await api(`/api/oauth/requests/${requestId}`, account)).status).toBe(404);

    // PKCE: the code with another verifier than the challenge's is refused (the SDK flow above exchanges the right one).
    const exchange = (codeVerifier: string) =>
      fetch(`${server.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URL, client_id: clientId, code_verifier: codeVerifier }),
      });
    const wrong = await exchange(pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_grant");

    // A denied request goes back to the agent as access_denied, and adds no connection.
    const denied = await consentRequestId(authorizeUrl({ client_id: clientId, redirect_uri: REDIRECT_URL, code_challenge: challenge, scope: "research" }));
    const answer = await api(`/api/oauth/requests/${denied}/complete`, account, { method: "POST", body: { decision: "deny" } });
    expect(new URL(answer.body.redirect_to).searchParams.get("error")).toBe("access_denied");
    expect((await api("/api/oauth/connections", account)).body.connections).toHaveLength(1);
  });
});
