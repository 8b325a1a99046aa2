import type { AnswerOutcome } from "../answer";
import type { Passage, RankedDoc, ScoredPassage } from "../evidence";
import { respectsStance, sharesKeyTerm } from "../evidence";
import type { QueryAnalysis } from "../question";
import type { BriefWriter } from "./brief-writer";

/**
 * The brief's opening paragraph. With an answer: the answer in a fixed frame (or plainly,
 * "Answer: X."), then the sentences it rests on, verbatim. With a chain that did not close: what
 * was established and what is missing. Otherwise it says the sources do not answer directly and
 * quotes the closest evidence. Never a sentence made by splicing a span into the question's words.
 * Returns the pages the answer runs through (the findings start with them).
 */
export function writeOpeningParagraph(
  writer: BriefWriter,
  query: QueryAnalysis,
  outcome: AnswerOutcome,
  ranked: RankedDoc[],
  keyTerms: Set<string>,
): RankedDoc[] {
  const opening = writer.paragraph();
  const { answer, partial, chain } = outcome;
  const pagesOf = (docs: number[]) =>
    docs.map((index) => ranked.find((entry) => entry.doc.index === index)).filter((entry): entry is RankedDoc => entry !== undefined);
  if (answer) {
    opening.add(answer.sentence, answer.basis);
    // Then what it rests on, verbatim, unless the opening already quotes it.
    for (const passage of answer.basis) if (!answer.sentence.includes(passage.text)) opening.add(passage.text, [passage]);
    return pagesOf(answer.docs);
  }
  if (partial) {
    opening.add(partial.sentence, partial.basis);
    for (const passage of partial.basis) opening.add(passage.text, [passage]);
    return pagesOf(partial.docs);
  }
  stateClosestEvidence(opening, query, chain.docs, chain.links, keyTerms);
  return chain.docs;
}

/** No answer: say so, then the sentences that come closest (the chain's link and its end's best sentence). */
function stateClosestEvidence(
  opening: ReturnType<BriefWriter["paragraph"]>,
  query: QueryAnalysis,
  docs: RankedDoc[],
  links: Passage[],
  keyTerms: Set<string>,
): void {
  const end = docs[docs.length - 1];
  const linkPassage = links[links.length - 1];
  // A sentence, not a heading the page ran into its text ("PANAMA CANAL"): a heading has no lower case.
  const isHeading = (passage: Passage) => !/\p{Ll}/u.test(passage.text);
  const closestOn = (page: RankedDoc) =>
    page.best.find((candidate) => sharesKeyTerm(candidate.passage, keyTerms) && respectsStance(candidate.passage, query) && !isHeading(candidate.passage)) ??
    page.best[0];
  const item = end && closestOn(end);
  // A yes/no or a pick weighs two pages: the closest evidence is each side's sentence (the ones it
  // was decided on, when a path decided it without the confidence to state it), not one side's
  // ("The Rhine is about 1,230 km long" alone says nothing of the Thames).
  if (query.kind !== "open" && docs.length > 1) {
    const sides =
      links.length > 1
        ? links
        : docs.slice(0, 2).flatMap((page) => {
            const closest = closestOn(page);
            return closest ? [closest.passage] : [];
          });
    opening.addUncited("The sources read do not answer this directly; the closest evidence:");
    for (const passage of sides) opening.add(passage.text, [passage]);
    return;
  }
  // An open-ended question may be answered by a sentence carrying its key terms; a question that wants a
  // place, date, number or person is not answered by the closest evidence.
  const typed = query.expects !== "entity" && query.expects !== "description";
  if (!item && !linkPassage) {
    opening.addUncited("The sources read do not answer this question.");
    return;
  }
  if (!item || typed || !answersOnItsOwn(item, keyTerms)) opening.addUncited("The sources read do not answer this directly; the closest evidence:");
  if (linkPassage) opening.add(linkPassage.text, [linkPassage]);
  if (item && item.passage !== linkPassage) opening.add(item.passage.text, [item.passage]);
}

/** A sentence answers on its own when it carries the question's key terms (with its page's subject, which it is about). */
function answersOnItsOwn(item: ScoredPassage, keys: Set<string>): boolean {
  const own = new Set([...item.passage.terms, ...item.passage.titleTerms]);
  const shared = [...keys].filter((term) => own.has(term)).length;
  return shared >= Math.min(2, keys.size);
}
