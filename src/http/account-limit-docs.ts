import { HOUR, MINUTE } from "../lib/time";
import { RATE_RULES, type RateRuleName } from "../rate-limit/rules";
import { RATE_LIMIT_STATE } from "./openapi";

/** "10 minutes", "hour": a rule's window as a sentence says it. */
function windowText(windowMs: number): string {
  if (windowMs % HOUR === 0) return windowMs === HOUR ? "hour" : `${windowMs / HOUR} hours`;
  return windowMs === MINUTE ? "minute" : `${windowMs / MINUTE} minutes`;
}

/**
 * The sentence an operation's description ends with when a per-account limit guards it
 * (middleware/account-rate-limit.ts), written from the rule itself so the reference cannot drift
 * from the limit. The number is the default (RATE_LIMIT_SCALE 1).
 */
export function accountLimitNote(rule: RateRuleName, what: string): string {
  const { limit, windowMs } = RATE_RULES[rule];
  return ` Limited per account to ${limit} ${what} per ${windowText(windowMs)}: beyond, 429 \`rate_limited\` with \`Retry-After\` and that limit's \`RateLimit-Limit\`, \`-Remaining\` and \`-Reset\`.`;
}

/** A success response of an operation under a per-account limit: it carries the limit's state headers. */
export function withLimitState<R extends { description: string }>(response: R): R & { headers: typeof RATE_LIMIT_STATE } {
  return { ...response, headers: RATE_LIMIT_STATE };
}
