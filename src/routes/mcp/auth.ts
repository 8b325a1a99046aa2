import type { Context, Next } from "hono";
import { createMiddleware } from "hono/factory";
import type { OAuthConnectionRow } from "../../db/schema";
import type { AppEnv } from "../../http/context";
import { clientIp } from "../../http/client-ip";
import { withHeaders } from "../../http/response-headers";
import { ApiError } from "../../lib/errors";
import { apiKeyAuth } from "../../middleware/api-key-auth";
import { enforceRateLimit, rateLimitHeaders } from "../../middleware/rate-limit";
import { liveConnection, touchConnection } from "../../services/oauth/connections";
import { bearerChallenge, looksLikeOAuthToken, oauthFor, type OAuthProps, RESEARCH_SCOPE } from "../../services/oauth/server";

/** /mcp's context: the /v1 caller, plus the OAuth connection when the token is one. */
export interface McpEnv extends AppEnv {
  Variables: AppEnv["Variables"] & { oauthConnection?: OAuthConnectionRow };
}

/** The token of the Authorization header, or null (the API-key middleware answers its absence). */
function presentedToken(c: Context): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  return match?.[1] ?? null;
}

/**
 * An access token of MCP's OAuth: valid for this origin's /mcp (the library checks its hash,
 * expiry and audience), carrying the research scope, and its connection not revoked (D1, read on
 * every request, so a revocation holds from the next one). The connection's limit is /v1's per-key
 * limit, counted per connection.
 */
async function oauthTokenAuth(c: Context<McpEnv>, next: Next, token: string): Promise<void> {
  const { env, db, defer } = c.get("deps");
  const endpoints = oauthFor(new URL(c.req.url).origin);
  const validated = endpoints ? await endpoints.authorizationServer.validateToken<OAuthProps>(endpoints.resource, token, env) : null;
  const live = validated?.scope.includes(RESEARCH_SCOPE) ? await liveConnection(db, validated.props.userId, validated.props.connectionId) : null;
  if (!live) {
    await enforceRateLimit(c, "v1:invalid-key:ip", clientIp(c), "Too many requests with an invalid access token from this address; connect the agent again.");
    throw ApiError.unauthorized("Invalid, expired or revoked access token.");
  }
  if (live.user.suspendedAt) throw new ApiError("account_suspended", "This account is suspended.");
  const limit = await enforceRateLimit(c, "v1:key", live.connection.id);
  c.set("user", live.user);
  c.set("oauthConnection", live.connection);
  defer(touchConnection(db, live.connection));
  await next();
  if (c.res.status !== 429) withHeaders(c, rateLimitHeaders(limit));
}

/**
 * /mcp's auth: an API key exactly as /v1 takes it, or an OAuth access token (userId:grantId:secret,
 * which no API key looks like). Its 401 carries the challenge MCP clients follow to OAuth
 * (`mcpChallenge`).
 */
export const mcpAuth = createMiddleware<McpEnv>(async (c, next) => {
  const token = presentedToken(c);
  if (token && looksLikeOAuthToken(token)) await oauthTokenAuth(c, next, token);
  else await apiKeyAuth(c, next);
});

/** A 401 names the scheme it wants (RFC 9110) and, for MCP clients, where the protected-resource metadata is and the scope to ask for (RFC 9728). */
export const mcpChallenge = createMiddleware<McpEnv>(async (c, next) => {
  await next();
  if (c.res.status === 401) c.res.headers.set("WWW-Authenticate", bearerChallenge(new URL(c.req.url).origin));
});
