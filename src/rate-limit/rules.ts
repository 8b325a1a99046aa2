import type { Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { HOUR, MINUTE } from "../lib/time";
import type { RateLimiter } from "./counter-object";

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
} as const satisfies Record<string, RateRule>;

const RULES: Record<RateRuleName, RateRule> = RATE_RULES;

export type RateRuleName = keyof typeof RATE_RULES;

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (at least 1): Retry-After and RateLimit-Reset. */
  retryAfterSecs: number;
  /** The scaled limit of the window. */
  limit: number;
  /**
   * Hits left in the window as this isolate knows it: exact for one isolate; with leased hits,
   * other isolates' unspent leases are counted as spent (it errs low).
   */
  remaining: number;
}

/** The object counting `rule` for `subject` (an IP, an email, a key id). Subjects are hashed: no emails in object names. */
export async function rateLimitCounter(env: Env, rule: RateRuleName, subject: string): Promise<DurableObjectStub<RateLimiter>> {
  const name = `${rule}:${await sha256Hex(subject.toLowerCase())}`;
  const namespace = env.RATE_LIMITER as unknown as DurableObjectNamespace<RateLimiter>;
  return namespace.get(namespace.idFromName(name));
}

/** Counts a hit against `rule` for `subject`. */
export async function hitRateLimit(env: Env, scale: number, rule: RateRuleName, subject: string): Promise<RateDecision> {
  const { limit, windowMs, leased } = RULES[rule];
  const scaled = Math.max(1, Math.floor(limit * scale));
  if (leased) return leasedHits.hit(`${rule}:${subject}`, scaled, windowMs, () => rateLimitCounter(env, rule, subject));
  const { allowed, retryAfterSecs, remaining } = await (await rateLimitCounter(env, rule, subject)).hit(scaled, windowMs);
  return { allowed, retryAfterSecs, limit: scaled, remaining };
}

/** A block of hits is 1/20 of the limit (at most 50): the most one isolate can hold unspent. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(50, Math.floor(limit / 20)));
}

/**
 * Hits leased from the counters, spent in this isolate. A lease is only ever granted by the
 * counter object, within the limit, so the limit holds across isolates; what an isolate leaves
 * unspent when its window ends is lost (at most one block: errs towards refusing early). A
 * refusal always comes from the counter, with its Retry-After. Bounded to `maxSubjects`.
 */
export class LeasedHits {
  /** Per subject: hits of the lease left to spend here, and what the counter had left beyond it when it granted the lease. */
  private readonly leases = new Map<string, { remaining: number; endsAt: number; beyond: number }>();

  constructor(
    private readonly maxSubjects = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(name: string, limit: number, windowMs: number, counter: () => Promise<DurableObjectStub<RateLimiter>>): Promise<RateDecision> {
    const lease = this.leases.get(name);
    const now = this.now();
    if (lease && lease.remaining > 0 && now < lease.endsAt) {
      lease.remaining -= 1;
      return { allowed: true, retryAfterSecs: Math.max(1, Math.ceil((lease.endsAt - now) / 1000)), limit, remaining: lease.remaining + lease.beyond };
    }
    const taken = await (await counter()).take(leaseSize(limit), limit, windowMs);
    this.leases.delete(name);
    if (taken.granted > 0) {
      this.leases.set(name, { remaining: taken.granted - 1, endsAt: taken.windowEndsAt, beyond: taken.remaining });
      if (this.leases.size > this.maxSubjects) this.leases.delete(this.leases.keys().next().value!);
    }
    const remaining = taken.granted > 0 ? taken.granted - 1 + taken.remaining : 0;
    return { allowed: taken.granted > 0, retryAfterSecs: taken.retryAfterSecs, limit, remaining };
  }
}

const leasedHits = new LeasedHits();
