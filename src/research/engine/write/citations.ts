/**
 * The brief's citations: every claim ends with one or more [n] markers (1-based into sources).
 * The format itself is write/brief-format.ts; what is here checks a brief against it.
 */
import { lineSentences, markersIn, parseBrief } from "./brief-format";

/** The [n] numbers of a text, in order (the format's reader; kept under this name for its callers). */
export const citationsIn = markersIn;

/** Splits a brief into its sentences: the lines of its blocks (headings are no claims, bullets lose their "- "), then sentence ends after a citation. */
export function briefSentences(brief: string): string[] {
  return parseBrief(brief).flatMap((block) => block.lines.flatMap(lineSentences));
}

/**
 * The heading of a report's last section (pro and max with a model): the questions the sources
 * leave open (not an open-ended question, nor the opening paragraph). They claim nothing, so they
 * cite nothing.
 */
export const LEFT_OPEN_HEADING = "Open questions";

/**
 * The heading of the last section of a pro or max extractive brief: what the research covered
 * (each side's or decade's pages, cited), and what it searched and did not find (a decade no
 * page read comes from, pages that added nothing), which claims nothing about the subject.
 */
export const COVERAGE = "Coverage";

/** The brief's claims: everything before the questions it leaves open or its coverage. */
export function briefClaims(brief: string): string {
  return brief.split(new RegExp(`^## (?:${LEFT_OPEN_HEADING}|${COVERAGE})\\s*$`, "m"))[0]!;
}

/** Problems with a brief's citations: sentences without one, markers that index no source (the questions left open are no claims). */
export function citationProblems(brief: string, sourceCount: number): string[] {
  const problems: string[] = [];
  for (const sentence of briefSentences(briefClaims(brief))) {
    const numbers = citationsIn(sentence);
    if (numbers.length === 0) problems.push(`uncited: ${sentence.slice(0, 80)}`);
    for (const n of numbers) if (n < 1 || n > sourceCount) problems.push(`[${n}] indexes no source`);
  }
  return problems;
}
