import type { AnswerOutcome } from "../answer";
import type { EvidenceAnalysis, RankedDoc, ScoredPassage } from "../evidence";
import { BriefWriter, type Synthesis, type SynthesisOptions } from "./brief-writer";
import { writeOpeningParagraph } from "./opening-paragraph";
import type { QueryAnalysis } from "../question";
import { similarity } from "../evidence";
import { questionKeyTerms, respectsStance, sharesKeyTerm } from "../evidence";
import { hasFiniteVerb, terms } from "../language";
import { wantsSynthesis, writeOpenEndedBrief } from "./open-ended/brief";
import { openEndedCoverage, writeCoverage } from "./coverage";
import { pageAttribution } from "../evidence";

export { citationOf, type Statement, type Synthesis, type SynthesisOptions } from "./brief-writer";

/** Findings taken from one source at most. */
const PER_SOURCE = 3;
/** A page is cited beyond the answer's own pages only if it scores this share of the best page. */
const MIN_RELATIVE_SCORE = 0.5;
/** Pro and max read further and cite further down, still only pages with findings that carry the question's key terms. */
const MIN_RELATIVE_SCORE_DEEP = 0.25;
/** A finding scores at least this share of the strongest sentence (stricter under the critic). */
const MIN_FINDING_SCORE = 0.2;
const MIN_FINDING_SCORE_CRITIC = 0.3;
/** A finding this similar to one already said says the same thing. */
const SAME_THING = 0.6;

/** The whole brief when nothing read addresses the question: one sentence, no quote. */
const NOT_ADDRESSED = "None of the sources read addresses this question.";

/**
 * The offline brief. It opens with the short answer (see answer/: a fixed frame or "Answer: X.",
 * then the sentences it rests on); without one, with what was found and what is missing, or the
 * closest evidence; and when nothing read addresses the question, it says so in one sentence.
 * Then the supporting findings, grouped by the page they come from (one heading per subject
 * instead of its title in every bullet), each cited, none repeating another, none without an
 * entity or key term of the question.
 */
export function extractiveBrief(
  query: QueryAnalysis,
  analysis: EvidenceAnalysis,
  outcome: AnswerOutcome,
  addressed: boolean,
  options: SynthesisOptions,
): Synthesis {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  const writer = new BriefWriter(analysis);
  if (!addressed) {
    writer.paragraph().addUncited(NOT_ADDRESSED);
    return writer.finish(options);
  }
  if (ranked.length === 0) return writer.finish(options);

  // An open-ended question ("How did …", "What did … say about …", a comparison) gets a synthesis.
  if (wantsSynthesis(query)) {
    const overview = writeOpenEndedBrief(writer, query, ranked, options);
    // Pro and max say what each side or period of the question covers in what they read.
    if (options.deepens)
      writeCoverage(writer, openEndedCoverage(query, analysis), { pages: analysis.ranked.length, speakerOf: (doc) => speakerOf(analysis, doc) });
    return { ...writer.finish(options), ...(overview ? { overview } : {}) };
  }
  const keyTerms = questionKeyTerms(query, analysis);
  const chain = writeOpeningParagraph(writer, query, outcome, ranked, keyTerms);
  const deeper = writeFindings(writer, query, ranked, chain, keyTerms, options);
  // Pro and max read further: when no page beyond standard's cut added a finding, the brief says what the rest held.
  if (options.deepens && !deeper) writeCoverage(writer, null, { pages: analysis.ranked.length, speakerOf: (doc) => speakerOf(analysis, doc) });
  return writer.finish(options);
}

function speakerOf(analysis: EvidenceAnalysis, doc: number): string | null {
  const entry = analysis.ranked.find((candidate) => candidate.doc.index === doc);
  return entry ? pageAttribution(entry.doc.title, entry.doc.published_at).speaker : null;
}

/** The supporting findings, one group per page they come from, under the page's title. Returns whether a page below standard's cut was cited (pro and max). */
function writeFindings(
  writer: BriefWriter,
  query: QueryAnalysis,
  ranked: RankedDoc[],
  chain: RankedDoc[],
  keyTerms: Set<string>,
  options: SynthesisOptions,
): boolean {
  const pages = findingPages(ranked, chain, options);
  const strongest = Math.max(...pages.map((entry) => entry.best[0]?.score ?? 0), 1e-9);
  const floor = strongest * (options.critic ? MIN_FINDING_SCORE_CRITIC : MIN_FINDING_SCORE);
  const cut = (ranked[0]?.score ?? 0) * MIN_RELATIVE_SCORE;
  let deeper = false;
  for (const entry of pages) {
    const picked = pickFindings(writer, query, entry, chain.includes(entry), keyTerms, floor);
    if (picked.length === 0) continue;
    const group = writer.group(entry.doc.title);
    for (const item of picked.sort((a, b) => a.passage.position - b.passage.position)) group.add(item.passage.text, [item.passage]);
    if (!chain.includes(entry) && entry.score < cut) deeper = true;
  }
  return deeper;
}

/** Pages to draw findings from: the answer's own pages first, then pages that score well. */
function findingPages(ranked: RankedDoc[], chain: RankedDoc[], options: SynthesisOptions): RankedDoc[] {
  const top = ranked[0]!.score;
  const pages: RankedDoc[] = [...new Set(chain)];
  // Beyond the answer's pages, a few more that score close to the best: a brief, not a reading list.
  const extra = Math.max(2, Math.floor(options.maxSources / 3));
  const limit = Math.min(options.maxSources, pages.length + extra);
  const floor = top * (options.deepens ? MIN_RELATIVE_SCORE_DEEP : MIN_RELATIVE_SCORE);
  for (const entry of ranked) {
    if (pages.length >= limit) break;
    if (!pages.includes(entry) && entry.score >= floor) pages.push(entry);
  }
  return pages;
}

/** The few best sentences of a page that belong in the brief and say something it has not said yet. */
function pickFindings(writer: BriefWriter, query: QueryAnalysis, entry: RankedDoc, inChain: boolean, keyTerms: Set<string>, floor: number): ScoredPassage[] {
  // The answer's own pages were chosen for what they say about the hop: their best sentences
  // stand on their own, while other pages must score. The page a hop leads to is ranked on what
  // the question asks of it ("died", "position"): its best and lead sentences belong in the
  // brief even when they share no word with the question.
  const hopEnd = inChain && entry.via !== undefined;
  const own = inChain ? new Set([...keyTerms, ...terms(entry.doc.title)]) : keyTerms;
  const candidates = entry.best.slice(0, PER_SOURCE * 4).filter(
    (item, index) =>
      !writer.has(item.passage) &&
      (inChain ? item.score > 0 || item.passage.position < (hopEnd ? 3 : 1) : item.score >= floor) &&
      ((hopEnd && (index < 2 || item.passage.position < 3)) || sharesKeyTerm(item.passage, own)) &&
      respectsStance(item.passage, query) &&
      // A fragment ("The cost of being cast into a concentration camp.") states nothing.
      hasFiniteVerb(item.passage.text),
  );
  const picked: ScoredPassage[] = [];
  for (const item of candidates) {
    if (picked.length >= PER_SOURCE - (inChain ? 0 : 1)) break;
    if (writer.saysAlready(item.passage, SAME_THING) || picked.some((other) => similarity(item.passage.terms, other.passage.terms) > SAME_THING)) continue;
    picked.push(item);
  }
  return picked;
}
