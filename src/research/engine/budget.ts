import { type OpName, opCostUsd, type ResearchBudgets, roundUsd } from "../pricing";

/** Why the engine stopped gathering evidence. */
export type StopReason =
  | "answered" // gap analysis found nothing missing
  | "no_new_evidence" // a wave added no new source
  | "max_waves"
  | "max_searches"
  | "max_pages"
  | "max_cost"
  | "deadline";

/**
 * The budget gates. Every wave and every paid operation asks first; the wave fan-out may only
 * use what is left after the synthesis reserves (cost and time), so the brief can always be
 * written inside the envelope. Costs are charged from the op-price list.
 */
export class Budget {
  costUsd = 0;
  searches = 0;
  pages = 0;
  waves = 0;
  private readonly startedAt: number;

  constructor(
    readonly envelope: ResearchBudgets,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  get deadline(): number {
    return this.startedAt + this.envelope.max_wallclock_secs * 1000;
  }

  /** Milliseconds the fan-out may still use (wall clock minus the synthesis time reserve). */
  gatheringTimeLeftMs(): number {
    return this.deadline - this.envelope.synthesis_time_reserve_secs * 1000 - this.now();
  }

  timeLeftMs(): number {
    return this.deadline - this.now();
  }

  /** USD the fan-out may still spend (cost envelope minus the synthesis cost reserve). */
  gatheringCostLeftUsd(): number {
    return roundUsd(this.envelope.max_cost_usd - this.envelope.synthesis_cost_reserve_usd - this.costUsd);
  }

  costLeftUsd(): number {
    return roundUsd(this.envelope.max_cost_usd - this.costUsd);
  }

  /** Gate before a wave: null when it may start, else why not. */
  waveBlocker(): StopReason | null {
    if (this.waves >= this.envelope.max_waves) return "max_waves";
    return this.searchBlocker();
  }

  /** Gate before one search. */
  searchBlocker(): StopReason | null {
    if (this.gatheringTimeLeftMs() <= 0) return "deadline";
    if (this.searches >= this.envelope.max_searches) return "max_searches";
    if (opCostUsd("search") > this.gatheringCostLeftUsd() + 1e-9) return "max_cost";
    return null;
  }

  /** Gate before one page read (priced as a fresh read: whether it is cached is only known after). */
  readBlocker(): StopReason | null {
    if (this.gatheringTimeLeftMs() <= 0) return "deadline";
    if (this.pages >= this.envelope.max_pages) return "max_pages";
    if (opCostUsd("page_read") > this.gatheringCostLeftUsd() + 1e-9) return "max_cost";
    return null;
  }

  /** Gate for synthesis and critic spending, which may use the reserve but never pass the envelope. */
  canAfford(usd: number): boolean {
    return usd <= this.costLeftUsd() + 1e-9 && this.timeLeftMs() > 0;
  }

  startWave(): void {
    this.waves++;
  }

  charge(op: OpName, quantity = 1): number {
    const usd = opCostUsd(op, quantity);
    this.costUsd = roundUsd(this.costUsd + usd);
    if (op === "search") this.searches += quantity;
    if (op === "page_read" || op === "page_read_cached") this.pages += quantity;
    return usd;
  }

  /** A read scheduled as fresh turned out to be served from the page cache: charge the cached price instead. */
  refundCachedRead(): void {
    this.costUsd = roundUsd(this.costUsd - opCostUsd("page_read") + opCostUsd("page_read_cached"));
  }

  chargeUsd(usd: number): void {
    this.costUsd = roundUsd(this.costUsd + usd);
  }
}
