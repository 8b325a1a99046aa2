import type { EvidenceAnalysis, Passage } from "../../evidence";
import { type Attribution, namesPerson, pageAttribution, questionKeyTerms } from "../../evidence";
import { terms } from "../../language";
import type { QueryAnalysis } from "../../question";
import type { ShortAnswer, SourceDto } from "../../../shapes";
import type { Synthesis } from "../brief-writer";

/**
 * What a typed field may rest on: the passages of the sources the brief cites (a basis entry
 * names its source by index, so nothing else can be cited), the brief's statements, and what
 * its opening says. Views of one source or one statement fill the items of a list.
 */
export type Confidence = "high" | "medium" | "low";

export interface CitedPassage {
  /** Index into the result's `sources`. */
  source: number;
  passage: Passage;
  /** A passage a statement of the brief rests on: the brief already judged it relevant. */
  inBrief: boolean;
}

export interface BriefStatement {
  /** The sentence without its [n] markers. */
  text: string;
  support: CitedPassage[];
  /** The sentence is one of its passages word for word (an extract, not the engine's wording). */
  verbatim: boolean;
}

/** The brief's opening: the sentence it answers with, and whether it said the sources do not answer. */
export interface Opening {
  /** As written, up to and including the first cited sentence, without [n] markers. */
  text: string;
  statement: BriefStatement;
  /** Uncited words come first ("The sources read do not answer this directly; ..."). */
  hedged: boolean;
}

const stripCitations = (text: string) => text.replace(/\s*\[\d+\]/g, "").trim();
const squash = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?]+$/, "");

export class TypedEvidence {
  private constructor(
    /** The whole brief, or one source or one finding (the items of a list describe one each). */
    readonly view: "brief" | "source" | "statement",
    readonly query: QueryAnalysis,
    /** Question terms a passage must share to be about the question (entities, asked terms, relation words). */
    readonly keyTerms: Set<string>,
    readonly sources: { index: number; source: SourceDto }[],
    readonly statements: BriefStatement[],
    /** Brief passages first, in the brief's order, then every other passage of the cited sources. */
    readonly passages: CitedPassage[],
    readonly opening: Opening | null,
    /** The engine's short answer to the question (the whole brief's view only): a name field may take it. */
    readonly answer: ShortAnswer | null = null,
  ) {}

  static of(synthesis: Synthesis, query: QueryAnalysis, analysis: EvidenceAnalysis, answer: ShortAnswer | null = null): TypedEvidence {
    const sourceOf = new Map(synthesis.cited.map((doc, index) => [doc.index, index]));
    const inBrief = new Set(synthesis.statements.flatMap((statement) => statement.passages));
    const cite = (passage: Passage): CitedPassage => ({ source: sourceOf.get(passage.doc)!, passage, inBrief: inBrief.has(passage) });
    const statements = synthesis.statements.map((statement) => {
      const text = stripCitations(statement.text);
      const support = statement.passages.filter((passage) => sourceOf.has(passage.doc)).map(cite);
      return { text, support, verbatim: support.some((item) => stripCitations(item.passage.text) === text) };
    });
    const seen = new Set<Passage>();
    const passages: CitedPassage[] = [];
    for (const passage of [
      ...statements.flatMap((statement) => statement.support.map((item) => item.passage)),
      ...synthesis.cited.flatMap((doc) => doc.passages),
    ]) {
      if (seen.has(passage)) continue;
      seen.add(passage);
      passages.push(cite(passage));
    }
    const sources = synthesis.sources.map((source, index) => ({ index, source }));
    return new TypedEvidence("brief", query, questionKeyTerms(query, analysis), sources, statements, passages, openingOf(synthesis.brief, statements), answer);
  }

  /** Only what one source says: the fields of an item that describes that source. */
  ofSource(source: number): TypedEvidence {
    const statements = this.statements
      .map((statement) => ({ ...statement, support: statement.support.filter((item) => item.source === source) }))
      .filter((statement) => statement.support.length > 0);
    return new TypedEvidence(
      "source",
      this.query,
      this.keyTerms,
      this.sources.filter((entry) => entry.index === source),
      statements,
      this.passages.filter((item) => item.source === source),
      null,
    );
  }

