import type { AnswerConfidence } from "../../shapes";
import { type Evidence, type EvidenceAnalysis, type Passage, pageSaysWords, type RankedDoc } from "../evidence";
import type { HopAttribute, QueryAnalysis } from "../question";
import { stem, withRelations, words } from "../language";
import { answerChain } from "./bridge";
import { resolveChain } from "./chain";
import { compareByFacts } from "./comparison";
import { COUNTRIES, statedAttribute } from "./facts";
import { mentionAnswer } from "./mention";
import { directAnswer } from "./direct";
import { chainSentence, partialChainSentence, plainAnswerSentence } from "./templates";

/**
 * The short answer of a question and how far the evidence supports it. Three paths, most
 * trusted first:
 * 1. a hop chain the fact patterns read end to end (every hop and the asked attribute stated in
 *    a sentence of the right page): `high`, or `medium` where a hop named two entities;
 * 2. "Did X mention Y?" answered yes by the sentences of X's pages that say Y: `high`;
 *    a comparison decided on a stated fact of each side (question/comparison.ts): `high`, or
 *    `medium` where a hop named two entities; else a yes/no or a pick decided on the deciding
 *    fact of each subject's page (answer/direct.ts): `medium`, never a pick by word overlap;
 * 3. the span of the asked type found along the best chain of pages, for an open question whose
 *    own chain was not followed: `medium` only when a link leads to its page, it is no backdrop,
 *    and its sentence states the asked birth or death in a fact pattern next to what is asked.
 * Trust comes before coverage: below `medium` the engine states no answer (null) and the brief
 * shows the closest evidence instead.
 */

export interface AnswerFinding {
  text: string;
  confidence: AnswerConfidence;
  /** The opening sentence in the engine's words (a fixed frame, or "Answer: X."). */
  sentence: string;
  /** The passages the answer rests on, in chain order: each link, then the answer's own sentence. */
  basis: Passage[];
  /** Evidence indexes of the pages it runs through. */
  docs: number[];
}

export interface AnswerOutcome {
  answer: AnswerFinding | null;
  /** What a chain that did not close established, and what it misses (the brief opens with it). */
  partial: { sentence: string; basis: Passage[]; docs: number[] } | null;
  /** The pages the answer (or the closest evidence) runs through, and the passages linking them: the brief's findings start there. */
  chain: { docs: RankedDoc[]; links: Passage[] };
}

export function answerQuestion(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence): AnswerOutcome {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  const pagesOf = (indexes: number[]) =>
    indexes.map((index) => ranked.find((entry) => entry.doc.index === index)).filter((entry): entry is RankedDoc => entry !== undefined);
  let partial: AnswerOutcome["partial"] = null;
  // Whether the question's own chain was followed at least one hop: a looser path then answers the wrong hop.
  let chainFollowed = false;
  if (query.hops) {
    const resolved = resolveChain(query.hops, evidence);
    // A chain of three or more hops is beyond what the general path follows (two or three pages
    // by names in their best passages): it answered the author's birth date for the mother's.
    chainFollowed = resolved.steps.length > 1 || query.hops.relations.length > 1;
    const links = resolved.steps.flatMap((step) => (step.passage ? [step.passage] : []));
    const docs = resolved.steps.flatMap((step) => (step.doc ? [step.doc.index] : []));
    const last = resolved.steps[resolved.steps.length - 1]!;
    if (resolved.answer) {
      const ambiguous = resolved.steps.some((step) => step.ambiguous);
      const basis = [...new Set([...links, resolved.answer.passage])];
      const answerDocs = [...new Set([...docs, resolved.answer.passage.doc])];
      return {
        answer: {
          text: resolved.answer.text,
          confidence: ambiguous ? "medium" : "high",
          sentence: chainSentence(query.hops.subjectPhrase, last.entity, query.hops.attribute, resolved.answer.text),
          basis,
          docs: answerDocs,
        },
        partial: null,
        chain: { docs: pagesOf(answerDocs), links },
      };
    }
    if (resolved.steps.length > 1 && query.hops.relations.length === resolved.steps.length - 1) {
      partial = { sentence: partialChainSentence(query.hops.subjectPhrase, last.entity, query.hops.attribute), basis: links, docs };
    }
  }
  if (ranked.length === 0) return { answer: null, partial, chain: { docs: [], links: [] } };

  if (query.kind === "yes_no") {
    const mention = mentionAnswer(query.question, evidence);
    if (mention) return { answer: { ...mention, confidence: "high" }, partial, chain: { docs: pagesOf(mention.docs), links: [] } };
  }
  if (query.comparison) {
    const compared = compareByFacts(query.comparison, evidence);
    if (compared) return { answer: compared, partial, chain: { docs: pagesOf(compared.docs), links: [] } };
    // The comparison's shape was read but a side's fact was not: a guess from other words of the
    // pages (the older yes/no path) was right only about half the time on training questions.
    return { answer: null, partial, chain: { docs: ranked.slice(0, 2), links: [] } };
  }
  // "Was A or B born first?" asks which, not whether: a yes or no would answer nothing.
  if (query.kind === "yes_no" && /\bor\b/i.test(query.question) && !/\bboth\b/i.test(query.question))
    return { answer: null, partial, chain: { docs: ranked.slice(0, 2), links: [] } };
  const direct = directAnswer(query, ranked);
  // A pick made by counting the asked words on each option's page is a guess, not a stated fact.
  if (direct && !direct.byOverlap) {
    const docs = pagesOf(direct.docs);
    const basis = docs.map((entry, index) => entry.doc.passages[direct.sentences?.[index] ?? 0] ?? entry.doc.passages[0]!).filter(Boolean);
    return { answer: { text: direct.answer, confidence: "medium", sentence: direct.text, basis, docs: direct.docs }, partial, chain: { docs, links: [] } };
  }

  const chain = answerChain(query, analysis, ranked);
  const closest = { docs: chain.docs, links: chain.links };
  // A yes/no or a pick between options is answered by one of them, never by a span of the pages;
  // a question whose hop chain was followed but did not close is not answered by a looser path
  // either (it stated the author's birth date for "the mother of the author of Frankenstein").
  if (!chain.span || !chain.answerDoc || partial || query.kind !== "open" || chainFollowed) return { answer: null, partial, chain: closest };
  const end = chain.docs[chain.docs.length - 1]!;
  const links = chain.answerDoc === end ? chain.links : [];
  // The general path states an answer only where a link of the chain leads to the page that holds
  // it: a span on the first page is, as often as not, the bridge ("Woody Allen" for the actress
  // of his film) or a neighbour of the answer (on HotpotQA training questions, single-page spans
  // were right less than half the time).
  if (links.length === 0 || links.every((link) => link.doc === chain.span!.passage.doc)) return { answer: null, partial, chain: closest };
  if (isBackdrop(query, chain.span.text, evidence)) return { answer: null, partial, chain: closest };
  // Beyond the chains the question reader knows, an answer is stated only where its sentence
  // states the asked fact in a pattern the fact reader knows ("He was born in Omaha"): other
  // spans of the general path were right about half the time on training questions.
  const attribute = askedFact(query.question);
  if (!attribute || words(statedAttribute(chain.span.passage.text, attribute)?.value ?? "").join(" ") !== words(chain.span.text).join(" ")) {
    return { answer: null, partial, chain: closest };
  }
  const confidence = spanConfidence(query, chain.span.text, chain.span.passage, chain.answerDoc);
  if (confidence === "low") return { answer: null, partial, chain: closest };
  return {
    answer: {
      text: chain.span.text,
      confidence,
      sentence: plainAnswerSentence(chain.span.text),
      basis: [...links, chain.span.passage],
      docs: chain.docs.map((entry) => entry.doc.index),
    },
    partial,
    chain: closest,
  };
}

