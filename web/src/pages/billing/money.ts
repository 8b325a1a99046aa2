/** How the billing page writes amounts: USD from cents or micro-USD, credits with thousands separators. */

const wholeDollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const dollarsAndCents = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
// Per-credit prices are fractions of a cent ($0.009), so they keep up to four decimals.
const perCreditUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });

/** "$29" for whole dollars, "$4.50" otherwise. */
export function usdFromCents(cents: number): string {
  return (cents % 100 === 0 ? wholeDollars : dollarsAndCents).format(cents / 100);
}

/** The price of one credit of a pack: "$0.01". */
export function usdPerCredit(cents: number, credits: number): string {
  return credits > 0 ? perCreditUsd.format(cents / 100 / credits) : "—";
}

/** A per-credit rate given in micro-USD: 9000 → "$0.009". */
export function usdFromMicros(micros: number): string {
  return perCreditUsd.format(micros / 1_000_000);
}

export function credits(count: number): string {
  return count.toLocaleString("en-US");
}

export function day(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}
