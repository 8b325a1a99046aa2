import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { authenticateApiKey, touchApiKey } from "../services/api-keys";
import { bearerToken } from "../http/bearer";
import { clientIp } from "../http/client-ip";
import { enforceRateLimit, rateLimitHeaders } from "./rate-limit";
import { withHeaders } from "../http/response-headers";

/** Public API auth: `Authorization: Bearer dr_live_...`; missing, unknown or revoked is 401, suspended 403. */
export const apiKeyAuth = createMiddleware<AppEnv>(async (c, next) => {
  const found = await authenticateApiKey(c.get("deps").db, bearerToken(c));
  if (!found) {
    // Only wrong keys count, per client IP: a scanner is slowed down, valid keys are never held up by it.
    await enforceRateLimit(c, "v1:invalid-key:ip", clientIp(c), "Too many requests with an invalid API key from this address; check the key and retry later.");
    throw ApiError.unauthorized("Invalid or revoked API key.");
  }
  if (found.user.suspendedAt) throw new ApiError("account_suspended", "This account is suspended.");
  const limit = await enforceRateLimit(c, "v1:key", found.keyId);
  c.set("user", found.user);
  c.set("apiKeyId", found.keyId);
  const touch = touchApiKey(c.get("deps").db, found);
  if (touch) c.get("deps").defer(touch);
  await next();
  // Every answer to a valid key carries its limit's state, so a client can pace itself before a 429;
  // but a 429 of a per-account limit inside (middleware/account-rate-limit.ts) carries that limit's.
  if (c.res.status !== 429) withHeaders(c, rateLimitHeaders(limit));
});
