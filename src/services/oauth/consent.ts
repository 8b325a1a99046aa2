import { type AuthRequest, AuthorizationError, authorizationErrorRedirect, CimdFetchError } from "@cloudflare/workers-oauth-provider";
import type { Caller } from "../../db/schema";
import type { Env } from "../../env";
import { ApiError } from "../../lib/errors";
import { randomBase62 } from "../../lib/crypto";
import type { Deps } from "../deps";
import { createConnection, deleteConnection, setGrantId } from "./connections";
import { type OAuthProps, oauthFor, oauthHelpers, SCOPES } from "./server";

/**
 * The consent step the library leaves to the application. GET /oauth/authorize (the library
 * checks the client, its exact redirect URI, PKCE and the resource) keeps the validated request
 * server-side for ten minutes and sends the browser to the dashboard's consent page with the
 * request's id; the signed-in customer approves (with a credit cap) or denies there, through the
 * dashboard API, which completes the authorization and answers where to send the browser.
 */

/** How long a consent page may stay open before the agent must start again. */
const PENDING_TTL_SECS = 600;
const PENDING_PREFIX = "consent-request:";

/** The largest cap a connection may be given (one million credits, $10,000). */
export const MAX_CREDIT_CAP = 1_000_000;

interface PendingAuthorization {
  issuer: string;
  request: AuthRequest;
  expiresAt: string;
}

/** What GET /oauth/authorize answers: where to send the browser, or an error to show (never a redirect to an unverified URI). */
export type AuthorizeOutcome = { redirectTo: string } | { error: string; description: string };

function pendingKey(id: string): string {
  return `${PENDING_PREFIX}${id}`;
}

/** The scopes an agent may ask for: only ours; none asked means the one there is. */
function grantableScopes(requested: string[]): string[] | null {
  if (requested.length === 0) return [...SCOPES];
  return requested.every((scope) => (SCOPES as readonly string[]).includes(scope)) ? [...new Set(requested)] : null;
}

/**
 * GET /oauth/authorize. `dashboardUrl` is where the consent page lives (the dashboard's origin).
 * A request the library refuses before its client and redirect URI are known is an error shown
 * here; after that, errors go back to the client as OAuth error redirects.
 */
export async function beginAuthorization(env: Env, request: Request, dashboardUrl: string | null): Promise<AuthorizeOutcome> {
  const origin = new URL(request.url).origin;
  const endpoints = oauthFor(origin);
  if (!endpoints) return { error: "invalid_request", description: "OAuth is not offered on this address." };
  let parsed: AuthRequest;
  try {
    parsed = await oauthHelpers(endpoints, env).parseAuthRequest(request);
  } catch (error) {
    if (error instanceof AuthorizationError) {
      if (error.redirectTo) return { redirectTo: error.redirectTo };
      return { error: error.code, description: error.description };
    }
    if (error instanceof CimdFetchError) return { error: "invalid_client", description: "The client's metadata document could not be read." };
    throw error;
  }
  const scope = grantableScopes(parsed.scope);
  if (!scope) {
    return {
      redirectTo: authorizationErrorRedirect(parsed, "invalid_scope", `Only the scope ${SCOPES.join(" ")} exists: run research and read its jobs.`),
    };
  }
  if (!dashboardUrl) return { redirectTo: authorizationErrorRedirect(parsed, "server_error", "This server has no dashboard address to ask for consent.") };
  const id = randomBase62(32);
  const pending: PendingAuthorization = {
    issuer: endpoints.issuer,
    request: { ...parsed, scope },
    expiresAt: new Date(Date.now() + PENDING_TTL_SECS * 1000).toISOString(),
  };
  await env.OAUTH_KV.put(pendingKey(id), JSON.stringify(pending), { expirationTtl: PENDING_TTL_SECS });
  return { redirectTo: `${dashboardUrl}/oauth/consent?request=${encodeURIComponent(id)}` };
}

async function loadPending(env: Env, id: string): Promise<PendingAuthorization> {
  const pending = /^[A-Za-z0-9]{32}$/.test(id) ? await env.OAUTH_KV.get<PendingAuthorization>(pendingKey(id), "json") : null;
  if (!pending || Date.parse(pending.expiresAt) <= Date.now()) {
    throw ApiError.notFound("Authorization request (it expired, or was already answered: start connecting from the agent again)");
  }
  return pending;
}

