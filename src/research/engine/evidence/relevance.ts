import type { EvidenceAnalysis } from "./analysis";
import type { QueryAnalysis } from "../question";
import type { Passage } from "./rank";
import { withRelations } from "../language";
import { stem, words } from "../language";

/** Entity words, asked terms and their relation words: what a sentence must share with the question to belong in the brief. */
export function questionKeyTerms(query: QueryAnalysis, analysis: EvidenceAnalysis): Set<string> {
  const keys = withRelations(query.terms);
  for (const entity of [...analysis.entities, ...analysis.bridgeEntities.slice(0, 4)]) for (const word of words(entity)) keys.add(stem(word));
  for (const term of query.speakerTerms) keys.delete(term);
  return keys;
}

export function sharesKeyTerm(passage: Passage, keys: Set<string>): boolean {
  return passage.terms.some((term) => keys.has(term));
}

/** "Which presidents argued for free silver?": a sentence led by the opposite stance is not an answer. */
export function respectsStance(passage: Passage, query: QueryAnalysis): boolean {
  if (!query.stance) return true;
  const own = new Set(passage.terms);
  const opposite = query.stance.opposite.some((term) => own.has(term));
  const wanted = query.stance.wanted.some((term) => own.has(term));
  return !opposite || wanted;
}
