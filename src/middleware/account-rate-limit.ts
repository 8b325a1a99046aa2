import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { withHeaders } from "../http/response-headers";
import type { RateRuleName } from "../rate-limit/rules";
import { enforceRateLimit, rateLimitHeaders } from "./rate-limit";

/**
 * A per-account limit on an operation that costs us per call (an outbound request, a research
 * job, a quote, an email, a payment-processor call, a password hash), mounted on the route after
 * its auth. Every attempt counts, a valid one or not, as for the login guards: counting before
 * validation keeps the check in one place and an invalid call is never worth more than a valid one.
 * Over the limit: 429 `rate_limited` with Retry-After and the RateLimit fields, as on /v1; below
 * it, the answer carries the state so the dashboard can pace itself. On /v1 the key's state is the
 * one a success carries (middleware/api-key-auth.ts); this limit's shows on its 429.
 */
export const limitPerAccount = (rule: RateRuleName, message: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const decision = await enforceRateLimit(c, rule, c.get("user").id, message);
    await next();
    if (c.res.status !== 429) withHeaders(c, rateLimitHeaders(decision));
  });
