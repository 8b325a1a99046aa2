import { Hono } from "hono";
import type { AppEnv } from "../../http/context";
import { ApiError } from "../../lib/errors";
import { beginAuthorization } from "../../services/oauth/consent";
import { OAUTH_PATHS, oauthFor } from "../../services/oauth/server";

/**
 * MCP's OAuth endpoints (services/oauth/): the library serves the authorization-server metadata
 * (RFC 8414), dynamic client registration (RFC 7591), the token endpoint (authorization code with
 * PKCE, refresh, revocation) and /mcp's protected-resource metadata (RFC 9728); the authorize
 * endpoint is ours, since consent is the dashboard's. On an origin where the library offers no
 * OAuth (plain http on a host that is not loopback) they are the app's JSON 404.
 */
export const oauthRoutes = new Hono<AppEnv>();

/** The library's answer with headers the app's middleware may still add to (X-Request-Id). */
async function mutable(response: Promise<Response>): Promise<Response> {
  const answer = await response;
  return new Response(answer.body, answer);
}

/** Hono types the runtime's context with its own narrower interface; it is the runtime's. */
function workerContext(context: unknown): ExecutionContext {
  return context as ExecutionContext;
}

function notOffered(c: { req: { method: string; url: string } }): never {
  throw new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`);
}

/** GET /oauth/authorize: checked by the library, then the browser goes to the dashboard's consent page. */
oauthRoutes.get(OAUTH_PATHS.authorize, async (c) => {
  const outcome = await beginAuthorization(c.env, c.req.raw, c.get("deps").dashboardUrl);
  if ("redirectTo" in outcome) return c.redirect(outcome.redirectTo, 302);
  // The client or its redirect URI is not known to be genuine: never redirect, say what is wrong.
  throw ApiError.invalid(`${outcome.error}: ${outcome.description}`);
});

for (const path of [OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.authorizationServerMetadata]) {
  oauthRoutes.all(path, (c) => {
    const endpoints = oauthFor(new URL(c.req.url).origin);
    if (!endpoints) notOffered(c);
    return mutable(endpoints.authorizationServer.fetch(c.req.raw, c.env, workerContext(c.executionCtx)));
  });
}

oauthRoutes.all(OAUTH_PATHS.protectedResourceMetadata, (c) => {
  const endpoints = oauthFor(new URL(c.req.url).origin);
  if (!endpoints) notOffered(c);
  return mutable(endpoints.resourceServer.fetch(c.req.raw, c.env, workerContext(c.executionCtx)));
});
