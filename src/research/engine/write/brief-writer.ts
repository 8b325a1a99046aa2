import type { CitationDto, SourceDto } from "../../shapes";
import { cite } from "./citations";
import type { EvidenceAnalysis } from "../evidence";
import type { EvidenceDoc } from "../evidence";
import type { Passage } from "../evidence";
import { similarity } from "../evidence";
import { terms } from "../language";

export interface SynthesisOptions {
  maxSources: number;
  includeSummaries: boolean;
  /** Pro and max: drop weak and redundant findings before writing. */
  critic: boolean;
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
