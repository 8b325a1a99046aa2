import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { hitRateLimit, type RateDecision, type RateRuleName } from "../rate-limit/rules";
import { clientIp } from "../http/client-ip";

/** The window's state as response headers (the IETF RateLimit header fields, as GitHub and others send them). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.retryAfterSecs),
  };
}

/**
 * Counts a hit for `subject` under `rule`; over the limit it throws 429 `rate_limited` with
 * Retry-After and the RateLimit headers. Answers the decision, so a caller can show the state.
 */
export async function enforceRateLimit(
  c: Context<AppEnv>,
  rule: RateRuleName,
  subject: string,
  message = "Too many requests; slow down and retry later.",
): Promise<RateDecision> {
  const { env, config, defer } = c.get("deps");
  const decision = await hitRateLimit(env, config.RATE_LIMIT_SCALE, rule, subject, defer);
  if (!decision.allowed) {
    throw new ApiError("rate_limited", message, undefined, { "Retry-After": String(decision.retryAfterSecs), ...rateLimitHeaders(decision) });
  }
  return decision;
}

/** Per-client-IP limit, applied before the body is even read. */
export const rateLimitByIp = (rule: RateRuleName) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await enforceRateLimit(c, rule, clientIp(c));
    await next();
  });
