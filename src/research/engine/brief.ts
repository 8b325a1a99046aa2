import type { EvidenceAnalysis, RankedDoc, ScoredPassage } from "./analysis";
import { directAnswer } from "./answer";
import { cite } from "./citations";
import type { EvidenceDoc } from "./evidence";
import type { QueryAnalysis } from "./query";
import { similarity } from "./rank";
import { terms } from "./text";

export interface SourceDto {
  url: string;
  title: string;
  domain: string;
  summary?: string | null;
}

export interface Synthesis {
  brief: string;
  sources: SourceDto[];
  /** Cited docs, in source order (sources[i] is cited[i]). */
  cited: EvidenceDoc[];
  /** The sentences of the brief with the docs each cites, for typed output. */
  statements: { text: string; docs: number[] }[];
}

export interface SynthesisOptions {
  maxSources: number;
  includeSummaries: boolean;
  /** Pro and max: drop weak and redundant findings before writing. */
  critic: boolean;
}

/** Findings taken from one source at most, so the brief covers several sources. */
const PER_SOURCE = 3;

/** A finding (beyond a page's best sentence) scores at least this share of the strongest sentence. */
const MIN_FINDING_SCORE = 0.2;
const SHORT_PAGE = 12;
const MIN_FINDING_SCORE_CRITIC = 0.3;

/** A sentence counts as a finding only if it scores at least this share of the best one. */
const MIN_RELATIVE_SCORE = 0.3;

/**
 * The offline extractive brief: a direct answer where the evidence supports one, then the key
 * findings (best sentences by BM25, diversified with MMR), every sentence cited.
 */
export function extractiveBrief(query: QueryAnalysis, analysis: EvidenceAnalysis, options: SynthesisOptions): Synthesis {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  if (ranked.length === 0) return { brief: "", sources: [], cited: [], statements: [] };
  const top = ranked[0]!.score;
  const answer = directAnswer(query, ranked);

  // Sources to cite: the answer's pages first, then the best-ranked pages.
  const chosen: RankedDoc[] = [];
  const take = (entry: RankedDoc | undefined) => {
    if (entry && !chosen.includes(entry) && chosen.length < options.maxSources) chosen.push(entry);
  };
  for (const index of answer?.docs ?? []) take(ranked.find((entry) => entry.doc.index === index));
  for (const entry of ranked) if (entry.score >= top * MIN_RELATIVE_SCORE) take(entry);

  const numbers = new Map<number, number>();
  const number = (doc: EvidenceDoc) => {
    if (!numbers.has(doc.index)) numbers.set(doc.index, numbers.size + 1);
    return numbers.get(doc.index)!;
  };
  const statements: { text: string; docs: number[] }[] = [];
  const opening: string[] = [];
  const used = new Set<string>();

  if (answer) {
    const docs = answer.docs.filter((index) => chosen.some((entry) => entry.doc.index === index));
    opening.push(cite(answer.text, docs.map((index) => number(chosen.find((entry) => entry.doc.index === index)!.doc))));
    statements.push({ text: answer.text, docs });
  } else {
    // Open with the best-supported sentence; for a second hop, with the link and then the answer.
    const lead = chosen[0]!;
    if (lead.via && chosen.some((entry) => entry.doc === lead.via!.doc)) {
      opening.push(cite(lead.via.passage.text, [number(lead.via.doc)]));
      statements.push({ text: lead.via.passage.text, docs: [lead.via.doc.index] });
      used.add(lead.via.passage.text);
    }
    const best = lead.best[0];
    if (best) {
      opening.push(cite(attributed(lead.doc, best.passage.text), [number(lead.doc)]));
      statements.push({ text: best.passage.text, docs: [lead.doc.index] });
      used.add(best.passage.text);
    }
    // The lead page names the next hop ("... starring Shirley Temple as ..."): its page follows.
    const hop = chosen.slice(1, 3).find((entry) => entry.via?.doc === lead.doc && entry.best[0]);
    if (hop) {
      const hopBest = hop.best[0]!.passage.text;
      opening.push(cite(hopBest, [number(hop.doc)]));
      statements.push({ text: hopBest, docs: [hop.doc.index] });
      used.add(hopBest);
    }
  }

  // Key findings: a few best sentences per cited page, diversified, in rank order of pages.
  // Findings page by page, in rank order: each page's best sentences, diversified with MMR
  // against everything already said. A sentence of a long page must be relevant on its own
  // (not only sit in a relevant page); every sentence of a short page is about its subject.
  // The two best-ranked pages (where the answer and its link usually are) say one more.
  const strongest = Math.max(...chosen.flatMap((entry) => entry.best.slice(0, 1).map((item) => item.score)), 1e-9);
  const floor = strongest * (options.critic ? MIN_FINDING_SCORE_CRITIC : MIN_FINDING_SCORE);
  const findings: ScoredPassage[] = [];
  const said = statements.map((statement) => terms(statement.text));
  chosen.forEach((entry, rank) => {
    const candidates = entry.best
      .slice(0, PER_SOURCE * 3)
      .filter((item, index) => !used.has(item.passage.text) && (entry.doc.sentences.length <= SHORT_PAGE || onTopic(item, analysis.weights, index === 0 ? 0 : floor)));
    const quota = PER_SOURCE + (rank < 2 ? 1 : 0) - statements.filter((statement) => statement.docs.includes(entry.doc.index)).length;
    const picked = mmrAgainst(candidates, said, Math.max(0, quota), options.critic);
    for (const item of picked) {
      findings.push(item);
      said.push(item.passage.terms);
    }
  });
  const order = new Map(chosen.map((entry, index) => [entry.doc.index, index]));
  findings.sort((a, b) => (order.get(a.passage.doc)! - order.get(b.passage.doc)!) || a.passage.position - b.passage.position);
  const lines = findings.map((item) => {
    const doc = chosen.find((entry) => entry.doc.index === item.passage.doc)!.doc;
    statements.push({ text: item.passage.text, docs: [doc.index] });
    // A sentence lifted from a long source (a speech, a report) says whose words it is.
    return `- ${cite(attributed(doc, item.passage.text), [number(doc)])}`;
  });

  const cited = [...numbers.entries()].sort((a, b) => a[1] - b[1]).map(([index]) => chosen.find((entry) => entry.doc.index === index)!);
  const sources = cited.map((entry) => ({
    url: entry.doc.url,
    title: entry.doc.title,
    domain: entry.doc.domain,
    summary: options.includeSummaries ? summarize(entry) : null,
  }));
  const brief = [opening.join(" "), lines.join("\n")].filter(Boolean).join("\n\n");
  return { brief, sources, cited: cited.map((entry) => entry.doc), statements };
}

