import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

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
  /** When the current window ends, as the last grant said (a lease given back names it). */
  private windowEndsAt = 0;

  /** Counts one hit; answers whether it is allowed and, if not, seconds until the window resets. */
  async hit(limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterSecs: number; remaining: number }> {
    const { granted, retryAfterSecs, remaining } = await this.take(1, limit, windowMs);
    return { allowed: granted === 1, retryAfterSecs, remaining };
  }

  /**
   * Grants up to `want` hits of the window at once (a lease an isolate spends locally), never
   * past the limit; `windowEndsAt` is when the lease lapses, `remaining` what the window has left
   * after this grant.
   */
  async take(want: number, limit: number, windowMs: number): Promise<{ granted: number; retryAfterSecs: number; windowEndsAt: number; remaining: number }> {
    const now = Date.now();
    if (now - this.windowStart >= windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    const granted = Math.max(0, Math.min(want, limit - this.count));
    // A refused hit still counts, as it always has: a client hammering past the limit stays out.
    this.count += Math.max(granted, 1);
    const windowEndsAt = this.windowStart + windowMs;
    this.windowEndsAt = windowEndsAt;
    return { granted, retryAfterSecs: Math.max(1, Math.ceil((windowEndsAt - now) / 1000)), windowEndsAt, remaining: Math.max(0, limit - this.count) };
  }

  /** Takes back one hit (an attempt that turned out to be legitimate). If the window rolled over since, it errs towards allowing one more. */
  async forgive(): Promise<void> {
    if (this.count > 0) this.count -= 1;
  }

  /**
   * Takes back `hits` of a lease an isolate let go unspent (see LeasedHits), if the window that
   * granted them (the one ending at `windowEndsAt`) is still this one; a later window never counted them.
   */
  async giveBack(hits: number, windowEndsAt: number): Promise<void> {
    if (this.windowEndsAt !== windowEndsAt) return;
    this.count = Math.max(0, this.count - hits);
  }

  /** Forgets every hit of the window (e.g. a client's failed logins once it signs in). */
  async clear(): Promise<void> {
    this.count = 0;
  }
}
