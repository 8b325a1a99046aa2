import type { EvidenceAnalysis, Link, RankedDoc, ScoredPassage } from "../evidence";
import { directAnswer } from "../answer";
import type { BriefWriter } from "./brief-writer";
import { titleRefersTo } from "../evidence";
import { type AnswerSpan, findAnswer } from "../answer";
import type { QueryAnalysis } from "../question";
import type { Passage } from "../evidence";
import { respectsStance, sharesKeyTerm } from "../evidence";
import { restate } from "./restate";

type Paragraph = ReturnType<BriefWriter["paragraph"]>;

/**
 * The brief's opening paragraph: one sentence that answers the question where the evidence
 * gives the answer, followed by the sentences it rests on, or, when nothing answers it, the
 * closest evidence. Returns the pages the answer runs through (the findings start with them).
 */
export function writeOpening(writer: BriefWriter, query: QueryAnalysis, analysis: EvidenceAnalysis, ranked: RankedDoc[], keyTerms: Set<string>): RankedDoc[] {
  const opening = writer.paragraph();
  const direct = directAnswer(query, ranked);
  if (direct) {
    const docs = direct.docs.map((index) => ranked.find((entry) => entry.doc.index === index)!).filter(Boolean);
    opening.add(
      direct.text,
      docs.map((entry, index) => entry.doc.passages[direct.sentences?.[index] ?? 0] ?? entry.doc.passages[0]!).filter(Boolean),
    );
    return docs;
  }
  const chain = answerChain(query, analysis, ranked);
  stateChainAnswer(opening, query, chain, keyTerms);
  return chain.docs;
}

interface AnswerChain {
  /** The pages, in the order the chain runs. */
  docs: RankedDoc[];
  /** The passages that link them: each names the next page of the chain. */
  links: Passage[];
  /** The answer, when one was found along the chain, and the page it was found on. */
  span: AnswerSpan | null;
  answerDoc: RankedDoc | undefined;
}

/**
 * The chain of pages the answer runs through: the best page, and the page it leads to (or
 * the page that led to it). The answer is looked for at the chain's end first.
 */
function answerChain(query: QueryAnalysis, analysis: EvidenceAnalysis, ranked: RankedDoc[]): AnswerChain {
  const lead = chainStart(analysis, ranked);
  const back = lead.via && ranked.find((entry) => entry.doc === lead.via!.doc);
  const forward = back ? undefined : hopFrom(lead, ranked);
  const pathDocs = back ? [back, lead] : forward ? [lead, forward.entry] : [lead];
  const linkPassages = back ? [lead.via!.passage] : forward ? [forward.link] : [];
  // Only an answer found along the chain is stated as the answer; elsewhere it is a guess.
  let found = findAnswer(query, ranked, analysis.entities, pathDocs[pathDocs.length - 1]);
  let answerDoc = found ? pathDocs.find((entry) => entry.doc.index === found!.passage.doc) : undefined;
  // A third page, when the chain's end names one that was read and holds the answer ("the
  // person after whom the capital of Wisconsin is named": Wisconsin -> Madison -> James Madison).
  const onward = answerDoc ? undefined : hopFrom(pathDocs[pathDocs.length - 1]!, ranked, pathDocs);
  const third = onward && findAnswer(query, ranked, analysis.entities, onward.entry);
  if (onward && third && third.passage.doc === onward.entry.doc.index) {
    pathDocs.push(onward.entry);
    linkPassages.push(onward.link);
    found = third;
    answerDoc = onward.entry;
  }
  return { docs: pathDocs, links: linkPassages, span: answerDoc ? found : null, answerDoc };
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

/**
 * The answer found along the chain, restated in the engine's own words, then what it rests on;
 * or, when the chain holds none, the closest evidence at the chain's end.
 */
function stateChainAnswer(opening: Paragraph, query: QueryAnalysis, chain: AnswerChain, keyTerms: Set<string>): void {
  const end = chain.docs[chain.docs.length - 1]!;
  const linkPassage = chain.links[chain.links.length - 1];
  const { span, answerDoc } = chain;
  if (span && answerDoc) {
    const links = answerDoc === end ? chain.links : [];
    const sentence = restate(query.question, span.text, query.expects) ?? `The answer is ${span.text}.`;
    opening.add(sentence, [span.passage, ...links]);
    // Then what it rests on: the links (each page that named the next hop) and the answer's sentence.
    for (const link of links) opening.add(link.text, [link]);
    opening.add(span.passage.text, [span.passage]);
  } else {
    const item = end.best.find((candidate) => sharesKeyTerm(candidate.passage, keyTerms) && respectsStance(candidate.passage, query)) ?? end.best[0];
    // A question that wants a place, date, number or person has no answer when none was found
    // along the chain; an open one may be answered by a sentence carrying its key terms.
    const typed = query.expects !== "entity" && query.expects !== "description";
    if (item && (typed || !answersOnItsOwn(item, keyTerms))) opening.addUncited("The sources read do not answer this directly; the closest evidence:");
    if (linkPassage) opening.add(linkPassage.text, [linkPassage]);
    if (item) opening.add(item.passage.text, [item.passage]);
    if (!item && !linkPassage) opening.addUncited("The sources read do not answer this question.");
  }
}

/** A sentence answers on its own when it carries the question's key terms (with its page's subject, which it is about). */
function answersOnItsOwn(item: ScoredPassage, keys: Set<string>): boolean {
  const own = new Set([...item.passage.terms, ...item.passage.titleTerms]);
  const shared = [...keys].filter((term) => own.has(term)).length;
  return shared >= Math.min(2, keys.size);
}
