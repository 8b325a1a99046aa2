import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { verifyAccessToken } from "../services/access-tokens";
import { findUserWithLiveSession } from "../services/sessions";
import { bearerToken } from "../http/bearer";

/**
 * Dashboard auth: a valid access token whose session is still live (logout, password change
 * and refresh-token reuse end sessions at once, not 15 minutes later), for an unsuspended user.
 */
export const jwtAuth = createMiddleware<AppEnv>(async (c, next) => {
  const claims = await verifyAccessToken(c.get("deps").config, bearerToken(c));
  const user = await findUserWithLiveSession(c.get("deps").db, claims.userId, claims.sessionId);
  if (!user) throw ApiError.unauthorized("Session ended; log in again.");
  if (user.suspendedAt) throw new ApiError("account_suspended", "This account is suspended.");
  c.set("user", user);
  c.set("sessionId", claims.sessionId);
  await next();
});