  /**
   * Only the pages of one speaker (their titles name the speaker), for the other fields of a
   * record whose person field holds that speaker: "{speaker, years}" lists that speaker's years,
   * not another speaker's pages quoted beside them. Null when no cited page is theirs.
   */
  ofSpeaker(person: string): TypedEvidence | null {
    const theirs = new Set(
      [...this.attributions()].flatMap(([index, { speaker }]) => (speaker && (namesPerson(speaker, person) || namesPerson(person, speaker)) ? [index] : [])),
    );
    if (theirs.size === 0) return null;
    const statements = this.statements
      .map((statement) => ({ ...statement, support: statement.support.filter((item) => theirs.has(item.source)) }))
      .filter((statement) => statement.support.length > 0);
    // The opening and the short answer stay only when they rest on that speaker's pages alone.
    const opening = this.opening?.statement.support.every((item) => theirs.has(item.source)) ? this.opening : null;
    return new TypedEvidence(
      this.view,
      this.query,
      this.keyTerms,
      this.sources.filter((entry) => theirs.has(entry.index)),
      statements,
      this.passages.filter((item) => theirs.has(item.source)),
      opening,
      opening ? this.answer : null,
    );
  }

  /** Only one statement of the brief and its passages: the fields of an item that describes that finding. */
  ofStatement(statement: BriefStatement): TypedEvidence {
    const sources = new Set(statement.support.map((item) => item.source));
    return new TypedEvidence(
      "statement",
      this.query,
      this.keyTerms,
      this.sources.filter((entry) => sources.has(entry.index)),
      [statement],
      statement.support,
      null,
    );
  }

  /**
   * The brief's yes or no to a yes/no question, when it states one with evidence: its opening
   * starts with it ("Yes: both ...", "No, ..."; not "No President has ..."), cites the passages it
   * rests on, and does not first say the sources do not answer.
   */
  yesNo(): { value: boolean; statement: BriefStatement } | null {
    const opening = this.opening;
    if (this.query.kind !== "yes_no" || !opening || opening.hedged || opening.statement.support.length === 0) return null;
    const said = /^(yes|no)\s*[:,.;!—–-]/i.exec(opening.statement.text);
    return said ? { value: said[1]!.toLowerCase() === "yes", statement: opening.statement } : null;
  }

  /** The passages that share a key term of the question other than `except` (the field's own words). */
  relevant(except: Set<string> = new Set()): CitedPassage[] {
    const keys = new Set([...this.keyTerms].filter((term) => !except.has(term)));
    if (keys.size === 0) return this.passages;
    // A speech's own words are its speaker's and of its year: "How many new jobs did Bill
    // Clinton report in 1998?" is about "We have more than 14 million new jobs" in his 1998 address.
    const own = this.selfTerms();
    return this.passages.filter(
      (item) => item.passage.terms.some((term) => keys.has(term)) || [...(own.get(item.source) ?? [])].some((term) => keys.has(term)),
    );
  }

  /** Who speaks in each cited source and when, as its title (or date) says: read once, by source index. */
  attributions(): Map<number, Attribution> {
    this.attributed ??= new Map(this.sources.map(({ index, source }) => [index, pageAttribution(source.title, source.published_at)]));
    return this.attributed;
  }

  private attributed: Map<number, Attribution> | undefined;

  /** What each cited source says about itself, as terms: its speaker's name and its year, when its title gives them. */
  private selfTerms(): Map<number, Set<string>> {
    this.ownTerms ??= new Map(
      [...this.attributions()].map(([index, { speaker, year }]) => {
        const names = speaker ? this.query.entities.filter((person) => namesPerson(speaker, person)) : [];
        return [index, new Set([...names.flatMap((person) => terms(person)), ...(speaker && year !== null ? [String(year)] : [])])];
      }),
    );
    return this.ownTerms;
  }

  private ownTerms: Map<number, Set<string>> | undefined;
}

/**
 * The opening is the brief's first paragraph when it is not a group of findings (a heading or
 * bullets): its text up to the first citation, which is the first statement.
 */
function openingOf(brief: string, statements: BriefStatement[]): Opening | null {
  const first = brief.split("\n\n")[0] ?? "";
  const statement = statements[0];
  if (!statement || first.startsWith("**") || first.startsWith("- ")) return null;
  const cited = /^[\s\S]*?\[\d+\](?:\s*\[\d+\])*[.!?]?/.exec(first);
  if (!cited) return null;
  const text = stripCitations(cited[0]);
  // The first cited sentence is the first statement: anything before it was said without a source.
  const hedged = squash(text) !== squash(statement.text);
  return { text, statement, hedged };
}
