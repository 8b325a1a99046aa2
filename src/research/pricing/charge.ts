import type { JobStatus } from "../../db/schema/jobs";
import { followUpBaseCredits } from "./follow-up";
import { creditsCharged, meteredCredits, MODES, type ResearchMode } from "./modes";

/** Which rule decided a job's charge: the vocabulary of `charge_basis.rule` (its schema in research/shapes.ts). */
export const CHARGE_RULES = ["reserved", "mode_price", "nothing_addressed", "metered", "cancelled", "refunded", "follow_up"] as const;
export type ChargeRule = (typeof CHARGE_RULES)[number];

/** Why a job was charged what it was: the rule and a sentence with the figures (`charge_basis`). */
export interface ChargeBasis {
  rule: ChargeRule;
  reason: string;
}

/**
 * The one charge rule of a job (docs/decisions.md "Charges") and the sentence that says why it
 * cost what it cost (`charge_basis` of the result): a pure function of the mode, the reservation,
 * the cap (`max_credits`) and the outcome. Every path settles through here: sync and async, typed
 * output, cancel, collections, the offline engine and a model's. (settleReservation caps a charge
 * at its reservation again, as a guard of the ledger.)
 *
 * - succeeded, lite/standard/pro: the mode's price, when the brief cites a source that addresses
 *   the question; its metered work (`ceil(cost_usd × 100)`, never above the price) when nothing
 *   read addresses the question or the brief cites no source at all.
 * - succeeded, max: its metered work, at most `max_credits`.
 * - cancelled: the metered work done; failed: nothing. Never above the reservation.
 */
export interface ChargeInput {
  mode: ResearchMode;
  maxCredits: number | null;
  reservedCredits: number;
  /** A follow-up: the job it continues, and how many pages it started from. */
  followUp?: { previousJobId: string; priorSources: number };
}

export type ChargeOutcome =
  | { status: "succeeded"; costUsd: number; addressed: boolean; citedSources: number; answered: boolean }
  | { status: "cancelled"; costUsd: number }
  | { status: "failed" }
  | { status: "pending" | "running"; costUsd: number };

/** The credits charged and the rule and reason behind them. */
export function decideCharge(job: ChargeInput, outcome: ChargeOutcome): { credits: number; basis: ChargeBasis } {
  const cap = (credits: number) => Math.max(0, Math.min(credits, job.reservedCredits));
  switch (outcome.status) {
    case "pending":
    case "running": {
      return {
        credits: 0,
        basis: basis(
          "reserved",
          `Nothing charged yet: ${plural(job.reservedCredits)} are reserved while the job runs, and its work so far comes to ${workOf(outcome.costUsd)}.`,
        ),
      };
    }
    case "failed":
      return {
        credits: 0,
        basis: basis("refunded", `Nothing charged: the job failed, and the ${plural(job.reservedCredits)} reserved went back to your balance.`),
      };
    case "cancelled": {
      const credits = cap(meteredCredits(outcome.costUsd));
      const rest = job.reservedCredits - credits;
      return {
        credits,
        basis: basis(
          "cancelled",
          `Charged ${money(credits)}, the metered work done before the cancel stopped the job${rest > 0 ? `; the other ${plural(rest)} reserved went back to your balance` : ""}.`,
        ),
      };
    }
    case "succeeded":
      return succeeded(job, outcome);
  }
}

function succeeded(job: ChargeInput, outcome: Extract<ChargeOutcome, { status: "succeeded" }>): { credits: number; basis: ChargeBasis } {
  const { mode } = job;
  const work = meteredCredits(outcome.costUsd);
  const citesNothing = !outcome.addressed || outcome.citedSources === 0;
  const nothing = "no source the job read addresses the question, so its brief cites none";
  const price = MODES[mode].fixedCredits;
  if (price === null) {
    const credits = Math.max(0, Math.min(creditsCharged(mode, outcome.costUsd, job.maxCredits), job.reservedCredits));
    const capped = work > credits ? ` (its work came to ${plural(work)}, capped at max_credits)` : "";
    return {
      credits,
      basis: basis(
        "metered",
        `Charged ${money(credits)}, its metered work${capped}: max mode is priced by the work done, at most max_credits${citesNothing ? `; ${nothing}` : ""}.`,
      ),
    };
  }
  if (citesNothing) {
    const credits = Math.max(0, Math.min(price, work, job.reservedCredits));
    const atPrice = work >= price ? ` (its work came to ${plural(work)}, capped at the ${mode} price)` : `, not the ${mode} price of ${plural(price)}`;
    return { credits, basis: basis("nothing_addressed", `Charged only its metered work, ${money(credits)}${atPrice}: ${nothing}.`) };
  }
  if (job.followUp) return followUpCharge(job, job.followUp, outcome, price, work);
  const credits = Math.max(0, Math.min(price, job.reservedCredits));
  const one = outcome.citedSources === 1;
  const sources = `${outcome.citedSources} source${one ? " that addresses" : "s that address"} the question`;
  const settles = outcome.answered ? sources : `${sources}, though ${one ? "it does not settle" : "none settles"} it`;
  return {
    credits,
    basis: basis(
      "mode_price",
      `Charged the ${mode} price, ${money(credits)}: the brief cites ${settles}. Its metered work came to ${workOf(outcome.costUsd)}.`,
    ),
  };
}

