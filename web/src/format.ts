/**
 * How the dashboard writes numbers, money and times: one place, so every page reads alike. Where
 * pages want different output on purpose (a price list drops ".00"; a billing rate keeps its
 * fractions of a cent), each variant has its own name here rather than a page-local twin.
 */

/** A count with thousands separators: 12,345. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** Credits are whole numbers, written like counts. */
export const credits = count;

/**
 * A job's metered work (its `cost_usd`) in credits, at 1 credit = $0.01, to two decimals: $0.017 is
 * 1.7. Metered work is shown in credits, the unit customers pay in, so no dollar figure beside a
 * charge reads as a second price.
 */
export function workCredits(usd: number): string {
  return (usd * 100).toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** A ledger change with its sign: +250, -1,000. */
export function signedCredits(value: number): string {
  return `${value > 0 ? "+" : ""}${credits(value)}`;
}

/** US dollars from cents, always with the cents: $29.00, $4.50. */
export function usdFromCents(cents: number): string {
  return dollars(cents / 100, 2, 2);
}

/** US dollars from cents as a price list writes them: $29 for whole dollars, $4.50 otherwise. */
export function usdFromCentsCompact(cents: number): string {
  return cents % 100 === 0 ? dollars(cents / 100, 0, 0) : usdFromCents(cents);
}

/**
 * US dollars from micros. A job often costs a fraction of a cent, which two decimals would show as
 * $0.00, so amounts under a cent keep four decimals.
 */
export function usdFromMicros(micros: number): string {
  const amount = micros / 1_000_000;
  return dollars(amount, 2, amount > 0 && amount < 0.01 ? 4 : 2);
}

/**
 * US dollars from micros with up to four decimals whatever the amount ($0.009, $1.2345): billing
 * rates are fractions of a cent per credit, and what they add up to keeps the same precision.
 */
export function usdFromMicrosPrecise(micros: number): string {
  return dollars(micros / 1_000_000, 2, 4);
}

/** The price of one credit of a pack, with up to four decimals: $0.01, $0.0125. */
export function usdPerCredit(cents: number, creditCount: number): string {
  return creditCount > 0 ? dollars(cents / 100 / creditCount, 2, 4) : "—";
}

function dollars(amount: number, minDecimals: number, maxDecimals: number): string {
  return amount.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals });
}

/** A date-time in the reader's locale and time zone. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** A date-time with the month spelled out, in the reader's time zone: Jan 5, 2025, 3:04 PM. */
export function whenWithMonthName(iso: string): string {
  return new Date(iso).toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

/** A date (no time) in the reader's locale and time zone. */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString();
}

/** A date (no time) with the month spelled out: Jan 5, 2025. */
export function dayWithMonthName(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

/** Bytes as people read them: 12.4 KB, 3.1 MB. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Bytes as a bare number of megabytes (1024 × 1024, as the plans' quotas are set) with one decimal: 3.1. */
export function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toLocaleString("en-US", { maximumFractionDigits: 1 });
}

/** A duration in milliseconds as people read it: 850 ms, 12.4 s. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
