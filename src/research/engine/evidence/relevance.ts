import type { EvidenceAnalysis } from "./analysis";
import { type Evidence, titleNames } from "./store";
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
 * Whether anything read speaks to the question at all. It does when a page read is about, or a
 * sentence names, one of the question's entities; or when a strong passage holds at least half
 * of the question's terms. "Who won the 2022 FIFA World Cup?" over presidential speeches has
 * neither: "Tonight the cup of peril is full in Vietnam" shares one word, and is no evidence.
 */
export function addressesQuestion(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence): boolean {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  if (ranked.length === 0) return false;
  const named = analysis.entities.some((entity) => {
    const key = words(entity).join(" ");
    return evidence.docs.some((doc) => titleNames(doc.title, entity) || (key.length > 0 && ` ${doc.mentionKeys.replace(/\n/g, " ")} `.includes(` ${key} `)));
  });
  if (named) return true;
  const asked = new Set(query.terms.filter((term) => !query.speakerTerms.includes(term)));
  if (asked.size === 0) return true;
  const needed = Math.ceil(asked.size / 2);
  return ranked.slice(0, 10).some((entry) =>
    entry.best.slice(0, 5).some((item) => new Set([...item.passage.terms, ...item.passage.titleTerms].filter((term) => asked.has(term))).size >= needed),
  );
}
