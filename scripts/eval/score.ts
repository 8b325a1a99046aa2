/**
 * Per-question metrics of one answer: what a customer got (the brief and its cited sources)
 * against the dataset's expected answer and gold (supporting-fact) documents.
 */
import type { EvalQuestion } from "./dataset";
import { normalizeAnswer } from "./normalize";

export interface QuestionScores {
  /** Gold documents among the cited sources, of all gold documents. */
  goldCited: number;
  goldTotal: number;
  /** goldCited / goldTotal. */
  supportRecall: number;
  /** Every gold document cited. */
  bothGoldCited: boolean;
  /** Distinct source urls returned. */
  cited: number;
  /** goldCited / cited (0 when nothing is cited). */
  citationPrecision: number;
  /** "yes_no" when the expected answer normalises to yes or no, else "open". */
  answerKind: "yes_no" | "open";
  /**
   * open: the normalised brief contains the normalised answer as whole words;
   * yes_no: the brief's first sentence starts with the expected yes / no.
   */
  answerCorrect: boolean;
}

/** The first sentence of the first non-empty line, without leading markdown markers. */
export function openingSentence(brief: string): string {
  const line = brief.split("\n").map((l) => l.trim()).find((l) => l.replace(/[#>*_\-\s]/g, "") !== "") ?? "";
  return line.split(/(?<=[.!?])\s+/)[0] ?? "";
}

export function isYesNo(answer: string): boolean {
  const normalized = normalizeAnswer(answer);
  return normalized === "yes" || normalized === "no";
}

export function scoreAnswer(question: EvalQuestion, brief: string, sourceUrls: string[]): QuestionScores {
  const cited = new Set(sourceUrls);
  const goldCited = question.goldUrls.filter((url) => cited.has(url)).length;
  const goldTotal = question.goldUrls.length;
  const expected = normalizeAnswer(question.answer);
  const yesNo = isYesNo(question.answer);
  const answerCorrect = yesNo
    ? normalizeAnswer(openingSentence(brief)).split(" ")[0] === expected
    : expected !== "" && ` ${normalizeAnswer(brief)} `.includes(` ${expected} `);
  return {
    goldCited,
    goldTotal,
    supportRecall: goldTotal ? goldCited / goldTotal : 0,
    bothGoldCited: goldTotal > 0 && goldCited === goldTotal,
    cited: cited.size,
    citationPrecision: cited.size ? goldCited / cited.size : 0,
    answerKind: yesNo ? "yes_no" : "open",
    answerCorrect,
  };
}