/**
 * A sentence of a long page is on topic when its own words (not only its page's title) carry at
 * least one full-weight question term, and it scores above the floor.
 */
function onTopic(item: ScoredPassage, weights: Map<string, number>, floor: number): boolean {
  const own = item.passage.terms.reduce((sum, term) => sum + (weights.get(term) ?? 0), 0);
  return own >= 1 && item.score >= floor;
}

/**
 * MMR within one page's sentences, also penalising overlap with what the brief already says.
 * The critic drops a sentence that mostly repeats one already kept.
 */
function mmrAgainst(candidates: ScoredPassage[], said: string[][], k: number, critic: boolean): ScoredPassage[] {
  const max = Math.max(...candidates.map((item) => item.score), 1e-9);
  const remaining = [...candidates];
  const chosen: ScoredPassage[] = [];
  const context = [...said];
  while (chosen.length < k && remaining.length > 0) {
    let bestIndex = -1;
    let bestValue = -Infinity;
    remaining.forEach((item, index) => {
      const redundancy = Math.max(0, ...context.map((other) => similarity(item.passage.terms, other)));
      if (critic && redundancy > 0.6) return;
      const value = 0.75 * (item.score / max) - 0.25 * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    if (bestIndex < 0) break;
    const [item] = remaining.splice(bestIndex, 1);
    chosen.push(item!);
    context.push(item!.passage.terms);
  }
  return chosen;
}

/** A sentence lifted from a long source (a speech, a report) says whose words it is. */
function attributed(doc: EvidenceDoc, sentence: string): string {
  return doc.sentences.length > SHORT_PAGE ? `${doc.title}: "${sentence}"` : sentence;
}

/** The 2-3 best sentences of a page, in the page's own order. */
export function summarize(entry: RankedDoc): string {
  const best = entry.best.slice(0, 3).filter((item, index) => index < 2 || item.score > 0);
  return best
    .sort((a, b) => a.passage.position - b.passage.position)
    .map((item) => item.passage.text)
    .join(" ");
}
