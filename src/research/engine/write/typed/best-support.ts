import type { Passage } from "../../evidence";

/** The passage of a page that holds the largest share of a text's content words, with that share (typed output's string values). */
export function bestSupport(claimTerms: string[], passages: Passage[]): { passage: Passage; support: number } | null {
  if (claimTerms.length === 0) return null;
  let best: { passage: Passage; support: number } | null = null;
  for (const passage of passages) {
    const own = new Set(passage.terms);
    const support = claimTerms.filter((term) => own.has(term)).length / claimTerms.length;
    if (!best || support > best.support) best = { passage, support };
  }
  return best;
}
