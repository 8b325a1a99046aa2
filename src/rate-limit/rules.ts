import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { HOUR, MINUTE } from "../lib/time";
import type { RateLimiter } from "./counter-object";
import { type KeepAlive, LeasedHits, type RateDecision } from "./leased-hits";

export interface RateRule {
  /** Requests allowed per window before RATE_LIMIT_SCALE is applied. */
  limit: number;
  windowMs: number;
  /**
   * Hits are leased to the isolate in blocks (see LeasedHits): a busy API key costs one counter
   * call per block instead of one per request. Only for limits high enough that a block left
   * unspent in one isolate cannot matter; never for the login guards.
   */
  leased?: boolean;
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
  "v1:key": { limit: 600, windowMs: MINUTE, leased: true },
  "v1:invalid-key:ip": { limit: 30, windowMs: 5 * MINUTE },
  // Per account, on what costs us per call (issue 39); every attempt counts, like the guards above.
  "account:outbound": { limit: 60, windowMs: 10 * MINUTE },
  "account:research": { limit: 60, windowMs: HOUR },
  "account:quote": { limit: 120, windowMs: MINUTE },
  // Plans are free; with a model configured each is a model call the service pays (issue 45).
  "account:plan": { limit: 60, windowMs: HOUR },
  "account:email": { limit: 10, windowMs: HOUR },
  "account:payments": { limit: 30, windowMs: HOUR },
  "account:password": { limit: 10, windowMs: 15 * MINUTE },
} as const satisfies Record<string, RateRule>;

const RULES: Record<RateRuleName, RateRule> = RATE_RULES;

export type RateRuleName = keyof typeof RATE_RULES;

export type { RateDecision };

/** The object counting `rule` for `subject` (an IP, an email, a key id). Subjects are hashed: no emails in object names. */
export async function rateLimitCounter(env: Env, rule: RateRuleName, subject: string): Promise<DurableObjectStub<RateLimiter>> {
  const name = `${rule}:${await sha256Hex(subject.toLowerCase())}`;
  const namespace = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return namespace.get(namespace.idFromName(name));
}

/** Counts a hit against `rule` for `subject`; `keepAlive` (the request's waitUntil) carries a shared lease request. */
export async function hitRateLimit(env: Env, scale: number, rule: RateRuleName, subject: string, keepAlive?: KeepAlive): Promise<RateDecision> {
  const { limit, windowMs, leased } = RULES[rule];
  const scaled = Math.max(1, Math.floor(limit * scale));
  if (leased) return leasedHits.hit(`${rule}:${subject}`, scaled, windowMs, () => rateLimitCounter(env, rule, subject), keepAlive);
  const { allowed, retryAfterSecs, remaining } = await (await rateLimitCounter(env, rule, subject)).hit(scaled, windowMs);
  return { allowed, retryAfterSecs, limit: scaled, remaining };
}

const leasedHits = new LeasedHits();
