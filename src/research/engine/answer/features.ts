import { type Evidence, pageSaysWords, type Passage, type RankedDoc, titleRefersTo } from "../evidence";
import type { QueryAnalysis } from "../question";
import { stem, words } from "../language";
import type { DirectRule } from "./direct";
import { COUNTRIES, countryOf } from "./places";
import { askedKind, kindOfName } from "./name-kind";
import { cuesAskedNoun } from "./extract";
import type { AnswerPath } from "../answer-candidates";

/**
 * A candidate short answer, as one path of the engine produced it, and what that path saw while
 * producing it: the calibrated model (answer/calibrator.ts) turns these into the probability that
 * the answer is right. Every path proposes; none decides.
 */

export interface CandidateSignals {
  /** A hop named several entities ("directed by A and B"). */
  ambiguous?: boolean;
  /** Relations followed to reach it (a hop chain, or a comparison's longer side). */
  hops?: number;
  /** The direct path's deciding fact. */
  rule?: DirectRule;
  /** A comparison whose fact was not read on both sides (the direct path answered instead). */
  comparisonUnread?: boolean;
  /** Description path: the entity was described by a relative clause ("the woman who portrayed X"), not by relations. */
  clause?: boolean;
  /** General path: a link of the chain of pages leads to the page holding the span. */
  linked?: boolean;
  /** General path: the span is the backdrop of what was read (a country not asked for, a name three or more pages say). */
  backdrop?: boolean;
  /** General path: the span's sentence states the asked birth or death in a fact pattern of answer/facts.ts, or the asked count as that count (answer/counts.ts). */
  factPattern?: boolean;
  /** General and description paths: a word of what is asked stands within 5 words of the span. */
  near?: boolean;
  /** General path: how clearly the span outscored the runner-up (its share of both scores). */
  share?: number;
  /** The question's own hop chain was followed at least a hop (a looser path then answers the wrong hop). */
  chainFollowed?: boolean;
  /** The question's chain was read to its last page but no sentence there states the attribute. */
  partial?: boolean;
  /** General path: the span names an entity the question's chain passed through, or stands on the page of an earlier hop (of its chain, or of its description once that reached its entity) than the one asked. */
  wrongHop?: boolean;
}

export interface AnswerCandidate {
  path: AnswerPath;
  text: string;
  /** The opening sentence in the engine's words. */
  sentence: string;
  /** The passages it rests on, in chain order (the answer's own sentence last). */
  basis: Passage[];
  /** Evidence indexes of the pages it runs through. */
  docs: number[];
  /** The pages and links the brief starts from when this candidate is the answer. */
  chain: { docs: RankedDoc[]; links: Passage[] };
  signals: CandidateSignals;
  /**
   * The question as read where the answer stands, when that is not the question asked: a
   * described entity's ("What is the name of the waterfall in Zimbabwe?"). How well the answer
   * fits what is asked is measured against it, on what the answer is read in (its sentence and its page's lead).
   */
  asked?: { query: QueryAnalysis; passages: Passage[] };
}

/**
 * The model's inputs, in the order of the weights file. Each is 0/1 or a number in [0, 1]; the
 * weights file stores how each was scaled when it was trained. The `path_` and `rule_` features
 * are each path's and rule's own intercept (the training script barely penalises them).
 */
export const FEATURE_NAMES = [
  "path_chain",
  "path_mention",
  "path_comparison",
  "path_direct",
  "path_general",
  "path_description",
  "path_lead",
  "description_clause",
  "rule_overlap",
  "rule_attribute",
  "rule_nationality",
  "rule_birth_years",
  "rule_other_fact",
  "asks_person",
  "asks_place",
  "asks_date",
  "asks_number",
  "asks_entity",
  "asks_yes_no",
  "type_fit",
  "kind_fit",
  "kind_misfit",
  "names_asked_noun",
  "answer_no",
  "answer_words",
  "answer_country",
  "answer_has_page",
  "answer_in_question",
  "pages_saying_answer",
  "answer_page_rank",
  "answer_sentence_lead",
  "answer_sentence_on_subject",
  "question_said",
  "hops",
  "question_hops",
  "question_comparison",
  "ambiguous",
  "comparison_unread",
  "chain_followed",
  "partial",
  "wrong_hop",
  "linked",
  "backdrop",
  "fact_pattern",
  "fact_linked",
  "near",
  "said_near",
  "lead_linked_said",
  "share",
  "agreeing_paths",
  "disagreeing_paths",
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

export interface FeatureContext {
  query: QueryAnalysis;
  evidence: Evidence;
  /** The pages read that scored, best first. */
  ranked: RankedDoc[];
  /** Every candidate of the question (this one among them): agreement across paths. */
  candidates: readonly AnswerCandidate[];
}

const OTHER_FACTS: ReadonlySet<DirectRule> = new Set(["same_place", "measure", "start_year", "place"]);

/** The answer as compared across candidates: its words, lower case, without accents. */
export function answerKey(text: string): string {
  return words(text).join(" ");
}

/** Two answers that say the same: the same words, or a nationality and its country ("American", "United States"). */
function sameAnswer(a: string, b: string): boolean {
  return answerKey(a) === answerKey(b) || answerKey(countryOf(a)) === answerKey(countryOf(b));
}

/** Does the answer have the shape the question asks for (a year for "when", a name for "who", yes/no for a yes/no)? */
export function typeFits(query: QueryAnalysis, text: string): boolean {
  const yesNo = /^(?:yes|no)$/i.test(text.trim());
  switch (query.expects) {
    case "yes_no":
      return yesNo;
    case "date":
    case "year":
      return /\b\d{3,4}\b/.test(text);
    case "number":
      return /\d/.test(text) || /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|hundred|thousand|million|billion)\b/i.test(text);
    case "choice":
      return query.options.some((option) => answerKey(option) === answerKey(text));
    case "description":
      return !yesNo;
    default:
      // A name: capitalised, no digits, not yes/no.
      return !yesNo && /^\p{Lu}/u.test(text.trim()) && !/\d/.test(text);
  }
}

