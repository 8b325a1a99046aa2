import { ApiError } from "../../lib/errors";
import { roundUsd, USD_PER_CREDIT } from "./ops";

interface ModeDefinition {
  /** Fixed price in credits; null for a metered mode (max), charged its work up to max_credits. */
  fixedCredits: number | null;
  maxCostUsd: number | null;
  wallclockSecs: number;
  branches: number;
  maxSearches: number;
  maxPages: number;
  maxWaves: number;
  synthesisTimeReserveSecs: number;
  critic: boolean;
  /**
   * Depth (issue 43): before writing, search for what the waves so far left uncovered (a side of
   * a comparison, a hop of a chain, a decade of an open question over time), and show in the
   * brief what each side or period covers.
   */
  deepens: boolean;
}

/**
 * The modes, cheapest first: the one table of their names, prices and limits (spec "Limits" plus
 * decisions.md "Pricing and budgets"). The request's enum, GET /api/billing/modes and its
 * example, the descriptions that quote prices, and the eval derive from it; the README's mode
 * table is held to it by test/repo/vocabularies.test.ts.
 */
export const MODES = {
  lite: {
    fixedCredits: 15,
    maxCostUsd: 0.15,
    wallclockSecs: 60,
    branches: 2,
    maxSearches: 4,
    maxPages: 5,
    maxWaves: 1,
    synthesisTimeReserveSecs: 10,
    critic: false,
    deepens: false,
  },
  standard: {
    fixedCredits: 60,
    maxCostUsd: 0.6,
    wallclockSecs: 180,
    branches: 4,
    maxSearches: 12,
    maxPages: 20,
    maxWaves: 2,
    synthesisTimeReserveSecs: 20,
    critic: false,
    deepens: false,
  },
  pro: {
    fixedCredits: 200,
    maxCostUsd: 2.0,
    wallclockSecs: 360,
    branches: 6,
    maxSearches: 30,
    maxPages: 60,
    maxWaves: 3,
    synthesisTimeReserveSecs: 40,
    critic: true,
    deepens: true,
  },
  max: {
    fixedCredits: null,
    maxCostUsd: null,
    wallclockSecs: 600,
    branches: 8,
    maxSearches: 60,
    maxPages: 120,
    maxWaves: 4,
    synthesisTimeReserveSecs: 60,
    critic: true,
    deepens: true,
  },
} satisfies Record<string, ModeDefinition>;

export type ResearchMode = keyof typeof MODES;
export const RESEARCH_MODES = Object.keys(MODES) as [ResearchMode, ...ResearchMode[]];

/** The modes without a fixed price (max): a job is charged its metered work, up to the request's max_credits. */
export type MeteredMode = { [Mode in ResearchMode]: (typeof MODES)[Mode]["fixedCredits"] extends null ? Mode : never }[ResearchMode];
export type FixedPriceMode = Exclude<ResearchMode, MeteredMode>;

export function isMetered(mode: ResearchMode): mode is MeteredMode {
  return MODES[mode].fixedCredits === null;
}

/** Jobs whose wall-clock budget exceeds this run asynchronously (spec "Rules for POST /v1/research"). */
export const SYNC_WALLCLOCK_LIMIT_SECS = 60;

/** A mode as the public price list shows it (GET /api/billing/modes): what it costs and what it may use. */
export interface ModePrice {
  mode: ResearchMode;
  /** Fixed price in credits; null for max (metered up to max_credits). */
  credits: number | null;
  max_cost_usd: number | null;
  max_wallclock_secs: number;
  max_sources: number;
  max_searches: number;
  max_waves: number;
  critic: boolean;
  /** Whether a job of this mode is asynchronous by default (its wall-clock budget exceeds 60 s). */
  async_by_default: boolean;
}

export function modePrices(): ModePrice[] {
  return RESEARCH_MODES.map((mode) => {
    const m = MODES[mode];
    return {
      mode,
      credits: m.fixedCredits,
      max_cost_usd: m.maxCostUsd,
      max_wallclock_secs: m.wallclockSecs,
      max_sources: m.maxPages,
      max_searches: m.maxSearches,
      max_waves: m.maxWaves,
      critic: m.critic,
      async_by_default: m.wallclockSecs > SYNC_WALLCLOCK_LIMIT_SECS,
    };
  });
}

export function modeHasCritic(mode: ResearchMode): boolean {
  return MODES[mode].critic;
}

/** Whether a mode searches for what its first waves left uncovered before writing (pro and max). */
export function modeDeepens(mode: ResearchMode): boolean {
  return MODES[mode].deepens;
}

/**
 * max is metered up to max_credits, so it has no price without them. The one place this rule
 * lives: a request that breaks it is a 400 at submit, before anything is written.
 */
export function requiredMaxCredits(maxCredits: number | null | undefined): number {
  if (maxCredits == null) throw ApiError.invalid("Invalid request: max_credits is required when mode is max.");
  return maxCredits;
}

/** Credits reserved at submit: the fixed price, or max_credits for max. */
export function reservationCredits(mode: ResearchMode, maxCredits?: number | null): number {
  return MODES[mode].fixedCredits ?? requiredMaxCredits(maxCredits);
}

/** Credits for metered work: ceil(cost * 100), the epsilon keeping an exact 0.07 USD at 7, not 8. */
export function meteredCredits(costUsd: number): number {
  return Math.ceil(roundUsd(costUsd) / USD_PER_CREDIT - 1e-9);
}

/** Credits charged for a succeeded job: the fixed price, or ceil(cost * 100) capped at max_credits for max. */
export function creditsCharged(mode: ResearchMode, costUsd: number, maxCredits?: number | null): number {
  const fixed = MODES[mode].fixedCredits;
  if (fixed !== null) return fixed;
  const metered = meteredCredits(costUsd);
  return Math.min(metered, maxCredits ?? metered);
}
