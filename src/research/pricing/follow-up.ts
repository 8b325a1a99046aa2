import { type ResearchBudgets, SYNTHESIS_COST_RESERVE_SHARE } from "./budgets";
import { MODES, type ResearchMode, reservationCredits } from "./modes";
import { roundUsd, USD_PER_CREDIT } from "./ops";

/** Follow-ups (docs/decisions.md "Follow-ups (issue 45)"): what a question that continues a finished job costs. */
/** A follow-up's fixed part: this share of the mode's price, for the research it starts from. */
export const FOLLOW_UP_BASE_SHARE = 0.25;
/** A follow-up's work is capped at this share of the mode's cost envelope (it reads only what it adds). */
export const FOLLOW_UP_WORK_SHARE = 0.5;

/** The fixed part of a follow-up's price, in credits: a quarter of the mode's price, rounded up; null for max (metered). */
export function followUpBaseCredits(mode: ResearchMode): number | null {
  const price = MODES[mode].fixedCredits;
  return price === null ? null : Math.ceil(price * FOLLOW_UP_BASE_SHARE);
}

/** The most a follow-up's metered work may come to, in credits (its cost envelope); null for max (max_credits caps it). */
export function followUpWorkCredits(mode: ResearchMode): number | null {
  const price = MODES[mode].fixedCredits;
  return price === null ? null : Math.floor(price * FOLLOW_UP_WORK_SHARE);
}

/**
 * Credits a follow-up reserves, the most it can charge: its base plus its work cap (lite 4 + 7,
 * standard 15 + 30, pro 50 + 100), below the mode's price; max reserves max_credits as any max job.
 */
export function followUpReservation(mode: ResearchMode, maxCredits?: number | null): number {
  const base = followUpBaseCredits(mode);
  const work = followUpWorkCredits(mode);
  return base === null || work === null ? reservationCredits(mode, maxCredits) : base + work;
}

/** A follow-up's envelope: the mode's, with its cost capped at the follow-up's work cap (max keeps max_credits). */
export function followUpBudgets(mode: ResearchMode, budgets: ResearchBudgets): ResearchBudgets {
  const work = followUpWorkCredits(mode);
  if (work === null) return budgets;
  const maxCostUsd = roundUsd(work * USD_PER_CREDIT);
  return { ...budgets, max_cost_usd: maxCostUsd, synthesis_cost_reserve_usd: roundUsd(maxCostUsd * SYNTHESIS_COST_RESERVE_SHARE) };
}
