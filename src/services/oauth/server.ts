import { OAuthAuthorizationServer, type OAuthHelpers, OAuthResourceServer } from "@cloudflare/workers-oauth-provider";
import type { Env } from "../../env";

/**
 * MCP's OAuth, by @cloudflare/workers-oauth-provider: the authorization server (metadata, dynamic
 * client registration, the token endpoint with PKCE, revocation, tokens stored hashed in
 * OAUTH_KV) and the protected-resource metadata of /mcp. Our code owns only what the library
 * leaves to the application: the consent (the dashboard), the connection's credit cap, and /mcp's
 * own auth middleware (routes/mcp/auth.ts), which takes an API key or one of these tokens.
 */

/** The one scope: run research and read the jobs the connection started. */
export const RESEARCH_SCOPE = "research";
export const SCOPES = [RESEARCH_SCOPE] as const;

export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  authorizationServerMetadata: "/.well-known/oauth-authorization-server",
  protectedResourceMetadata: "/.well-known/oauth-protected-resource/mcp",
} as const;

/** What completeAuthorization stores with the grant and every token carries back (encrypted). */
export interface OAuthProps {
  userId: string;
  connectionId: string;
}

export interface OAuthEndpoints {
  /** The issuer: this origin (RFC 8414 metadata at its /.well-known/oauth-authorization-server). */
  issuer: string;
  /** The protected resource every token is bound to (its audience): this origin's /mcp. */
  resource: string;
  authorizationServer: OAuthAuthorizationServer<Env>;
  resourceServer: OAuthResourceServer<Env, OAuthProps>;
}

/** One per origin an isolate has served (the library fixes the issuer and resource at construction). */
const byOrigin = new Map<string, OAuthEndpoints | null>();

/** One hour: a stolen token is short-lived; the client refreshes (30 days), and a revoked grant stops at once anyway. */
const ACCESS_TOKEN_TTL_SECS = 3600;

/**
 * The OAuth endpoints of the origin a request came to (the issuer and the resource are this
 * worker's own address, whatever host it is deployed on), or null when the library refuses that
 * origin as an issuer (plain http on a host that is not loopback): OAuth is then not offered
 * there and /mcp takes API keys only.
 */
export function oauthFor(origin: string): OAuthEndpoints | null {
  const known = byOrigin.get(origin);
  if (known !== undefined) return known;
  let endpoints: OAuthEndpoints | null = null;
  try {
    const issuer = origin;
    const resource = `${origin}/mcp`;
    const authorizationServer = new OAuthAuthorizationServer<Env>({
      issuer,
      resources: [resource],
      defaultResource: resource,
      authorizeEndpoint: `${origin}${OAUTH_PATHS.authorize}`,
      tokenEndpoint: `${origin}${OAUTH_PATHS.token}`,
      clientRegistrationEndpoint: `${origin}${OAUTH_PATHS.register}`,
      scopesSupported: [...SCOPES],
      accessTokenTTL: ACCESS_TOKEN_TTL_SECS,
      onError: ({ code, status, internal }) => {
        if (status >= 500) console.error(`oauth: ${code} (${internal.category}/${internal.reason})`);
      },
    });
    const resourceServer = new OAuthResourceServer<Env, OAuthProps>({
      resourceMetadata: {
        resource,
        authorization_servers: [issuer],
        bearer_methods_supported: ["header"],
        resource_name: "Deep Research MCP",
      },
      requiredScopes: [...SCOPES],
      validateToken: (env) => (forResource, token) => authorizationServer.validateToken<OAuthProps>(forResource, token, env),
      // Only its metadata document is served through it (routes/mcp/oauth-routes.ts): /mcp itself
      // is the app's, behind routes/mcp/auth.ts.
      handler: { fetch: () => new Response(null, { status: 404 }) },
    });
    endpoints = { issuer, resource, authorizationServer, resourceServer };
  } catch (error) {
    console.warn(`oauth: not offered on ${origin}: ${error instanceof Error ? error.message : String(error)}`);
  }
  byOrigin.set(origin, endpoints);
  return endpoints;
}

/** The library's helpers (parse and complete authorizations, grants) for an origin. */
export function oauthHelpers(endpoints: OAuthEndpoints, env: Env): OAuthHelpers {
  return endpoints.authorizationServer.getOAuthApi(env);
}

/** The 401's challenge on /mcp: where the protected-resource metadata is, and the scope to ask for (RFC 9728, MCP). */
export function bearerChallenge(origin: string): string {
  const endpoints = oauthFor(origin);
  if (!endpoints) return 'Bearer realm="mcp"';
  return `Bearer realm="mcp", resource_metadata="${origin}${OAUTH_PATHS.protectedResourceMetadata}", scope="${SCOPES.join(" ")}"`;
}

/** A token of this library has the form userId:grantId:secret; an API key (dr_live_…) never has a colon. */
export function looksLikeOAuthToken(token: string): boolean {
  return token.split(":").length === 3;
}
