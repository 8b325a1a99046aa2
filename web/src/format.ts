/** How the dashboard writes numbers, money and times (one place, so every page reads alike). */

/** A count with thousands separators: 12,345. */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** Credits are whole numbers, written like counts. */
export const credits = count;

/** A ledger change with its sign: +250, -1,000. */
export function signedCredits(value: number): string {
  return `${value > 0 ? "+" : ""}${credits(value)}`;
}

/** US dollars from cents: $1.23. */
export function usdFromCents(cents: number): string {
  return dollars(cents / 100, 2);
}

/**
 * US dollars from micros. A job often costs a fraction of a cent, which two decimals would show as
 * $0.00, so amounts under a cent keep four decimals.
 */
export function usdFromMicros(micros: number): string {
  const amount = micros / 1_000_000;
  return dollars(amount, amount > 0 && amount < 0.01 ? 4 : 2);
}

function dollars(amount: number, decimals: number): string {
  return amount.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: decimals });
}

/** A date-time in the reader's locale and time zone. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** A duration in milliseconds as people read it: 850 ms, 12.4 s. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
