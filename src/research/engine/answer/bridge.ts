import type { Evidence, EvidenceAnalysis, Link, RankedDoc } from "../evidence";
import { titleRefersTo } from "../evidence";
import type { Passage } from "../evidence";
import type { QueryAnalysis } from "../question";
import { type AnswerSpan, findAnswer } from "./extract";

/**
 * The general path to an answer when the question is not a hop chain the fact patterns read:
 * the best page, the page it leads to through a name in its best passages (or the page that led
 * to it), and a third page when the second names one; the answer span of the asked type is
 * looked for along that chain.
 */
export interface AnswerChain {
  /** The pages, in the order the chain runs. */
  docs: RankedDoc[];
  /** The passages that link them: each names the next page of the chain. */
  links: Passage[];
  /** The answer, when one was found along the chain, and the page it was found on. */
  span: AnswerSpan | null;
  answerDoc: RankedDoc | undefined;
  /** The span that scored next, when it too stands on a page of the chain, and that page. */
  runnerUp: { span: AnswerSpan; doc: RankedDoc } | null;
}

/**
 * The chain of pages the answer runs through: the best page, and the page it leads to (or
 * the page that led to it). The answer is looked for at the chain's end first.
 */
export function answerChain(query: QueryAnalysis, analysis: EvidenceAnalysis, ranked: RankedDoc[], evidence: Evidence): AnswerChain {
  const lead = chainStart(analysis, ranked);
  const back = lead.via && ranked.find((entry) => entry.doc === lead.via!.doc);
  const forward = back ? undefined : hopFrom(lead, ranked);
  const pathDocs = back ? [back, lead] : forward ? [lead, forward.entry] : [lead];
  const linkPassages = back ? [lead.via!.passage] : forward ? [forward.link] : [];
  // Only an answer found along the chain is stated as the answer; elsewhere it is a guess.
  let found = findAnswer(query, ranked, analysis.entities, evidence, pathDocs[pathDocs.length - 1]);
  let answerDoc = found ? pathDocs.find((entry) => entry.doc.index === found!.passage.doc) : undefined;
  // A third page, when the chain's end names one that was read and holds the answer ("the
  // person after whom the capital of Wisconsin is named": Wisconsin -> Madison -> James Madison).
  const onward = answerDoc ? undefined : hopFrom(pathDocs[pathDocs.length - 1]!, ranked, pathDocs);
  const third = onward && findAnswer(query, ranked, analysis.entities, evidence, onward.entry);
  if (onward && third && third.passage.doc === onward.entry.doc.index) {
    pathDocs.push(onward.entry);
    linkPassages.push(onward.link);
    found = third;
    answerDoc = onward.entry;
  }
  const second = answerDoc ? found?.runnerUp : undefined;
  const secondDoc = second && pathDocs.find((entry) => entry.doc.index === second.passage.doc);
  return {
    docs: pathDocs,
    links: linkPassages,
    span: answerDoc ? found : null,
    answerDoc,
    runnerUp: second && secondDoc ? { span: second, doc: secondDoc } : null,
  };
}

/** The chain starts at a page about what the question names, when one ranks near the top. */
function chainStart(analysis: EvidenceAnalysis, ranked: RankedDoc[]): RankedDoc {
  // "the Prius" names the page "Toyota Prius": a title ending in the entity refers to it.
  const names = (entry: RankedDoc) => analysis.entities.some((entity) => titleRefersTo(entry.doc.title, entity));
  // Of the pages it names ("Bohemian Rhapsody" the song and the film), one that leads on.
  const named = ranked.slice(0, 5).filter((entry) => names(entry) && entry.score >= ranked[0]!.score * 0.5);
  const leadsOn = (entry: RankedDoc) => (entry.via && ranked.some((other) => other.doc === entry.via!.doc)) || hopFrom(entry, ranked) !== undefined;
  return named.find(leadsOn) ?? named[0] ?? ranked[0]!;
}

/**
 * The page the lead leads to: the best-ranked page reached as a hop through an entity the lead
 * names in its best passages (it may have been reached from another page too), with the lead's
 * passage that names it.
 */
function hopFrom(lead: RankedDoc, ranked: RankedDoc[], skip: RankedDoc[] = []): { entry: RankedDoc; link: Passage } | undefined {
  const candidates = ranked.filter((entry) => entry !== lead && entry.via && !skip.includes(entry));
  // Of the pages the lead names, the one named nearest to what the question asks through
  // ("Zidane scoring two headers ... and Petit adding a third" for "the player who scored twice").
  let nearest: { entry: RankedDoc; link: Link } | undefined;
  for (const entry of candidates) {
    for (const link of entry.links ?? []) if (link.doc === lead.doc && (!nearest || link.near > nearest.link.near)) nearest = { entry, link };
  }
  if (nearest) return { entry: nearest.entry, link: nearest.link.passage };
  for (const entry of candidates) {
    const entity = entry.via!.entity;
    const naming = lead.best.slice(0, 2).find((item) => item.passage.text.includes(entity));
    if (naming) return { entry, link: naming.passage };
  }
  return undefined;
}
