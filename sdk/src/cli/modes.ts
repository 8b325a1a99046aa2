import type { ResearchMode } from "../types.js";

/**
 * Whether each mode is metered (charged its work, up to --max-credits) rather than fixed-price.
 * The service says so at GET /api/billing/modes (`credits` null), but a command line is checked
 * before any call. A Record over the generated ResearchMode: a mode the service adds fails this
 * file's type check after `npm run sdk:client`, and test/repo/vocabularies.test.ts holds the
 * values (and the order, cheapest first) to the service's table.
 */
const IS_METERED: Record<ResearchMode, boolean> = { lite: false, standard: false, pro: false, max: true };

export const RESEARCH_MODES = Object.keys(IS_METERED) as ResearchMode[];
export const isMetered = (mode: ResearchMode): boolean => IS_METERED[mode];