/** The page a passage is on, among those that scored, and its rank (0 for the best). */
function rankOf(ranked: readonly RankedDoc[], doc: number): number {
  return ranked.findIndex((entry) => entry.doc.index === doc);
}

/** A sentence speaks of its page's subject: the lead, a pronoun opening, or the subject's name. */
function onSubject(evidence: Evidence, passage: Passage): boolean {
  if (passage.position === 0 || /^(?:He|She|It|They|His|Her|Its|Their|Born|Died)\b/.test(passage.text)) return true;
  const doc = evidence.docs.find((entry) => entry.index === passage.doc);
  if (!doc) return false;
  const name = words(doc.title.replace(/\s*\([^)]*\)\s*$/, "")).filter((word) => word.length > 2);
  const said = new Set(words(passage.text));
  return name.some((word) => said.has(word));
}

const bit = (value: boolean | undefined) => (value ? 1 : 0);

/**
 * Whether a name answer holds the head of the noun the question asks ("what hedgehog" -> "…
 * Hedgehog"), or a word that marks that kind ("what government position" -> "Chief of
 * Protocol"); never for dates, counts or yes/no.
 */
function namesAskedNoun(query: QueryAnalysis, answerWords: string[]): boolean {
  const head = query.askedNoun[query.askedNoun.length - 1];
  if (!head || !["person", "place", "entity"].includes(query.expects)) return false;
  return answerWords.map(stem).includes(head) || cuesAskedNoun(query.askedNoun, answerWords);
}

/**
 * The share of the question's own terms (its names and what it asks, not the answer's words) that
 * the passages an answer rests on say: a span whose sentences restate the question ("How to Eat
 * is a 1998 book by Nigella Lawson" for "How to Eat, released in which year, is a book by the
 * celebrity cook Nigella …") is more often right than one in a sentence that shares a name only.
 */
function questionSaid(query: QueryAnalysis, candidate: AnswerCandidate): number {
  const answer = new Set(words(candidate.text).map(stem));
  const asked = [...new Set(query.terms)].filter((term) => !answer.has(term));
  if (asked.length === 0) return 0;
  // A described entity's answer restates the question about the entity where it is read: the
  // hops' sentences say the entity's name (and the description's words) whatever the answer.
  const basis = candidate.asked ? candidate.asked.passages : candidate.basis;
  const said = new Set(basis.flatMap((passage) => [...passage.terms, ...passage.titleTerms]));
  return asked.filter((term) => said.has(term)).length / asked.length;
}

