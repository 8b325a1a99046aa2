/** Credits as the CLI shows them: "60 credits ($0.60)". */
export function credits(amount: number): string {
  return `${amount} credit${amount === 1 ? "" : "s"} ($${(amount / 100).toFixed(2)})`;
}

/** A job's running cost: three decimals, as a job spends fractions of a cent per operation. */
export function usd(amount: number): string {
  return `$${amount.toFixed(3)}`;
}

export function seconds(ms: number | null): string {
  return ms === null ? "" : `${(ms / 1000).toFixed(1)} s`;
}
