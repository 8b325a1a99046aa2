import type { RateLimiter } from "./counter-object";

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

/** What the counter object answers to `take` (see RateLimiter.take). */
interface Grant {
  granted: number;
  retryAfterSecs: number;
  windowEndsAt: number;
  remaining: number;
}

type Counter = () => Promise<DurableObjectStub<RateLimiter>>;

interface Lease {
  /** Hits of the lease left to spend here. */
  remaining: number;
  /** When the counter's window ends: the lease lapses with it. */
  endsAt: number;
  /** What the counter had left beyond this lease when it granted it. */
  beyond: number;
  /** The lease's counter, to give back what is unspent if the lease is let go early. */
  counter: Counter;
}

/** Keeps a promise's work going after the request that started it answered (ctx.waitUntil). */
export type KeepAlive = (work: Promise<unknown>) => void;

/** A block of hits is 1/20 of the limit (at most 50): the most one isolate can hold unspent. */
export function leaseSize(limit: number): number {
  return Math.max(1, Math.min(50, Math.floor(limit / 20)));
}

/**
 * Hits leased from the counters, spent in this isolate. A lease is only ever granted by the
 * counter object, within the limit, so the limit holds across isolates. A refusal always comes
 * from the counter, with its Retry-After. Bounded to `maxSubjects`.
 *
 * Under concurrency (issue 39): requests that find no lease while one is being asked for wait for
 * that one request instead of each taking a block. Each taking its own block, with the last one
 * kept, lost every other block: a fresh key allowed 194 of 600 at 10 in flight. So an isolate
 * holds at most one lease per subject, every granted hit is spent here or given back (a lease let
 * go while its window runs), and only a lapsed lease is dropped: its window, and the hits the
 * counter counted in it, are over.
 */
export class LeasedHits {
  private readonly leases = new Map<string, Lease>();
  /** The lease request in flight per subject (its promise is shared by the requests waiting on it). */
  private readonly inFlight = new Map<string, Promise<Grant>>();

  constructor(
    private readonly maxSubjects = 10_000,
    // Read at each call (not Date.now itself), so a test that fakes the clock moves this one too.
    private readonly now: () => number = () => Date.now(),
  ) {}

  async hit(name: string, limit: number, windowMs: number, counter: Counter, keepAlive: KeepAlive = () => {}): Promise<RateDecision> {
    for (;;) {
      const spent = this.spend(name, limit);
      if (spent) return spent;
      const pending = this.inFlight.get(name);
      // Waiting for another request's lease; if it was refused, so is this one (the window is spent).
      if (pending) {
        const grant = await pending;
        if (grant.granted === 0) return this.spend(name, limit) ?? refusal(grant, limit);
        continue;
      }
      const request = this.takeLease(name, limit, windowMs, counter, keepAlive);
      // Kept alive past this request: others may be waiting on it, and a cancelled request's
      // pending work would leave them waiting for ever.
      keepAlive(request);
      const grant = await request;
      if (grant.granted === 0) return this.spend(name, limit) ?? refusal(grant, limit);
      // Granted: the loop spends from the lease (unless waiters got there first; then it asks again).
    }
  }

  /** One hit of the subject's lease, if it has one left in its window. */
  private spend(name: string, limit: number): RateDecision | null {
    const lease = this.leases.get(name);
    const now = this.now();
    if (!lease || lease.remaining <= 0 || now >= lease.endsAt) return null;
    lease.remaining -= 1;
    return { allowed: true, retryAfterSecs: Math.max(1, Math.ceil((lease.endsAt - now) / 1000)), limit, remaining: lease.remaining + lease.beyond };
  }

  /** Asks the counter for a block; the lease is stored before anyone waiting on it resumes. */
  private takeLease(name: string, limit: number, windowMs: number, counter: Counter, keepAlive: KeepAlive): Promise<Grant> {
    const request = (async () => {
      try {
        const grant: Grant = await (await counter()).take(leaseSize(limit), limit, windowMs);
        if (grant.granted > 0) this.store(name, { remaining: grant.granted, endsAt: grant.windowEndsAt, beyond: grant.remaining, counter }, keepAlive);
        return grant;
      } finally {
        this.inFlight.delete(name);
      }
    })();
    this.inFlight.set(name, request);
    return request;
  }

  private store(name: string, lease: Lease, keepAlive: KeepAlive): void {
    // Only an empty or lapsed lease is replaced (a lease is asked for only then, one at a time).
    this.leases.delete(name);
    this.leases.set(name, lease);
    if (this.leases.size <= this.maxSubjects) return;
    const [oldest, evicted] = this.leases.entries().next().value!;
    this.leases.delete(oldest);
    // Let go while its window runs: its unspent hits go back to the counter, for other isolates.
    if (evicted.remaining > 0 && this.now() < evicted.endsAt) {
      keepAlive(
        evicted
          .counter()
          .then((stub) => stub.giveBack(evicted.remaining, evicted.endsAt))
          .catch((error: unknown) => console.error("rate limit: giving back a lease", error)),
      );
    }
  }
}

function refusal(grant: Grant, limit: number): RateDecision {
  return { allowed: false, retryAfterSecs: grant.retryAfterSecs, limit, remaining: 0 };
}
