import type { CitationDto, SourceDto } from "../../shapes";
import { type BriefBlock, cite, citeClauses, labelled, renderBrief } from "./brief-format";
import type { EvidenceAnalysis } from "../evidence";
import type { EvidenceDoc } from "../evidence";
import type { Passage } from "../evidence";
import { similarity, sourceMetadata } from "../evidence";
import { terms, withoutHeading } from "../language";

export interface SynthesisOptions {
  maxSources: number;
  includeSummaries: boolean;
  /** Pro and max: drop weak and redundant findings before writing. */
  critic: boolean;
  /** Pro and max: the brief shows the depth searched (more pages cited where more address the question, and what each side or period covers). */
  deepens?: boolean;
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
  /**
   * For open-ended questions: the overview's first sentence (citation markers left out) and the
   * passages it rests on, for the short answer of an open-ended question.
   */
  overview?: { text: string; passages: Passage[] };
  sources: SourceDto[];
  /** Cited docs, in source order (sources[i] is cited[i]). */
  cited: EvidenceDoc[];
  /** The sentences of the brief with what they rest on (typed output and citations use them). */
  statements: Statement[];
  citations: CitationDto[];
}

/** Part of a sentence that rests on its own passages: it gets its own [n] markers. */
export interface Clause {
  text: string;
  passages: Passage[];
}

interface Line {
  text: string;
  passages: Passage[];
  cited: boolean;
  /** Said before the claim ("Grover Cleveland, 1893"), not part of it: who said it and when. */
  label?: string;
  /** A sentence made of clauses, each cited where it ends (`text` is the whole sentence). */
  clauses?: { lead: string; parts: Clause[]; end: string };
}

interface Block {
  heading: string | null;
  /** A section of a report ("## Findings") rather than the subject of a group of findings ("**Title**"). */
  section?: boolean;
  bullets: boolean;
  lines: Line[];
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

  /** Findings under a heading (the subject they are about) or none: a list, or (`bullets` false) sentences. */
  group(heading: string | null, bullets = true) {
    return this.block(heading, bullets);
  }

  /** A section of a longer report ("## Findings", "## Open questions"): its heading, then a paragraph or bullets. */
  section(title: string, bullets: boolean) {
    return this.block(title, bullets, true);
  }

  has(passage: Passage): boolean {
    return this.used.has(passage);
  }

  /** How many pages the brief cites so far. */
  citedDocs(): number {
    return new Set([...this.used].map((passage) => passage.doc)).size;
  }

  saysAlready(passage: Passage, threshold: number): boolean {
    return this.said.some((other) => similarity(passage.terms, other) > threshold);
  }

  private block(heading: string | null, bullets: boolean, section = false) {
    const block: Block = { heading, bullets, lines: [], ...(section ? { section } : {}) };
    this.blocks.push(block);
    return {
      add: (sentence: string, passages: Passage[], label?: string) => {
        // A passage quoted whole is written without a heading its page ran into it ("PANAMA CANAL TREATY The proclamation …").
        const text = passages.length === 1 && sentence === passages[0]!.text ? withoutHeading(sentence) : sentence;
        block.lines.push({ text, passages, cited: true, ...(label ? { label } : {}) });
        for (const passage of passages) this.used.add(passage);
        this.said.push(terms(text));
      },
      /** One sentence: `lead`, then the clauses joined by "; ", each with its markers, then `end`. Returns the sentence without markers. */
      addClauses: (lead: string, parts: Clause[], end = "."): string => {
        const text = `${lead}${parts.map((part) => part.text).join("; ")}${end}`;
        block.lines.push({ text, passages: parts.flatMap((part) => part.passages), cited: true, clauses: { lead, parts, end } });
        for (const part of parts) {
          for (const passage of part.passages) this.used.add(passage);
          this.said.push(terms(part.text));
        }
        return text;
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
    const written: BriefBlock[] = [];
    for (const block of this.blocks) {
      const lines = block.lines.map((line) => {
        if (!line.cited) return line.text;
        const docIndexes = [...new Set(line.passages.map((passage) => passage.doc))];
        statements.push({ text: line.text, docs: docIndexes, passages: line.passages });
        if (line.clauses) {
          // Each clause is the claim its own passages support, and carries its own markers.
          const { lead, parts, end } = line.clauses;
          const clauses = parts.map((part) => {
            for (const passage of part.passages) citations.push(citationOf(part.text, number(passage.doc) - 1, docs.get(passage.doc)!, passage));
            return { text: part.text, numbers: part.passages.map((passage) => number(passage.doc)) };
          });
          return citeClauses(lead, clauses, end);
        }
        const numbers = docIndexes.map(number);
        for (const passage of line.passages) citations.push(citationOf(line.text, number(passage.doc) - 1, docs.get(passage.doc)!, passage));
        return line.label ? labelled(line.label, cite(line.text, numbers)) : cite(line.text, numbers);
      });
      const heading = block.heading === null ? null : { kind: block.section ? ("section" as const) : ("group" as const), title: block.heading };
      written.push({ heading, bullets: block.bullets, lines });
    }
    const cited = [...numbers.entries()].sort((a, b) => a[1] - b[1]).map(([index]) => docs.get(index)!);
    const sources = cited.map((doc) => ({
      url: doc.url,
      title: doc.title,
      domain: doc.domain,
      ...sourceMetadata(doc),
      summary: options.includeSummaries ? contribution(doc, statements) : null,
    }));
    return { brief: renderBrief(written), sources, cited, statements, citations };
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
  return own
    .sort((a, b) => a.position - b.position)
    .slice(0, 3)
    .map((passage) => passage.text)
    .join(" ");
}
