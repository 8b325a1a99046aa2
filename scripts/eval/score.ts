/**
 * Per-question metrics of one answer: what a customer got (the short answer, the brief and its
 * cited sources) against the dataset's expected answer (and its aliases) and gold
 * (supporting-fact) documents.
 */
import { openingSentence } from "./sentences";
import type { EvalAnswer } from "./answer";
import type { EvalQuestion } from "./dataset";
import { normalizeAnswer } from "./normalize";
import { containsAnswer, isYesNo, scoreShortAnswer } from "./short-answer";

export { isYesNo };

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
   * The answer anywhere in the brief. open: the normalised brief contains the normalised answer
   * (or an alias) as whole words; yes_no: the brief's first sentence starts with the expected yes / no.
   */
  answerCorrect: boolean;
  /** The short answer is not null. */
  answered: boolean;
  /** Short-answer exact match and token F1, best over the gold answer and its aliases (0 when unanswered). */
  exactMatch: boolean;
  f1: number;
  /** The short answer is right: see scoreShortAnswer. */
  shortAnswerCorrect: boolean;
}

export function scoreAnswer(question: EvalQuestion, brief: string, sourceUrls: string[], answer: EvalAnswer | null): QuestionScores {
  const cited = new Set(sourceUrls);
  const goldCited = question.goldUrls.filter((url) => cited.has(url)).length;
  const goldTotal = question.goldUrls.length;
  const yesNo = isYesNo(question.answer);
  const answerCorrect = yesNo
    ? normalizeAnswer(openingSentence(brief)).split(" ")[0] === normalizeAnswer(question.answer)
    : [question.answer, ...question.aliases].some((gold) => containsAnswer(brief, gold));
  const short = scoreShortAnswer(answer?.text ?? null, question.answer, question.aliases);
  return {
    goldCited,
    goldTotal,
    supportRecall: goldTotal ? goldCited / goldTotal : 0,
    bothGoldCited: goldTotal > 0 && goldCited === goldTotal,
    cited: cited.size,
    citationPrecision: cited.size ? goldCited / cited.size : 0,
    answerKind: yesNo ? "yes_no" : "open",
    answerCorrect,
    answered: answer !== null,
    exactMatch: short.exactMatch,
    f1: short.f1,
    shortAnswerCorrect: short.correct,
  };
}
