import { opCostUsd, roundUsd, USD_PER_CREDIT } from "./ops";
import { MODES, type ResearchMode, requiredMaxCredits } from "./modes";

/** The ResearchBudgets envelope of a job (spec "ResearchBudgets"). */
export interface ResearchBudgets {
  branches: number;
  max_cost_usd: number;
  max_pages: number;
  max_searches: number;
  max_wallclock_secs: number;
  max_waves: number;
  synthesis_cost_reserve_usd: number;
  synthesis_time_reserve_secs: number;
}

/** The synthesis and critic stage keeps 15% of the cost envelope. */
export const SYNTHESIS_COST_RESERVE_SHARE = 0.15;

export interface BudgetOptions {
  /** Required for max mode: its cost envelope is max_credits / 100 USD. */
  maxCredits?: number | null;
  /** Overrides the mode's wall-clock cap. */
  maxWallclockSecs?: number | null;
}

/** The envelope for a mode and the request's overrides. */
export function budgetsForMode(mode: ResearchMode, options: BudgetOptions = {}): ResearchBudgets {
  const definition = MODES[mode];
  let maxCostUsd = definition.maxCostUsd;
  if (maxCostUsd === null) maxCostUsd = roundUsd(requiredMaxCredits(options.maxCredits) * USD_PER_CREDIT);
  return {
    branches: definition.branches,
    max_cost_usd: maxCostUsd,
    max_pages: definition.maxPages,
    max_searches: definition.maxSearches,
    max_wallclock_secs: options.maxWallclockSecs ?? definition.wallclockSecs,
    max_waves: definition.maxWaves,
    synthesis_cost_reserve_usd: roundUsd(maxCostUsd * SYNTHESIS_COST_RESERVE_SHARE),
    synthesis_time_reserve_secs: definition.synthesisTimeReserveSecs,
  };
}

/** The least a job can spend and still produce something: one search, one page read and the synthesis reserve. */
function minimumViableCostUsd(budgets: ResearchBudgets): number {
  return roundUsd(opCostUsd("search") + opCostUsd("page_read") + budgets.synthesis_cost_reserve_usd);
}

/**
 * Why an envelope cannot work (decisions.md `impossible_budget`), or null when it can:
 * the cost cannot cover one search, one read and the synthesis reserve, or the wall clock is
 * shorter than the synthesis time reserve.
 */
export function impossibleBudgetReason(budgets: ResearchBudgets): string | null {
  if (budgets.max_cost_usd < minimumViableCostUsd(budgets)) {
    const needed = Math.ceil(minimumViableCostUsd(budgets) / USD_PER_CREDIT);
    return `The budget cannot cover one search, one page read and the synthesis reserve (needs at least ${needed} credits).`;
  }
  if (budgets.max_wallclock_secs < budgets.synthesis_time_reserve_secs) {
    return `max_wallclock_secs must be at least ${budgets.synthesis_time_reserve_secs} seconds (the synthesis time reserve of this mode).`;
  }
  return null;
}
