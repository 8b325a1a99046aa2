import type { AnswerConfidence } from "../../shapes";
import type { Evidence, EvidenceAnalysis, Passage, RankedDoc } from "../evidence";
import type { AnswerSpan } from "./extract";
import type { QueryAnalysis } from "../question";
import { words } from "../language";
import { answerChain } from "./bridge";
import { ANSWER_MODEL, type AnswerModel, answerProbability, confidenceFor } from "./calibrator";
import { datedAnswer } from "./dated";
import { spokenByAnswer } from "./spoken-by";
import type { AnswerPath, ScoredCandidate } from "../answer-candidates";
import { type AnswerCandidate, type CandidateSignals, candidateFeatures, type FeatureContext, mayBeStated } from "./features";
import { type ChainStep, onEarlierHop, pageAbout, resolveChain } from "./chain";
import { compareByFacts } from "./comparison";
import { countryOf } from "./places";
import { placeAsWritten, statedAttribute } from "./facts";
import { askedFact, isBackdrop, spanStatement } from "./span-signals";
import { countedNouns, measureYears, statesCount } from "./counts";
import { mentionAnswer } from "./mention";
import { directAnswer } from "./direct";
import { describedAnswer, describedEntity } from "./description";
import { restatedLead } from "./restated-lead";
import { chainSentence, partialChainSentence, plainAnswerSentence } from "./templates";

/**
 * The short answer of a question and how likely it is to be right. Every path proposes its
 * candidate; a calibrated model (answer/calibrator.ts, learned on training questions) gives each
 * the probability that it is right, and the most probable is stated when that is 0.8 or more
 * (`medium`), 0.95 or more (`high`). The paths:
 * 1. a hop chain the fact patterns read end to end (every hop and the asked attribute stated in
 *    a sentence of the right page);
 * 2. "Did X mention Y?" answered yes by the sentences of X's pages that say Y (a lookup, stated
 *    `high` unscored: no training split asks it);
 * 3. a comparison decided on a stated fact of each side (question/comparison.ts), and a yes/no or
 *    a pick decided on the deciding fact of each subject's page (answer/direct.ts), or by the
 *    asked words each option's page holds;
 * 4. an entity the question only describes, reached hop by hop and asked of by name
 *    (answer/description.ts), and the page whose lead the question restates, its title the
 *    answer (answer/restated-lead.ts);
 * 5. the general path: the span of the asked type found along the best chain of pages, for an
 *    open question; what its old gates checked (a link leads to its page, it is no backdrop, its
 *    sentence states the asked fact next to what is asked) are now features of its probability.
 * Trust comes before coverage: below `medium` the engine states no answer (null) and the brief
 * shows the closest evidence instead.
 */

export interface AnswerFinding {
  text: string;
  confidence: AnswerConfidence;
  /** The estimated probability that the answer is right (answer/calibrator.ts); absent for a mention, which is looked up, not inferred. */
  probability?: number;
  /** The path that produced it ("dated" / "spoken_by": the year / speaker of the page whose sentence does what is asked, answer/dated.ts and spoken-by.ts). */
  path: AnswerPath | "dated" | "spoken_by";
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
  /** Every candidate answer with its features and probability, the stated one among them. */
  candidates?: ScoredCandidate[];
}

