import type { CitationDto, SourceDto } from "../shapes";
import type { EvidenceAnalysis, RankedDoc, ScoredPassage } from "./analysis";
import { cite } from "./citations";
import type { EvidenceDoc } from "./evidence";
import { writeOpening } from "./opening";
import type { QueryAnalysis } from "./query";
import type { Passage } from "./rank";
import { similarity } from "./rank";
import { questionKeyTerms, respectsStance, sharesKeyTerm } from "./relevance";
import { terms } from "./text";

export type { CitationDto, SourceDto } from "../shapes";

/** A sentence of the brief and the passages it rests on. */
export interface Statement {
  text: string;
  /** Evidence indexes of the docs it cites. */
  docs: number[];
  passages: Passage[];
}

export interface Synthesis {
  brief: string;
  sources: SourceDto[];
  /** Cited docs, in source order (sources[i] is cited[i]). */
  cited: EvidenceDoc[];
  /** The sentences of the brief with what they rest on (typed output and citations use them). */
  statements: Statement[];
  citations: CitationDto[];
}

export interface SynthesisOptions {
  maxSources: number;
  includeSummaries: boolean;
  /** Pro and max: drop weak and redundant findings before writing. */
  critic: boolean;
}

/** Findings taken from one source at most. */
const PER_SOURCE = 3;
/** A page is cited beyond the answer's own pages only if it scores this share of the best page. */
const MIN_RELATIVE_SCORE = 0.5;
/** A finding scores at least this share of the strongest sentence (stricter under the critic). */
const MIN_FINDING_SCORE = 0.2;
const MIN_FINDING_SCORE_CRITIC = 0.3;
/** A finding this similar to one already said says the same thing. */
const SAME_THING = 0.6;

/**
 * The offline brief. It opens with one sentence that answers the question in the engine's own
 * words where the evidence gives the answer (a yes/no with the deciding fact, a pick between two
 * options, or the entity, date, number or place asked for, restated from the question), followed
 * by the sentences it rests on; when nothing answers it, it says so. Then the supporting findings,
 * grouped by the page they come from (one heading per subject instead of its title in every
 * bullet), each cited, none repeating another, none without an entity or key term of the question.
 */
export function extractiveBrief(query: QueryAnalysis, analysis: EvidenceAnalysis, options: SynthesisOptions): Synthesis {
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  const writer = new BriefWriter(analysis);
  if (ranked.length === 0) return writer.finish(options);

  const keyTerms = questionKeyTerms(query, analysis);
  const chain = writeOpening(writer, query, analysis, ranked, keyTerms);
  writeFindings(writer, query, ranked, chain, keyTerms, options);
  return writer.finish(options);
}

/** The supporting findings, one group per page they come from, under the page's title. */
function writeFindings(writer: BriefWriter, query: QueryAnalysis, ranked: RankedDoc[], chain: RankedDoc[], keyTerms: Set<string>, options: SynthesisOptions): void {
  const pages = findingPages(ranked, chain, options);
  const strongest = Math.max(...pages.map((entry) => entry.best[0]?.score ?? 0), 1e-9);
  const floor = strongest * (options.critic ? MIN_FINDING_SCORE_CRITIC : MIN_FINDING_SCORE);
  for (const entry of pages) {
    const picked = pickFindings(writer, query, entry, chain.includes(entry), keyTerms, floor);
    if (picked.length === 0) continue;
    const group = writer.group(entry.doc.title);
    for (const item of picked.sort((a, b) => a.passage.position - b.passage.position)) group.add(item.passage.text, [item.passage]);
  }
}

/** Pages to draw findings from: the answer's own pages first, then pages that score well. */
function findingPages(ranked: RankedDoc[], chain: RankedDoc[], options: SynthesisOptions): RankedDoc[] {
  const top = ranked[0]!.score;
  const pages: RankedDoc[] = [...new Set(chain)];
  // Beyond the answer's pages, a few more that score close to the best: a brief, not a reading list.
  const extra = Math.max(2, Math.floor(options.maxSources / 3));
  const limit = Math.min(options.maxSources, pages.length + extra);
  for (const entry of ranked) {
    if (pages.length >= limit) break;
    if (!pages.includes(entry) && entry.score >= top * MIN_RELATIVE_SCORE) pages.push(entry);
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
      respectsStance(item.passage, query),
  );
  const picked: ScoredPassage[] = [];
  for (const item of candidates) {
    if (picked.length >= PER_SOURCE - (inChain ? 0 : 1)) break;
    if (writer.saysAlready(item.passage, SAME_THING) || picked.some((other) => similarity(item.passage.terms, other.passage.terms) > SAME_THING)) continue;
    picked.push(item);
  }
  return picked;
}

