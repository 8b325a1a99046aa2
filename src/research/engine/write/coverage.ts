import { resolveChain } from "../answer";
import { listed } from "../language";
import type { Evidence, EvidenceAnalysis, Passage } from "../evidence";
import { askedSubjects, type HopAttribute, type QueryAnalysis, questionTopic } from "../question";
import type { BriefWriter } from "./brief-writer";
import { COVERAGE } from "./citations";
import { wantsSynthesis } from "./open-ended/brief";
import { chooseOpenEndedSources, type OpenEndedSource } from "./open-ended/sources";
import { openEndedTopic } from "./open-ended/topic";

/**
 * What the pages read cover of what the question spans, and what they leave uncovered (what
 * pro and max buy is depth): each side of a comparison, each hop of a chain, each decade of an
 * open-ended question over time. The same reading of the pages as the brief's (`chooseOpenEndedSources`,
 * `resolveChain`), so a side called covered here is one the brief quotes. Pro and max search for
 * what is uncovered before writing (`plan/coverage.ts`), and their brief says what it covered.
 */
export interface SideCoverage {
  /** The side as the question names it. */
  name: string;
  /** Pages read that speak for it on the topic (an open comparison), or its chain's pages (a comparison of facts). */
  docs: number[];
  /** The years of those pages, ascending, when their titles date them. */
  years: number[];
  /** A passage of each page that shows it covers the side, in `docs` order. */
  passages: Passage[];
  covered: boolean;
  /** A comparison of facts: the entity whose page the side's chain needs next. */
  next: string | null;
}

export interface PeriodCoverage {
  /** The period asked ("the 19th century"), else the span of the years the pages read on the topic date from. */
  from: number;
  to: number;
  asked: boolean;
  /** Decades (their first year) with a page read on the topic, and the pages of each. */
  covered: { decade: number; docs: number[]; passages: Passage[] }[];
  /** Decades of the period with none. */
  missing: number[];
}

export interface Coverage {
  /** The topic phrase ("the role of the federal government"), when the question has one. */
  topic: string | null;
  sides: SideCoverage[];
  /** A hop chain: the entities reached, and the one whose page is needed next (null when it closed or cannot be pushed). */
  hop: { reached: string[]; next: string | null; closed: boolean } | null;
  period: PeriodCoverage | null;
}

/** A gap: what a deeper search looks for. */
export type CoverageGap = { kind: "side"; name: string; next: string | null } | { kind: "hop"; name: string } | { kind: "period"; decade: number };

/** Periods longer than this many decades are not searched decade by decade. */
const MAX_DECADES = 12;
/** Every page with a statement on the topic counts, not only as many as a brief cites, nor only those scoring near the best. */
const ALL_SOURCES = 1000;

export function readCoverage(query: QueryAnalysis, analysis: EvidenceAnalysis, evidence: Evidence): Coverage {
  const coverage: Coverage = { topic: null, sides: [], hop: null, period: null };
  if (query.comparison) {
    const attribute: HopAttribute =
      query.comparison.fact === "birth_date" || query.comparison.fact === "death_date" || query.comparison.fact === "nationality"
        ? query.comparison.fact
        : "identity";
    coverage.sides = query.comparison.sides.map((side) => {
      const chain = resolveChain({ anchor: side.name, relations: side.relations, attribute, subjectPhrase: side.name }, evidence);
      const docs = chain.steps.flatMap((step) => (step.doc ? [step.doc.index] : []));
      const passages = chain.steps.flatMap((step) => (step.passage ? [step.passage] : []));
      if (chain.answer) passages.push(chain.answer.passage);
      return { name: side.name, docs, years: [], passages, covered: chain.answer !== null, next: chain.missing };
    });
    return coverage;
  }
  if (query.hops) {
    const chain = resolveChain(query.hops, evidence);
    coverage.hop = { reached: chain.steps.filter((step) => step.doc).map((step) => step.entity), next: chain.missing, closed: chain.answer !== null };
    return coverage;
  }
  return openEndedCoverage(query, analysis);
}

/** The coverage of an open-ended question (its sides, or its period), read from the ranked pages alone. */
export function openEndedCoverage(query: QueryAnalysis, analysis: EvidenceAnalysis): Coverage {
  const subjects = askedSubjects(query);
  const coverage: Coverage = { topic: questionTopic(query.question, subjects[subjects.length - 1]), sides: [], hop: null, period: null };
  if (!wantsSynthesis(query)) return coverage;
  const ranked = analysis.ranked.filter((entry) => entry.score > 0);
  const chosen = chooseOpenEndedSources(query, ranked, openEndedTopic(query, subjects), subjects, {
    maxSources: ALL_SOURCES,
    critic: false,
    minRelativeScore: 0,
  });
  if (subjects.length > 0) {
    coverage.sides = subjects.map((name) => {
      const own = chosen.sources.filter((source) => source.subject === name);
      return { name, ...pagesOf(own), covered: own.length > 0, next: null };
    });
    return coverage;
  }
  coverage.period = periodCoverage(query, chosen.sources);
  return coverage;
}

function pagesOf(sources: OpenEndedSource[]): { docs: number[]; years: number[]; passages: Passage[] } {
  const ordered = [...sources].sort((a, b) => (a.attribution.year ?? Infinity) - (b.attribution.year ?? Infinity));
  return {
    docs: ordered.map((source) => source.entry.doc.index),
    years: [...new Set(ordered.flatMap((source) => (source.attribution.year === null ? [] : [source.attribution.year])))],
    passages: ordered.map((source) => source.statements[0]!.passage),
  };
}