/** The fact a question asks when it asks a birth or death (of someone the question describes, not names). */
function askedFact(question: string): HopAttribute | null {
  const born = /\bborn\b|\bbirth/i.test(question);
  const died = /\b(?:die|died|death)\b/i.test(question);
  if (born === died) return null;
  const where =
    /^\s*(?:in |at )?(?:where|which|what)\b(?:\s+\w+)?\s+(?:city|town|village|country|state|place|island|suburb|county)\b|\bwhere\b|\bin (?:which|what) (?:city|town|village|country|state|place)\b|\b(?:place|city|town) of (?:birth|death)\b/i.test(
      question,
    );
  const when = /\bwhen\b|\b(?:what|which) (?:year|date|day)\b|\bdate of (?:birth|death)\b|\b(?:birth|death) ?date\b|\bbirthday\b/i.test(question);
  if (where === when) return null;
  if (born) return where ? "birth_place" : "birth_date";
  return where ? "death_place" : "death_date";
}

/**
 * A name that is the backdrop of what was read rather than its answer: a country where the
 * question does not ask for one ("United States" for "Who was president when ..."), or a name
 * three or more of the pages read mention ("Pacific", "Premier League"). Dates and numbers are
 * never backdrop.
 */
function isBackdrop(query: QueryAnalysis, span: string, evidence: Evidence): boolean {
  if (query.expects === "date" || query.expects === "year" || query.expects === "number") return false;
  const asksCountry = /\b(?:country|nation|nationality)\b/i.test(query.question);
  if (!asksCountry && (COUNTRIES.includes(span) || /^(?:U\.?S\.?A?|UK|United States of America)$/.test(span))) return true;
  const key = words(span).join(" ");
  const mentioning = evidence.docs.filter((doc) => pageSaysWords(doc, key)).length;
  return mentioning >= 3;
}

/** Words between the answer and the nearest word of what is asked, for the answer to count as stated with it. */
const STATED_WITHIN = 5;

/**
 * A span found by the general path is `medium` when its sentence says what is asked right next
 * to it (the asked relation or attribute within a few words) and speaks of its page's subject;
 * anything looser is `low`.
 */
function spanConfidence(query: QueryAnalysis, span: string, passage: Passage, page: RankedDoc): AnswerConfidence {
  const asked = withRelations(query.focusTerms.filter((term) => !query.linkTerms.includes(term)));
  if (asked.size === 0) return "low";
  const tokens = words(passage.text);
  const spanWords = words(span);
  const at = tokens.findIndex((_, index) => spanWords.every((word, offset) => tokens[index + offset] === word));
  if (at < 0) return "low";
  // Life dates in brackets state birth and death though no word says so ("Tomas Arnsby (March 3, 1702 – ...)").
  const lifeDate = (["birth_date", "death_date"] as const).some(
    (attribute) => asked.has(stem(attribute.split("_")[0]!)) && statedAttribute(passage.text, attribute)?.value === span,
  );
  const near =
    lifeDate || tokens.some((token, index) => asked.has(stem(token)) && (index < at ? at - index : index - (at + spanWords.length - 1)) <= STATED_WITHIN);
  const onSubject = passage.position === 0 || /^(?:He|She|It|They|His|Her|Its|Their)\b/.test(passage.text) || page.via !== undefined;
  return near && onSubject ? "medium" : "low";
}