export function answerQuestion(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence, model: AnswerModel = ANSWER_MODEL): AnswerOutcome {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  const pagesOf = (indexes: number[]) =>
    indexes.map((index) => ranked.find((entry) => entry.doc.index === index)).filter((entry): entry is RankedDoc => entry !== undefined);
  const candidates: AnswerCandidate[] = [];
  let partial: AnswerOutcome["partial"] = null;
  // Whether the question's own chain was followed at least one hop: a looser path then answers the wrong hop.
  let chainFollowed = false;
  // The chain as far as it was read: a general span on one of its earlier hops answers the wrong hop.
  let resolvedSteps: ChainStep[] = [];
  const decide = (closest: AnswerOutcome["chain"]) => choose(candidates, { query, evidence, ranked }, partial, closest, model);
  if (query.hops) {
    const resolved = resolveChain(query.hops, evidence);
    resolvedSteps = resolved.steps;
    // A chain of three or more hops is beyond what the general path follows (two or three pages
    // by names in their best passages): it answered the author's birth date for the mother's.
    chainFollowed = resolved.steps.length > 1 || query.hops.relations.length > 1;
    const links = resolved.steps.flatMap((step) => (step.passage ? [step.passage] : []));
    const docs = resolved.steps.flatMap((step) => (step.doc ? [step.doc.index] : []));
    const last = resolved.steps[resolved.steps.length - 1]!;
    if (resolved.answer) {
      const answerDocs = [...new Set([...docs, resolved.answer.passage.doc])];
      // "What country was X a citizen of?" asks for the country, where a page says "Norwegian".
      const asksCountry = query.hops.attribute === "nationality" && /\bcitizen/i.test(query.question);
      candidates.push({
        path: "chain",
        text: asksCountry ? countryOf(resolved.answer.text) : resolved.answer.text,
        sentence: chainSentence(query.hops.subjectPhrase, last.entity, query.hops.attribute, resolved.answer.text),
        basis: [...new Set([...links, resolved.answer.passage])],
        docs: answerDocs,
        chain: { docs: pagesOf(answerDocs), links },
        signals: { ambiguous: resolved.steps.some((step) => step.ambiguous), hops: query.hops.relations.length },
      });
    } else if (resolved.steps.length > 1 && query.hops.relations.length === resolved.steps.length - 1) {
      partial = { sentence: partialChainSentence(query.hops.subjectPhrase, last.entity, query.hops.attribute), basis: links, docs };
    }
  }
  if (ranked.length === 0) return decide({ docs: [], links: [] });

  // "In which year did X do Y?" over pages of someone's own words: the year of the page whose
  // sentence does it. Read from the page's title, not inferred: stated `medium`, unscored, like a
  // mention (no training split asks it), and never `high` (the sentence itself states no year).
  // "Which president / who did Y?" likewise: the speaker of that page, read from its title.
  const dated = datedAnswer(query, ranked);
  const spoken = dated ? null : spokenByAnswer(query, ranked);
  const attributed = dated ?? spoken;
  if (attributed) {
    return {
      answer: { ...attributed, confidence: "medium", path: dated ? "dated" : "spoken_by" },
      partial,
      chain: { docs: pagesOf(attributed.docs), links: [] },
      candidates: [],
    };
  }
  if (query.kind === "yes_no") {
    const mention = mentionAnswer(query.question, evidence);
    if (mention) candidates.push({ path: "mention", ...mention, chain: { docs: pagesOf(mention.docs), links: [] }, signals: {} });
  }
  const pair = { docs: ranked.slice(0, 2), links: [] };
  let comparisonUnread = false;
  if (query.comparison) {
    const compared = compareByFacts(query.comparison, evidence);
    if (compared) {
      candidates.push({
        path: "comparison",
        text: compared.text,
        sentence: compared.sentence,
        basis: compared.basis,
        docs: compared.docs,
        chain: { docs: pagesOf(compared.docs), links: [] },
        signals: {
          // A hop that named two entities ("directed by A and B") is what makes a comparison `medium` there.
          ambiguous: compared.confidence !== "high",
          hops: Math.max(...query.comparison.sides.map((side) => side.relations.length)),
        },
      });
    }
    comparisonUnread = !compared;
  }
  // "Was A or B born first?" asks which, not whether: a yes or no would answer nothing.
  if (query.kind === "yes_no" && /\bor\b/i.test(query.question) && !/\bboth\b/i.test(query.question)) return decide(pair);
  const direct = directAnswer(query, ranked);
  if (direct) {
    const docs = pagesOf(direct.docs);
    const basis = docs.map((entry, index) => entry.doc.passages[direct.sentences?.[index] ?? 0] ?? entry.doc.passages[0]!).filter(Boolean);
    candidates.push({
      path: "direct",
      text: direct.answer,
      sentence: direct.text,
      basis,
      docs: direct.docs,
      chain: { docs, links: [] },
      signals: { rule: direct.rule, comparisonUnread },
    });
  }
  if (query.comparison) return decide(pair);

  // Both answer with a name found on a page, said in the plain frame: a described entity's
  // (its hops' sentences, then the answer's), and the page the question restates (its lead, then
  // the sentence of the question's entity that names it).
  const named = (
    path: AnswerPath,
    found: { text: string; basis: Passage[]; docs: number[] },
    links: Passage[],
    signals: CandidateSignals,
    asked?: { query: QueryAnalysis; passages: Passage[] },
  ) =>
    candidates.push({
      path,
      text: found.text,
      sentence: plainAnswerSentence(found.text),
      basis: found.basis,
      docs: found.docs,
      chain: { docs: pagesOf(found.docs), links },
      signals,
      ...(asked ? { asked } : {}),
    });
  // The entity a description reaches, read once for the two paths that ask of it.
  const reached = query.description && query.kind === "open" ? describedEntity(query.description, evidence) : null;
  const described = describedAnswer(query, evidence, reached);
  if (described) {
    named(
      "description",
      described,
      described.basis.slice(0, -1),
      {
        hops: described.steps.length - 1,
        share: described.share,
        near: described.near,
        linked: described.onEntityPage,
        clause: query.description?.clause !== undefined,
      },
      { query: described.asked, passages: described.frame },
    );
  }
  const lead = restatedLead(query, evidence, reached);
  if (lead) named("lead", lead, lead.basis.slice(1), { share: lead.share, linked: lead.linked });

  const chain = answerChain(query, analysis, ranked, evidence);
  const closest = { docs: chain.docs, links: chain.links };
  // A yes/no or a pick between options is answered by one of them, never by a span of the pages.
  // The span that scored best is proposed, and the runner-up too: the model, not the span score,
  // decides which of the two (if either) is stated.
  const end = chain.docs[chain.docs.length - 1];
  const attribute = askedFact(query.question);
  const counted = countedNouns(query.question);
  const countYears = measureYears(query.question);
  if (chain.span && chain.answerDoc && query.kind === "open") {
    const spans = [{ span: chain.span, doc: chain.answerDoc }, ...(chain.runnerUp ? [chain.runnerUp] : [])];
    for (const { span, doc } of spans) candidates.push(generalCandidate(span, doc));
  }
  return decide(closest);

  /**
   * Whether a span is someone else's once the question's description reached its entity: it
   * stands on the page of an earlier step ("29 July 1890", Vincent van Gogh's death on his own
   * page, for "the brother who financially supported the painter Vincent van Gogh"), as a chain's
   * span on an earlier hop is; and a count, which is its page's subject's, stands on another page
   * than the entity's ("What is the population of the state where Dodge City Regional Airport is
   * located?": the city's "population was 27,340").
   */
  function describedElsewhere(passage: Passage): boolean {
    if (!reached || reached.missing !== null || reached.steps.length < 2) return false;
    const final = reached.steps[reached.steps.length - 1]!;
    const earlier = reached.steps.slice(0, -1).some((step) => step.doc !== null && step.doc.index === passage.doc && step.doc !== final.doc);
    if (earlier) return true;
    if (query.expects !== "number") return false;
    const own = pageAbout(evidence, reached.entity);
    return own !== null && own.index !== passage.doc;
  }

  function generalCandidate(span: AnswerSpan, answerDoc: RankedDoc): AnswerCandidate {
    const links = answerDoc === end ? chain.links : [];
    const stated = spanStatement(query, span.text, span.passage, answerDoc);
    const text = query.expects === "place" ? placeAsWritten(span.passage.text, span.text, span.index) : span.text;
    return {
      path: "general",
      text,
      sentence: plainAnswerSentence(text),
      basis: [...links, span.passage],
      docs: chain.docs.map((entry) => entry.doc.index),
      chain: closest,
      signals: {
        chainFollowed,
        partial: partial !== null,
        // On HotpotQA training questions a span on the chain's first page was, as often as not,
        // the bridge ("Woody Allen" for the actress of his film) or a neighbour of the answer.
        linked: links.length > 0 && !links.every((link) => link.doc === span.passage.doc),
        backdrop: isBackdrop(query, span.text, evidence),
        factPattern:
          (attribute !== null && words(statedAttribute(span.passage.text, attribute)?.value ?? "").join(" ") === words(span.text).join(" ")) ||
          (query.expects === "number" && statesCount(span.passage.text, span.text, counted, countYears)),
        near: stated.near && stated.onSubject,
        share: span.share ?? 1,
        wrongHop: (query.hops !== null && onEarlierHop(query.hops, resolvedSteps, span.text, span.passage)) || describedElsewhere(span.passage),
      },
    };
  }
}

