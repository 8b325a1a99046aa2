import type { EvidenceAnalysis, Link, RankedDoc, ScoredPassage } from "./analysis";
import { directAnswer } from "./answer";
import { cite } from "./citations";
import { type EvidenceDoc, titleRefersTo } from "./evidence";
import { findAnswer } from "./extract";
import type { QueryAnalysis } from "./query";
import type { Passage } from "./rank";
import { similarity } from "./rank";
import { withRelations } from "./relations";
import { restate } from "./restate";
import { stem, terms, words } from "./text";

export interface SourceDto {
  url: string;
  title: string;
  domain: string;
  summary?: string | null;
}

/**
 * The basis of one claim of the brief: the exact text of the source it rests on. `source` is
 * the index into `sources` (the brief cites it as [source + 1]); `start`/`end` are offsets into
 * the source's text as it was read, so `quote === text.slice(start, end)`.
 */
export interface CitationDto {
  claim: string;
  source: number;
  quote: string;
  start: number;
  end: number;
  /** For the typed output: the top-level field whose value this passage supports. */
  field?: string;
}

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
  const opening = writer.paragraph();
  const chain: RankedDoc[] = [];
  const direct = directAnswer(query, ranked);
  if (direct) {
    const docs = direct.docs.map((index) => ranked.find((entry) => entry.doc.index === index)!).filter(Boolean);
    opening.add(
      direct.text,
      docs.map((entry, index) => entry.doc.passages[direct.sentences?.[index] ?? 0] ?? entry.doc.passages[0]!).filter(Boolean),
    );
    chain.push(...docs);
  } else {
    // The chain of pages the answer runs through: the best page, and the page it leads to (or
    // the page that led to it). The answer is looked for at the chain's end first.
    // The chain starts at a page about what the question names, when one ranks near the top.
    // "the Prius" names the page "Toyota Prius": a title ending in the entity refers to it.
    const names = (entry: RankedDoc) => analysis.entities.some((entity) => titleRefersTo(entry.doc.title, entity));
    // Of the pages it names ("Bohemian Rhapsody" the song and the film), one that leads on.
    const named = ranked.slice(0, 5).filter((entry) => names(entry) && entry.score >= ranked[0]!.score * 0.5);
    const leadsOn = (entry: RankedDoc) => (entry.via && ranked.some((other) => other.doc === entry.via!.doc)) || hopFrom(entry, ranked) !== undefined;
    const lead = named.find(leadsOn) ?? named[0] ?? ranked[0]!;
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
    const end = pathDocs[pathDocs.length - 1]!;
    const linkPassage = linkPassages[linkPassages.length - 1];
    const span = answerDoc ? found : null;
    if (span && answerDoc) {
      const links = answerDoc === end ? linkPassages : [];
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
    chain.push(...pathDocs);
  }

  // Pages to draw findings from: the answer's own pages first, then pages that score well.
  const top = ranked[0]!.score;
  const pages: RankedDoc[] = [...new Set(chain)];
  // Beyond the answer's pages, a few more that score close to the best: a brief, not a reading list.
  const extra = Math.max(2, Math.floor(options.maxSources / 3));
  const limit = Math.min(options.maxSources, pages.length + extra);
  for (const entry of ranked) {
    if (pages.length >= limit) break;
    if (!pages.includes(entry) && entry.score >= top * MIN_RELATIVE_SCORE) pages.push(entry);
  }
  const strongest = Math.max(...pages.map((entry) => entry.best[0]?.score ?? 0), 1e-9);
  const floor = strongest * (options.critic ? MIN_FINDING_SCORE_CRITIC : MIN_FINDING_SCORE);
  for (const entry of pages) {
    const inChain = chain.includes(entry);
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
    if (picked.length === 0) continue;
    const group = writer.group(entry.doc.title);
    for (const item of picked.sort((a, b) => a.passage.position - b.passage.position)) group.add(item.passage.text, [item.passage]);
  }
  return writer.finish(options);
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

/** Entity words, asked terms and their relation words: what a sentence must share with the question to belong in the brief. */
function questionKeyTerms(query: QueryAnalysis, analysis: EvidenceAnalysis): Set<string> {
  const keys = withRelations(query.terms);
  for (const entity of [...analysis.entities, ...analysis.bridgeEntities.slice(0, 4)]) for (const word of words(entity)) keys.add(stem(word));
  for (const term of query.speakerTerms) keys.delete(term);
  return keys;
}

function sharesKeyTerm(passage: Passage, keys: Set<string>): boolean {
  return passage.terms.some((term) => keys.has(term));
}

/** "Which presidents argued for free silver?": a sentence led by the opposite stance is not an answer. */
function respectsStance(passage: Passage, query: QueryAnalysis): boolean {
  if (!query.stance) return true;
  const own = new Set(passage.terms);
  const opposite = query.stance.opposite.some((term) => own.has(term));
  const wanted = query.stance.wanted.some((term) => own.has(term));
  return !opposite || wanted;
}

/** A sentence answers on its own when it carries the question's key terms (with its page's subject, which it is about). */
function answersOnItsOwn(item: ScoredPassage, keys: Set<string>): boolean {
  const own = new Set([...item.passage.terms, ...item.passage.titleTerms]);
  const shared = [...keys].filter((term) => own.has(term)).length;
  return shared >= Math.min(2, keys.size);
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
