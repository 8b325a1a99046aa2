import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { HOUR, MINUTE } from "../lib/time";
import type { RateLimiter } from "./counter-object";

export interface RateRule {
  /** Requests allowed per window before RATE_LIMIT_SCALE is applied. */
  limit: number;
  windowMs: number;
}

/**
 * The limits, before scaling by RATE_LIMIT_SCALE. Per IP guards against spraying; per email against
 * targeting one account. Failed logins count per client and account (a lockout there only stops
 * that client) and, more slowly, per account across clients (a distributed guesser): so nobody can
 * lock an owner out by knowing their email, while guessing stays bounded.
 */
export const RATE_RULES = {
  "login:ip": { limit: 30, windowMs: 5 * MINUTE },
  "login:ip-email": { limit: 10, windowMs: 15 * MINUTE },
  "login:email": { limit: 50, windowMs: HOUR },
  "signup:ip": { limit: 20, windowMs: HOUR },
  "signup:email": { limit: 5, windowMs: HOUR },
  "forgot:ip": { limit: 10, windowMs: HOUR },
  "forgot:email": { limit: 3, windowMs: HOUR },
  "reset:ip": { limit: 10, windowMs: HOUR },
  "reset:token": { limit: 5, windowMs: HOUR },
  "v1:key": { limit: 600, windowMs: MINUTE },
  "v1:invalid-key:ip": { limit: 30, windowMs: 5 * MINUTE },
} as const satisfies Record<string, RateRule>;

export type RateRuleName = keyof typeof RATE_RULES;

export interface RateDecision {
  allowed: boolean;
  retryAfterSecs: number;
}

/** The object counting `rule` for `subject` (an IP, an email, a key id). Subjects are hashed: no emails in object names. */
export async function rateLimitCounter(env: Env, rule: RateRuleName, subject: string): Promise<DurableObjectStub<RateLimiter>> {
  const name = `${rule}:${await sha256Hex(subject.toLowerCase())}`;
  const namespace = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return namespace.get(namespace.idFromName(name));
}

/** Counts a hit against `rule` for `subject`. */
export async function hitRateLimit(env: Env, scale: number, rule: RateRuleName, subject: string): Promise<RateDecision> {
  const { limit, windowMs } = RATE_RULES[rule];
  return (await rateLimitCounter(env, rule, subject)).hit(Math.max(1, Math.floor(limit * scale)), windowMs);
}
