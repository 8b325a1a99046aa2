/** "1 source", "2 sources": a count with its noun, singular for one. */
export function count(amount: number, noun: string, plural = `${noun}s`): string {
  return `${amount} ${amount === 1 ? noun : plural}`;
}

/** Credits as the CLI shows them: "60 credits ($0.60)". */
export function credits(amount: number): string {
  return `${count(amount, "credit")} ($${(amount / 100).toFixed(2)})`;
}

/** A job's running cost: three decimals, as a job spends fractions of a cent per operation. */
export function usd(amount: number): string {
  return `$${amount.toFixed(3)}`;
}

export function seconds(ms: number | null): string {
  return ms === null ? "" : `${(ms / 1000).toFixed(1)} s`;
}