export interface ConsentDetails {
  request: string;
  account_email: string;
  client_id: string;
  client_name: string;
  client_uri: string | null;
  redirect_uri: string;
  redirect_host: string;
  redirect_is_loopback: boolean;
  scope: string[];
  resource: string;
  expires_at: string;
}

/** GET /api/oauth/requests/{id}: what the consent page shows. */
export async function describeAuthorization(deps: Pick<Deps, "env">, user: Caller, id: string): Promise<ConsentDetails> {
  const pending = await loadPending(deps.env, id);
  const endpoints = oauthFor(pending.issuer);
  if (!endpoints) throw ApiError.notFound("Authorization request");
  const described = await oauthHelpers(endpoints, deps.env).describeConsent(pending.request);
  return {
    request: id,
    account_email: user.email,
    client_id: described.clientId,
    client_name: described.clientName,
    client_uri: described.clientUri ?? null,
    redirect_uri: described.redirectUri,
    redirect_host: described.redirectHost,
    redirect_is_loopback: described.redirectIsLoopback,
    scope: pending.request.scope,
    resource: pending.request.resource ?? endpoints.resource,
    expires_at: pending.expiresAt,
  };
}

export type ConsentDecision = { approve: true; creditCap: number } | { approve: false };

/**
 * POST /api/oauth/requests/{id}/complete: approve (a new connection with its cap, and the
 * library's grant and code) or deny (access_denied). Either way the request is used up, and the
 * answer is the redirect back to the agent.
 */
export async function completeAuthorization(
  deps: Pick<Deps, "env" | "db">,
  user: Caller,
  id: string,
  decision: ConsentDecision,
): Promise<{ redirect_to: string }> {
  const pending = await loadPending(deps.env, id);
  const endpoints = oauthFor(pending.issuer);
  if (!endpoints) throw ApiError.notFound("Authorization request");
  await deps.env.OAUTH_KV.delete(pendingKey(id));
  const request = pending.request;
  if (!decision.approve) return { redirect_to: authorizationErrorRedirect(request, "access_denied", "The account owner declined.") };

  const helpers = oauthHelpers(endpoints, deps.env);
  const described = await helpers.describeConsent(request);
  const connection = await createConnection(deps.db, {
    userId: user.id,
    clientId: request.clientId,
    clientName: described.clientName,
    redirectUri: request.redirectUri,
    scope: request.scope,
    creditCap: decision.creditCap,
  });
  const props: OAuthProps = { userId: user.id, connectionId: connection.id };
  try {
    const { redirectTo } = await helpers.completeAuthorization({
      request,
      userId: user.id,
      metadata: { connectionId: connection.id },
      scope: request.scope,
      props,
      // Each consent is its own connection with its own cap: approving again adds one, never
      // silently revokes another the customer still sees on the dashboard.
      revokeExistingGrants: false,
    });
    const grantId = await grantOf(helpers, user.id, connection.id);
    if (grantId) await setGrantId(deps.db, connection.id, grantId);
    return { redirect_to: redirectTo };
  } catch (error) {
    await deleteConnection(deps.db, connection.id);
    if (error instanceof AuthorizationError) throw ApiError.invalid(error.description);
    throw error;
  }
}

/** The library's grant that carries this connection (its metadata names it). */
async function grantOf(helpers: ReturnType<typeof oauthHelpers>, userId: string, connectionId: string): Promise<string | null> {
  let cursor: string | undefined;
  do {
    const page = await helpers.listUserGrants(userId, { cursor });
    const grant = page.items.find((item) => item.metadata?.connectionId === connectionId);
    if (grant) return grant.id;
    cursor = page.cursor;
  } while (cursor);
  return null;
}

/** Revoke the library's grant (its tokens and refresh token) too; the connection row already refuses them. */
export async function revokeGrant(env: Env, origin: string, userId: string, grantId: string | null): Promise<void> {
  const endpoints = oauthFor(origin);
  if (!endpoints || !grantId) return;
  await oauthHelpers(endpoints, env).revokeGrant(grantId, userId);
}