interface Block {
  heading: string | null;
  bullets: boolean;
  lines: { text: string; passages: Passage[]; cited: boolean }[];
}

/**
 * Collects the brief's paragraphs, numbers sources in order of first citation (so `sources` is
 * in citation order and every [n] resolves), and writes one citation per claim and passage.
 */
export class BriefWriter {
  private readonly blocks: Block[] = [];
  private readonly used = new Set<Passage>();
  private readonly said: string[][] = [];

  constructor(private readonly analysis: EvidenceAnalysis) {}

  paragraph() {
    return this.block(null, false);
  }

  /** A list of findings, under a heading (the subject they are about) or none. */
  group(heading: string | null) {
    return this.block(heading, true);
  }

  has(passage: Passage): boolean {
    return this.used.has(passage);
  }

  saysAlready(passage: Passage, threshold: number): boolean {
    return this.said.some((other) => similarity(passage.terms, other) > threshold);
  }

  private block(heading: string | null, bullets: boolean) {
    const block: Block = { heading, bullets, lines: [] };
    this.blocks.push(block);
    return {
      add: (text: string, passages: Passage[]) => {
        block.lines.push({ text, passages, cited: true });
        for (const passage of passages) this.used.add(passage);
        this.said.push(terms(text));
      },
      addUncited: (text: string) => block.lines.push({ text, passages: [], cited: false }),
    };
  }

  finish(options: SynthesisOptions): Synthesis {
    const docs = new Map<number, EvidenceDoc>();
    for (const entry of this.analysis.ranked) docs.set(entry.doc.index, entry.doc);
    const numbers = new Map<number, number>();
    const number = (doc: number) => {
      if (!numbers.has(doc)) numbers.set(doc, numbers.size + 1);
      return numbers.get(doc)!;
    };
    const statements: Statement[] = [];
    const citations: CitationDto[] = [];
    const paragraphs: string[] = [];
    for (const block of this.blocks) {
      if (block.lines.length === 0) continue;
      const written = block.lines.map((line) => {
        if (!line.cited) return line.text;
        const docIndexes = [...new Set(line.passages.map((passage) => passage.doc))];
        const markers = docIndexes.map(number);
        statements.push({ text: line.text, docs: docIndexes, passages: line.passages });
        for (const passage of line.passages) citations.push(citationOf(line.text, number(passage.doc) - 1, docs.get(passage.doc)!, passage));
        return cite(line.text, markers);
      });
      const body = block.bullets ? written.map((line) => `- ${line}`) : [written.join(" ")];
      paragraphs.push([...(block.heading === null ? [] : [`**${block.heading}**`]), ...body].join("\n"));
    }
    const cited = [...numbers.entries()].sort((a, b) => a[1] - b[1]).map(([index]) => docs.get(index)!);
    const sources = cited.map((doc) => ({
      url: doc.url,
      title: doc.title,
      domain: doc.domain,
      summary: options.includeSummaries ? contribution(doc, statements) : null,
    }));
    return { brief: paragraphs.join("\n\n"), sources, cited, statements, citations };
  }
}

/** The citation of a claim resting on a passage of `doc`, which is sources[source]. */
export function citationOf(claim: string, source: number, doc: EvidenceDoc, passage: Passage): CitationDto {
  return { claim, source, quote: doc.text.slice(passage.start, passage.end), start: passage.start, end: passage.end };
}

/**
 * What a source contributed: the sentences of it the brief rests on, in page order. A source is
 * only numbered through a passage of its own, so there is always at least one.
 */
function contribution(doc: EvidenceDoc, statements: Statement[]): string {
  const own = [...new Set(statements.flatMap((statement) => statement.passages.filter((passage) => passage.doc === doc.index)))];
  return own.sort((a, b) => a.position - b.position).slice(0, 3).map((passage) => passage.text).join(" ");
}