/** The features of one candidate, by name. */
export function featureMap(candidate: AnswerCandidate, context: FeatureContext): Record<FeatureName, number> {
  const { query, evidence, ranked, candidates } = context;
  const { signals } = candidate;
  const key = answerKey(candidate.text);
  const yesNo = key === "yes" || key === "no";
  const last = candidate.basis[candidate.basis.length - 1];
  const rank = last ? rankOf(ranked, last.doc) : -1;
  const questionWords = new Set(words(query.question));
  const answerWords = words(candidate.text);
  const saying = yesNo || key === "" ? 0 : evidence.docs.filter((doc) => pageSaysWords(doc, key)).length;
  // Another path's reading agrees or disagrees; a span known to answer an earlier hop is no
  // reading of the question (it is never stated), so it does neither.
  const others = candidates.filter((other) => other !== candidate && other.path !== candidate.path && !other.signals.wrongHop);
  const expects = query.expects;
  // Whether the answer is a name of the kind asked ("who": a person), when both are known.
  const wanted = yesNo ? null : askedKind(query);
  const kind = wanted ? kindOfName(candidate.text, evidence) : null;
  // What the answer is measured against: the question as read where it stands.
  const asked = candidate.asked?.query ?? query;
  const said = questionSaid(asked, candidate);
  return {
    path_chain: bit(candidate.path === "chain"),
    path_mention: bit(candidate.path === "mention"),
    path_comparison: bit(candidate.path === "comparison"),
    path_direct: bit(candidate.path === "direct"),
    path_general: bit(candidate.path === "general"),
    path_description: bit(candidate.path === "description"),
    path_lead: bit(candidate.path === "lead"),
    description_clause: bit(signals.clause),
    rule_overlap: bit(signals.rule === "overlap"),
    rule_attribute: bit(signals.rule === "attribute"),
    rule_nationality: bit(signals.rule === "nationality"),
    rule_birth_years: bit(signals.rule === "birth_years"),
    rule_other_fact: bit(signals.rule !== undefined && OTHER_FACTS.has(signals.rule)),
    asks_person: bit(expects === "person"),
    asks_place: bit(expects === "place"),
    asks_date: bit(expects === "date" || expects === "year"),
    asks_number: bit(expects === "number"),
    asks_entity: bit(expects === "entity" || expects === "description"),
    asks_yes_no: bit(expects === "yes_no" || expects === "choice"),
    type_fit: bit(typeFits(query, candidate.text)),
    kind_fit: bit(kind !== null && kind === wanted),
    kind_misfit: bit(kind !== null && kind !== wanted),
    // "Sonic the Hedgehog" for "what hedgehog", "Anglican Church of Canada" for "of what church":
    // a name that says the noun asked (on training questions, right 5 times in 6).
    names_asked_noun: bit(namesAskedNoun(asked, answerWords)),
    answer_no: bit(key === "no"),
    answer_words: Math.min(answerWords.length, 6) / 6,
    answer_country: bit(COUNTRIES.includes(candidate.text.trim())),
    answer_has_page: bit(!yesNo && evidence.docs.some((doc) => titleRefersTo(doc.title, candidate.text))),
    answer_in_question: yesNo || answerWords.length === 0 ? 0 : answerWords.filter((word) => questionWords.has(word)).length / answerWords.length,
    pages_saying_answer: Math.min(saying, 5) / 5,
    answer_page_rank: rank < 0 ? 0 : 1 / (1 + rank),
    answer_sentence_lead: bit(last !== undefined && last.position < 3),
    answer_sentence_on_subject: bit(last !== undefined && onSubject(evidence, last)),
    question_said: said,
    hops: Math.min(signals.hops ?? 0, 3) / 3,
    question_hops: Math.min(query.hops?.relations.length ?? 0, 3) / 3,
    question_comparison: bit(query.comparison !== null),
    ambiguous: bit(signals.ambiguous),
    comparison_unread: bit(signals.comparisonUnread),
    chain_followed: bit(signals.chainFollowed),
    partial: bit(signals.partial),
    wrong_hop: bit(signals.wrongHop),
    linked: bit(signals.linked),
    backdrop: bit(signals.backdrop),
    fact_pattern: bit(signals.factPattern),
    // A fact stated in a pattern is worth most on the page a link leads to: elsewhere it is, as
    // often as not, a fact of someone else ("Birn was born in Helsinki" on the film's page).
    fact_linked: bit(signals.factPattern && signals.linked),
    near: bit(signals.near),
    // Both at once, which a sum of the two cannot say: the answer's sentences restate the question
    // and name what is asked right next to the span (on training questions, three in four right,
    // against one in two with either alone).
    said_near: signals.near ? said : 0,
    // The lead path's own reading of the same: a page the question's entity leads to whose lead
    // restates the question (on training questions, right 12 times in 13 when it says half of it).
    lead_linked_said: candidate.path === "lead" && signals.linked ? said : 0,
    share: signals.share ?? 0,
    agreeing_paths: Math.min(others.filter((other) => sameAnswer(other.text, candidate.text)).length, 2) / 2,
    disagreeing_paths: Math.min(others.filter((other) => !sameAnswer(other.text, candidate.text)).length, 2) / 2,
  };
}

const WRONG_HOP = FEATURE_NAMES.indexOf("wrong_hop");

/**
 * Whether a candidate may be stated at all, whatever its probability. A span on the page of an
 * earlier hop than the one asked never is: on the training splits 3 of 44 were right and none
 * reached 0.8, too few rows for the model to learn that a fact stated next to its link is still
 * someone else's (the author's birth date, for her mother's, reached 0.90 on an unseen question).
 */
export function mayBeStated(features: readonly number[]): boolean {
  return features[WRONG_HOP] !== 1;
}

/** The features of one candidate in the order of FEATURE_NAMES. */
export function candidateFeatures(candidate: AnswerCandidate, context: FeatureContext): number[] {
  const map = featureMap(candidate, context);
  return FEATURE_NAMES.map((name) => map[name]);
}
