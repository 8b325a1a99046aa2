import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse } from "../../http/openapi";
import { ApiError } from "../../lib/errors";
import { type Connection, findConnection, listConnections, markRevoked } from "../../services/oauth/connections";
import { completeAuthorization, describeAuthorization, MAX_CREDIT_CAP, revokeGrant } from "../../services/oauth/consent";

/**
 * The dashboard's side of MCP's OAuth (access token, like every /api route): the consent page
 * reads a pending authorization and approves or denies it; the API keys page lists the connected
 * agents and revokes them. Owner-scoped: another account's connection is 404.
 */

const tags = ["API keys"];
export const oauthApiRoutes = createRouter();

const RequestParam = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9]{32}$/, { error: "id must be the request id from the consent page's address" })
    .openapi({
      param: { name: "id", in: "path" },
      description: "The authorization request's id (`request` in the consent page's address).",
      example: "Jq4mZ8wR2tYb6nVc1xKd9sLf3hGa7pEu",
    }),
});

const ConnectionParam = z.object({
  id: z
    .string()
    .regex(/^conn_[A-Za-z0-9]{24}$/, { error: "id must be a connection id (conn_...)" })
    .openapi({ param: { name: "id", in: "path" }, description: "The connection's id.", example: "conn_Vb3Nq8Lr5Tx2Wk7Hd4Mc9Jz6" }),
});

const ConsentDetailsDto = z
  .object({
    request: z.string().openapi({ description: "The authorization request's id." }),
    account_email: z.string().openapi({ description: "The signed-in account the agent would act for." }),
    client_id: z.string().openapi({ description: "The agent's OAuth client id (from its dynamic registration)." }),
    client_name: z.string().openapi({ description: "The agent's name as it registered itself (not verified)." }),
    client_uri: z.string().nullable().openapi({ description: "The agent's home page, as it registered it." }),
    redirect_uri: z.string().openapi({ description: "Where the authorization is sent: the agent's registered redirect URI." }),
    redirect_host: z.string().openapi({ description: "The redirect URI's host, which the page shows." }),
    redirect_is_loopback: z.boolean().openapi({ description: "The redirect goes to a program on this computer (localhost)." }),
    scope: z.array(z.string()).openapi({ description: "What the agent may do: `research` (run research and read the jobs it started)." }),
    resource: z.string().openapi({ description: "The MCP endpoint the access is for." }),
    expires_at: z.string().openapi({ description: "When this request expires (ten minutes after the agent asked)." }),
  })
  .openapi("OAuthConsentRequest", { description: "An agent's pending authorization request, as the consent page shows it." });

const CompleteBody = z
  .object({
    decision: z.enum(["approve", "deny"]).openapi({ description: "Approve: connect the agent; deny: tell it no." }),
    credit_cap: z
      .number()
      .int({ error: "credit_cap must be a whole number of credits" })
      .min(1, { error: "credit_cap must be at least 1" })
      .max(MAX_CREDIT_CAP, { error: `credit_cap must be at most ${MAX_CREDIT_CAP}` })
      .optional()
      .openapi({ description: "Required to approve: the most this connection's research may charge in all, in credits (1 credit = $0.01)." }),
  })
  .openapi("OAuthConsentDecision", { description: "The account owner's answer to an authorization request." });

const RedirectDto = z
  .object({
    redirect_to: z.string().openapi({ description: "Where to send the browser: back to the agent, with the code (approved) or `error=access_denied`." }),
  })
  .openapi("OAuthConsentRedirect", { description: "Where the consent page sends the browser once the request is answered." });

const ConnectionDto = z
  .object({
    id: z.string().openapi({ description: "The connection's id (revoke uses it)." }),
    client_id: z.string().openapi({ description: "The agent's OAuth client id." }),
    client_name: z.string().openapi({ description: "The agent's name as it registered itself." }),
    redirect_uri: z.string().openapi({ description: "Where the agent received its authorization." }),
    scope: z.array(z.string()).openapi({ description: "What it may do: `research` (run research, read the jobs it started)." }),
    credit_cap: z.number().int().openapi({ description: "The most the connection's research may charge in all." }),
    credits_spent: z.number().int().openapi({ description: "Charged by the jobs it started that finished." }),
    credits_reserved: z.number().int().openapi({ description: "Held by its jobs still running." }),
    credits_remaining: z.number().int().openapi({ description: "What it may still reserve: the cap less spent and reserved." }),
    created_at: z.string().openapi({ description: "When the account owner approved it (UTC)." }),
    last_used_at: z.string().nullable().openapi({ description: "When it last called /mcp (UTC, at most once a minute); null if never." }),
    revoked_at: z.string().nullable().openapi({ description: "When it was revoked; its tokens are refused since." }),
  })
  .openapi("OAuthConnection", { description: "An agent connected over OAuth (MCP), with its credit cap and what it spent." });

const connectionExample = {
  id: "conn_Vb3Nq8Lr5Tx2Wk7Hd4Mc9Jz6",
  client_id: "kD3sWq9LmZt2Xc7V",
  client_name: "Claude",
  redirect_uri: "https://claude.ai/api/mcp/auth_callback",
  scope: ["research"],
  credit_cap: 500,
  credits_spent: 60,
  credits_reserved: 0,
  credits_remaining: 440,
  created_at: "2026-11-28T02:55:00.000Z",
  last_used_at: "2026-11-28T03:10:00.000Z",
  revoked_at: null,
};

