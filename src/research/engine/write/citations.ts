/** The citation format of briefs: every sentence ends with one or more [n] markers (1-based into sources). */

/** "[1][3]": the markers of these sources, each once, in order. */
export function markers(numbers: number[]): string {
  return [...new Set(numbers)]
    .sort((a, b) => a - b)
    .map((n) => `[${n}]`)
    .join("");
}

/** Appends [n] markers before the sentence's closing punctuation. */
export function cite(sentence: string, numbers: number[]): string {
  const text = sentence.trim().replace(/\s*\[\d+\]/g, "");
  const match = /^(.*?)([.!?])(["”’)]*)$/su.exec(text);
  if (!match) return `${text} ${markers(numbers)}.`;
  return `${match[1]}${match[3]} ${markers(numbers)}${match[2]}`;
}

export function citationsIn(text: string): number[] {
  return [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

/** Splits a brief into its sentences (lines and bullet items first, then sentence ends after a citation). */
export function briefSentences(brief: string): string[] {
  return (
    brief
      .split(/\n+/)
      // A heading line ("**Shirley Temple**") names what the findings below it are about; it is not a claim.
      .filter((line) => !/^\s*(?:\*\*[^*]+\*\*|#+\s.*)\s*$/.test(line))
      .map((line) => line.replace(/^\s*(?:[-*•]|\d+\.)\s+/, "").trim())
      .filter(Boolean)
      .flatMap((line) => line.split(/(?<=\][.!?])\s+/))
      .map((sentence) => sentence.trim())
      .filter(Boolean)
  );
}

/**
 * The heading of a report's last section (pro and max with a model): the questions the sources
 * leave open. They claim nothing, so they cite nothing.
 */
export const OPEN_QUESTIONS = "Open questions";

/** The brief's claims: everything before its open questions. */
export function briefClaims(brief: string): string {
  return brief.split(new RegExp(`^## ${OPEN_QUESTIONS}\\s*$`, "m"))[0]!;
}

/** Problems with a brief's citations: sentences without one, markers that index no source (open questions are no claims). */
export function citationProblems(brief: string, sourceCount: number): string[] {
  const problems: string[] = [];
  for (const sentence of briefSentences(briefClaims(brief))) {
    const numbers = citationsIn(sentence);
    if (numbers.length === 0) problems.push(`uncited: ${sentence.slice(0, 80)}`);
    for (const n of numbers) if (n < 1 || n > sourceCount) problems.push(`[${n}] indexes no source`);
  }
  return problems;
}
