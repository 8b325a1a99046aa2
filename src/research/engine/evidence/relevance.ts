import type { EvidenceAnalysis } from "./analysis";
import { type Evidence, pageSaysWords, titleNames } from "./store";
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

/**
 * Whether anything read speaks to the question at all. A question that names something is
 * addressed when a page read is about it or a sentence names it, or failing that when a page read
 * is titled by one of the question's words ("How did United States tariffs change?" and a page
 * "McKinley Tariff"), or a strong passage holds most of its other words. "Who won the 2022 FIFA World Cup?" over presidential speeches is not: no
 * page names the cup, and "Tonight the cup of peril is full in Vietnam" is no evidence. A question
 * without names is judged addressed by any passage that scores.
 */
export function addressesQuestion(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence): boolean {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  if (ranked.length === 0) return false;
  if (analysis.entities.length === 0) return true;
  const named = analysis.entities.some((entity) => {
    const key = words(entity).join(" ");
    return evidence.docs.some((doc) => titleNames(doc.title, entity) || pageSaysWords(doc, key));
  });
  if (named) return true;
  const asked = new Set(query.terms.filter((term) => !query.speakerTerms.includes(term)));
  if (ranked.some((entry) => entry.doc.passages[0]?.titleTerms.some((term) => asked.has(term)))) return true;
  // Or a strong passage says most of what is asked besides the names ("the emancipation
  // proclamation" in an address whose title names no one): half of those terms, and two at least.
  const focus = new Set(query.focusTerms.filter((term) => !query.speakerTerms.includes(term)));
  const needed = Math.max(Math.ceil(focus.size / 2), 2);
  return (
    focus.size >= 2 &&
    ranked.slice(0, 10).some((entry) => entry.best.slice(0, 5).some((item) => new Set(item.passage.terms.filter((term) => focus.has(term))).size >= needed))
  );
}
