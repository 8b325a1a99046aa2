import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { HOUR, MINUTE } from "../lib/time";

/**
 * Rate limits: a fixed-window counter per bucket, kept in memory by one Durable Object per
 * bucket key (e.g. "login:ip:203.0.113.9"). One object per key means every isolate in every
 * region sees the same count without a database write per request. If an idle object is
 * evicted its counters are lost; that only ever errs towards letting a request through, and
 * a client hammering an endpoint keeps its object alive.
 */
export class RateLimiter extends DurableObject<Env> {
  private windowStart = 0;
  private count = 0;

  /** Counts one hit; answers whether it is allowed and, if not, seconds until the window resets. */
  async hit(limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterSecs: number }> {
    const now = Date.now();
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += 1;
    const retryAfterSecs = Math.max(1, Math.ceil((this.windowStart + windowMs - now) / 1000));
    return { allowed: this.count <= limit, retryAfterSecs };
  }

  /** Takes back one hit (an attempt that turned out to be legitimate). If the window rolled over since, it errs towards allowing one more. */
  async forgive(): Promise<void> {
    if (this.count > 0) this.count -= 1;
  }

  /** Forgets every hit of the window (e.g. a client's failed logins once it signs in). */
  async clear(): Promise<void> {
    this.count = 0;
  }
}

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
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
}

/** Counts a hit against `rule` for `subject`. */
export async function hitRateLimit(env: Env, scale: number, rule: RateRuleName, subject: string): Promise<RateDecision> {
  const { limit, windowMs } = RATE_RULES[rule];
  return (await rateLimitCounter(env, rule, subject)).hit(Math.max(1, Math.floor(limit * scale)), windowMs);
}