/**
 * A follow-up that cites sources addressing its question (docs/decisions.md "Follow-ups (issue
 * 45)"): a quarter of the mode's price for the research it starts from, plus its own metered work,
 * never above its reservation (base + half the mode's price), so always below the mode's price.
 */
function followUpCharge(
  job: ChargeInput,
  followUp: NonNullable<ChargeInput["followUp"]>,
  outcome: Extract<ChargeOutcome, { status: "succeeded" }>,
  price: number,
  work: number,
): { credits: number; basis: ChargeBasis } {
  const base = followUpBaseCredits(job.mode) ?? 0;
  const credits = Math.max(0, Math.min(base + work, job.reservedCredits));
  const pages = `${followUp.priorSources} page${followUp.priorSources === 1 ? "" : "s"}`;
  return {
    credits,
    basis: basis(
      "follow_up",
      `Charged ${money(credits)} as a follow-up of job ${followUp.previousJobId}: ${plural(base)} (a quarter of the ${job.mode} price of ${plural(price)}) for starting from its ${pages} already read, plus its own metered work of ${workOf(outcome.costUsd)}; the brief cites ${outcome.citedSources} source${outcome.citedSources === 1 ? "" : "s"}.`,
    ),
  };
}

/**
 * The basis of a stored job whose result predates `charge_basis` (or that has no result yet): what
 * its row says, read under the same rule. A succeeded fixed-price job charged below its price was
 * charged its metered work because nothing it read addressed the question.
 */
export function rowChargeBasis(row: {
  mode: string;
  status: JobStatus;
  creditsCharged: number;
  creditsReserved: number;
  costUsdMicros: number;
  sourceCount: number | null;
}): ChargeBasis {
  const mode = (row.mode in MODES ? row.mode : "standard") as ResearchMode;
  const charged = money(row.creditsCharged);
  switch (row.status) {
    case "pending":
    case "running":
      return decideCharge({ mode, maxCredits: null, reservedCredits: row.creditsReserved }, { status: row.status, costUsd: row.costUsdMicros / 1_000_000 })
        .basis;
    case "failed":
      return decideCharge({ mode, maxCredits: null, reservedCredits: row.creditsReserved }, { status: "failed" }).basis;
    case "cancelled":
      return basis("cancelled", `Charged ${charged}, the metered work done before the cancel stopped the job.`);
  }
  const price = MODES[mode].fixedCredits;
  if (price === null) return basis("metered", `Charged ${charged}, its metered work: max mode is priced by the work done, at most max_credits.`);
  if (row.creditsCharged < price)
    return basis(
      "nothing_addressed",
      `Charged only its metered work, ${charged}, not the ${mode} price of ${plural(price)}: no source the job read addresses the question, so its brief cites none.`,
    );
  const sources = row.sourceCount ?? 0;
  return basis(
    "mode_price",
    `Charged the ${mode} price, ${charged}: the brief cites ${sources} source${sources === 1 ? " that addresses" : "s that address"} the question.`,
  );
}

const basis = (rule: ChargeRule, reason: string): ChargeBasis => ({ rule, reason });
/** Metered work as the dashboard writes it, in credits to two decimals ("8.7 credits"): what it came to, before any rounding up. */
const workOf = (costUsd: number) => `${(Math.round(costUsd * 10_000) / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} credits`;
const plural = (credits: number) => `${credits} credit${credits === 1 ? "" : "s"}`;
/** "60 credits ($0.60)", as the dashboard, the CLI and a cancel's message write a charge. */
const money = (credits: number) => `${plural(credits)} ($${(credits / 100).toFixed(2)})`;