const consentExample = {
  request: "Jq4mZ8wR2tYb6nVc1xKd9sLf3hGa7pEu",
  account_email: "ada@example.com",
  client_id: "kD3sWq9LmZt2Xc7V",
  client_name: "Claude",
  client_uri: null,
  redirect_uri: "https://claude.ai/api/mcp/auth_callback",
  redirect_host: "claude.ai",
  redirect_is_loopback: false,
  scope: ["research"],
  resource: "https://research.example.com/mcp",
  expires_at: "2026-11-28T03:05:00.000Z",
};

function connectionDto(row: Connection): z.infer<typeof ConnectionDto> {
  return {
    id: row.id,
    client_id: row.clientId,
    client_name: row.clientName,
    redirect_uri: row.redirectUri,
    scope: row.scope.split(" ").filter(Boolean),
    credit_cap: row.creditCap,
    credits_spent: row.spent,
    credits_reserved: row.reserved,
    credits_remaining: Math.max(0, row.creditCap - row.spent - row.reserved),
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
  };
}

oauthApiRoutes.openapi(
  createRoute({
    method: "get",
    path: "/requests/{id}",
    operationId: "getOAuthConsentRequest",
    tags,
    summary: "Read an agent's authorization request",
    description:
      "What the consent page shows when an agent (an MCP client) asks to connect over OAuth: the account, the agent's name and redirect URI, and what it may do. A request lives ten minutes and is answered once; an expired or answered one is 404.",
    security: JWT_SECURITY,
    request: { params: RequestParam },
    responses: { 200: jsonResponse(ConsentDetailsDto, "The request", consentExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => c.json(await describeAuthorization(c.get("deps"), c.get("user"), c.req.valid("param").id), 200),
);

oauthApiRoutes.openapi(
  createRoute({
    method: "post",
    path: "/requests/{id}/complete",
    operationId: "completeOAuthConsentRequest",
    tags,
    summary: "Approve or deny an agent's authorization request",
    description:
      "Approve (with `credit_cap`, the most the connection's research may charge in all) or deny. Approving adds a connected agent that may run research and read the jobs it started, for this account, within the cap; the answer is where to send the browser, back to the agent. The request is used up either way.",
    security: JWT_SECURITY,
    request: { params: RequestParam, body: jsonBody(CompleteBody, { decision: "approve", credit_cap: 500 }) },
    responses: {
      200: jsonResponse(RedirectDto, "Where to send the browser", { redirect_to: "https://claude.ai/api/mcp/auth_callback?code=...&state=...&iss=..." }),
      ...errorResponses("invalid_request", "unauthorized", "not_found"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    if (body.decision === "approve" && body.credit_cap === undefined)
      throw ApiError.invalid("credit_cap is required to approve: the most this connection may charge, in credits.");
    const decision = body.decision === "approve" ? { approve: true as const, creditCap: body.credit_cap ?? 0 } : { approve: false as const };
    return c.json(await completeAuthorization(c.get("deps"), c.get("user"), c.req.valid("param").id, decision), 200);
  },
);

oauthApiRoutes.openapi(
  createRoute({
    method: "get",
    path: "/connections",
    operationId: "listOAuthConnections",
    tags,
    summary: "List your connected agents",
    description:
      "The agents connected to the account over OAuth (MCP), newest first, revoked ones included: each with its credit cap, what its jobs have been charged and hold, and when it was last used.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(
        z.object({ connections: z.array(ConnectionDto).openapi({ description: "The connections, newest first." }) }),
        "Connections, newest first",
        { connections: [connectionExample] },
      ),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => {
    const rows = await listConnections(c.get("deps").db, c.get("user").id);
    return c.json({ connections: rows.map(connectionDto) }, 200);
  },
);

oauthApiRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/connections/{id}",
    operationId: "revokeOAuthConnection",
    tags,
    summary: "Revoke a connected agent",
    description:
      "Revokes the connection at once: its next MCP request with any of its tokens is 401, and it cannot refresh them. Jobs it already started go on. Another account's or an unknown connection is 404; revoking again changes nothing.",
    security: JWT_SECURITY,
    request: { params: ConnectionParam },
    responses: {
      200: jsonResponse(ConnectionDto, "The revoked connection", { ...connectionExample, revoked_at: "2026-11-28T03:20:00.000Z" }),
      ...errorResponses("invalid_request", "unauthorized", "not_found"),
    },
  }),
  async (c) => {
    const { db, env } = c.get("deps");
    const userId = c.get("user").id;
    const revoked = await markRevoked(db, userId, c.req.valid("param").id);
    if (!revoked) throw ApiError.notFound("Connection");
    await revokeGrant(env, new URL(c.req.url).origin, userId, revoked.grantId);
    const current = await findConnection(db, userId, revoked.id);
    if (!current) throw ApiError.notFound("Connection");
    return c.json(connectionDto(current), 200);
  },
);
