import type { ResearchQuote } from "../types.js";
import { count, credits } from "./format.js";

const COVERED_BY: Record<NonNullable<ResearchQuote["covered_by"]>, string> = {
  balance: "covered by the balance",
  plan_overage: "covered: your plan's overage pays what the balance lacks",
};

/**
 * A quote as --quote prints it on stdout: the price, the envelope, how the API answers, and
 * whether the balance covers it (with the message the submit's 402 would carry when it does not).
 */
export function quoteText(quote: ResearchQuote): string {
  const { price, limits, runs, balance } = quoteParts(quote);
  return [
    `Quote for a ${quote.mode} job (nothing was reserved or charged):`,
    `  price     ${price}`,
    `  envelope  ${limits}`,
    `  runs      ${runs}`,
    `  balance   ${balance}`,
  ].join("\n");
}

/** A quote's lines, each in words: --quote prints them all, `plan` its price, envelope and balance. */
export function quoteParts(quote: ResearchQuote): { price: string; limits: string; runs: string; balance: string } {
  const { envelope } = quote;
  const price = quote.metered
    ? `up to ${credits(quote.max_charge_credits)}, metered (charged its work; ${count(quote.credits_reserved, "credit")} reserved when submitted)`
    : `${credits(quote.max_charge_credits)}, fixed (reserved when submitted)`;
  const limits = `up to ${count(envelope.max_waves, "wave")}, ${count(envelope.max_searches, "search", "searches")}, ${count(envelope.max_pages, "page")}, ${envelope.max_wallclock_secs} s`;
  const runs = quote.runs === "sync" ? "sync (the API answers with the result)" : "async (the API answers 202; the job is followed to its result)";
  const balance = `${credits(quote.balance_credits)}: ${quote.covered_by ? COVERED_BY[quote.covered_by] : `NOT covered. ${quote.insufficient_credits ?? ""}`.trim()}`;
  return { price, limits, runs, balance };
}