/** The decades of the asked period, or of the span the pages on the topic date from, with the pages of each. */
function periodCoverage(query: QueryAnalysis, sources: OpenEndedSource[]): PeriodCoverage | null {
  const period = query.period;
  const dated = sources.filter(
    (source) =>
      source.attribution.year !== null &&
      !source.attribution.published &&
      (!period || (source.attribution.year >= period.from && source.attribution.year <= period.to)),
  );
  const years = dated.map((source) => source.attribution.year!);
  const asked = period !== null;
  if (!asked && new Set(years).size < 2) return null;
  const from = period?.from ?? Math.min(...years);
  const to = period?.to ?? Math.max(...years);
  const first = Math.floor(from / 10) * 10;
  const decades: number[] = [];
  for (let decade = first; decade <= to; decade += 10) decades.push(decade);
  if (decades.length > MAX_DECADES) return null;
  const covered = decades.flatMap((decade) => {
    const own = dated.filter((source) => Math.floor(source.attribution.year! / 10) * 10 === decade);
    return own.length > 0 ? [{ decade, ...pagesOf(own) }] : [];
  });
  const missing = decades.filter((decade) => !covered.some((entry) => entry.decade === decade));
  return { from, to, asked, covered: covered.map(({ decade, docs, passages }) => ({ decade, docs, passages })), missing };
}

/** What the pages read leave uncovered: a side no page speaks for, a hop whose page was not read, a decade with no page. */
export function coverageGaps(coverage: Coverage): CoverageGap[] {
  const gaps: CoverageGap[] = [];
  for (const side of coverage.sides) if (!side.covered) gaps.push({ kind: "side", name: side.name, next: side.next });
  if (coverage.hop && !coverage.hop.closed && coverage.hop.next) gaps.push({ kind: "hop", name: coverage.hop.next });
  for (const decade of coverage.period?.missing ?? []) gaps.push({ kind: "period", decade });
  return gaps;
}

/** "1830–1839", within the period ("1801–1809" of the 19th century, "1900" its last year): never "the 1800s", which may be a century. */
function decadeName(decade: number, period: { from: number; to: number }): string {
  const from = Math.max(decade, period.from);
  const to = Math.min(decade + 9, period.to);
  return from === to ? String(from) : `${from}–${to}`;
}

/** Pages cited for one side or decade of the coverage at most: its best ones; the rest are counted. */
const CITED_PER_ENTRY = 2;

/** "1984, 1986 and 1987 [..]", or for many years "1982-1988 (6 pages) [..]": the best pages cited, the others counted. */
function entryClause(label: string, years: number[], passages: Passage[], docs: number[]): { text: string; passages: Passage[] } {
  const count = new Set(docs).size;
  const when = years.length <= 4 ? listed(years.map(String)) : `${years[0]}–${years[years.length - 1]}`;
  const pages = count > CITED_PER_ENTRY ? ` (${count} pages)` : "";
  return { text: `${label}${when ? ` ${when}` : ""}${pages}`, passages: passages.slice(0, CITED_PER_ENTRY) };
}

/**
 * The brief's last section in pro and max, `## Coverage`: each side of a comparison (or the one
 * named speaker) with the years of the pages read that speak for it on the topic, its best pages
 * cited; an open-ended question over time by decade, and the decades of its period no page read comes
 * from. A side no page speaks for is said by the overview already. Otherwise (a question of one
 * fact, or nothing on the topic) how many of the pages read the brief does not cite: what the
 * further reading found, said plainly rather than padded out.
 */
export function writeCoverage(writer: BriefWriter, coverage: Coverage | null, read: { pages: number; speakerOf: (doc: number) => string | null }): void {
  const topic = coverage?.topic ?? null;
  const lead = `${topic ? `On ${topic}, t` : "T"}he sources read cover `;
  const sides = coverage?.sides.filter((side) => side.covered && side.years.length > 0) ?? [];
  const period = coverage?.period ?? null;
  if (sides.length > 0) {
    const parts = sides.map((side) => {
      const speakers = [...new Set(side.docs.map(read.speakerOf))];
      const name = speakers.length === 1 && speakers[0] ? speakers[0] : side.name;
      return entryClause(`${name} in`, side.years, side.passages, side.docs);
    });
    writer.section(COVERAGE, false).addClauses(lead, parts);
    return;
  }
  if (period && period.covered.length > 0) {
    const section = writer.section(COVERAGE, false);
    section.addClauses(
      lead,
      period.covered.map((entry) => entryClause(decadeName(entry.decade, period), [], entry.passages, entry.docs)),
    );
    if (period.missing.length > 0)
      section.addUncited(
        `No source read${topic ? ` on ${topic}` : ""} is from ${listed(
          period.missing.map((decade) => decadeName(decade, period)),
          "or",
        )}.`,
      );
    return;
  }
  const cited = writer.citedDocs();
  const others = read.pages - cited;
  const pages = (count: number, other: string) => (count === 1 ? `One ${other}page was` : `${count} ${other}pages were`);
  writer
    .section(COVERAGE, false)
    .addUncited(
      others === 0
        ? "No page beyond those cited was found."
        : cited === 0
          ? `${pages(others, "")} read; none of them addresses this.`
          : `${pages(others, "other ")} read; none of them adds to this.`,
    );
}