/**
 * The most probable candidate, stated when its probability earns `medium` or `high`; otherwise no
 * answer, and the brief opens with the closest evidence (or what a chain that did not close established).
 */
function choose(
  candidates: AnswerCandidate[],
  context: Omit<FeatureContext, "candidates">,
  partial: AnswerOutcome["partial"],
  closest: AnswerOutcome["chain"],
  model: AnswerModel,
): AnswerOutcome {
  // "Did X mention Y?" is a lookup of the words in X's own pages, not an inference, and no
  // training split asks such questions to learn its probability from: it is stated at `high`
  // unscored, as before the model.
  const mention = candidates.find((candidate) => candidate.path === "mention");
  if (mention) {
    return {
      answer: { text: mention.text, confidence: "high", path: "mention", sentence: mention.sentence, basis: mention.basis, docs: mention.docs },
      partial,
      chain: mention.chain,
      candidates: [],
    };
  }
  const scored = candidates.map((candidate) => {
    const features = candidateFeatures(candidate, { ...context, candidates });
    return { candidate, features, probability: answerProbability(features, model) };
  });
  const summary = scored.map(({ candidate, features, probability }) => ({ path: candidate.path, text: candidate.text, features, probability }));
  const stateable = scored.filter(({ features }) => mayBeStated(features));
  const best = stateable.reduce<(typeof scored)[number] | null>((top, entry) => (!top || entry.probability > top.probability ? entry : top), null);
  const confidence = best ? confidenceFor(best.probability, model) : null;
  if (!best || !confidence) {
    // A yes/no or a pick that was decided on each side's page but not stated: the closest evidence
    // is those pages and the sentences it was decided on, not the general chain's.
    const sided =
      best && (best.candidate.path === "direct" || best.candidate.path === "comparison")
        ? { docs: best.candidate.chain.docs, links: best.candidate.basis }
        : closest;
    return { answer: null, partial, chain: sided, candidates: summary };
  }
  const { candidate, probability } = best;
  return {
    answer: { text: candidate.text, confidence, probability, path: candidate.path, sentence: candidate.sentence, basis: candidate.basis, docs: candidate.docs },
    // A chain that closed says everything a partial one would.
    partial: candidate.path === "chain" ? null : partial,
    chain: candidate.chain,
    candidates: summary,
  };
}
