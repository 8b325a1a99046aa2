import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { credits, usdFromCents } from "../../format";

/** How long the form must rest before it is priced: a quote per pause, not per keystroke. */
const SETTLE_MS = 400;

/** `value` once it has not changed for SETTLE_MS (a string, so a re-render with equal content is no change). */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The price before Run (POST /api/playground/research/quote): what the request will reserve and
 * charge at most, the envelope it runs within, and whether the balance (or the plan) covers it.
 * Nothing is reserved or written by asking.
 */
export function PriceQuote({ body }: { body: Schemas["ResearchRequest"] | null }) {
  const settled = JSON.parse(useSettled(JSON.stringify(body))) as Schemas["ResearchRequest"] | null;
  const quote = useQuery({
    queryKey: ["quote", settled],
    queryFn: () => dataOf(api.POST("/api/playground/research/quote", { body: settled! })),
    enabled: settled !== null && settled.question.trim() !== "",
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!settled || settled.question.trim() === "") return null;
  if (quote.isError)
    return (
      <p className="muted" aria-label="Price">
        {quote.error instanceof Error ? quote.error.message : "This request cannot be priced yet."}
      </p>
    );
  if (!quote.data) return null;
  const q = quote.data;
  const { envelope } = q;
  return (
    <p className={q.covered ? "muted" : "card"} aria-label="Price" role="status">
      Reserves <strong>{credits(q.credits_reserved)} credits</strong> ({usdFromCents(q.credits_reserved)}) and charges at most that
      {q.metered ? " (metered)" : ""}: up to {envelope.max_waves} wave{envelope.max_waves === 1 ? "" : "s"}, {envelope.max_searches} searches,{" "}
      {envelope.max_pages} pages, {envelope.max_wallclock_secs} s.{" "}
      {q.covered
        ? q.covered_by === "plan_overage"
          ? `Your balance (${credits(q.balance_credits)}) is short; your plan's overage covers the rest.`
          : `Your balance (${credits(q.balance_credits)}) covers it.`
        : q.insufficient_credits}
    </p>
  );
}
