/**
 * What the write stage did with a model's writing: every claim the model wrote and the
 * short answer it gave, each kept or dropped, and why. Operators read it on the admin job detail
 * and `npm run eval` sums it (the share of the model's claims kept, and the reasons for the rest).
 * Null for a job written offline.
 */
export interface WriteReport {
  /** Every claim of the model's first write, in its order. */
  claims: WrittenClaimReport[];
  /** The model's short answer, if it gave one. */
  answer: { text: string; kept: boolean; reason: string | null } | null;
  /** Model calls the write made: 1, or 2 when claims went back to the model to be revised. */
  calls: number;
}

export interface WrittenClaimReport {
  text: string;
  kept: boolean;
  /** It failed its first check and was sent back to the model (kept: the revision checked). */
  revised: boolean;
  /** Why it was sent back or dropped ("the quote is not in source 3", "1898 is in none of its quotes"); null when it checked at once. */
  reason: string | null;
}
