/**
 * Scores of a short answer against a dataset's gold answer and its aliases: exact match and token
 * F1 as the HotpotQA evaluation script computes them (SQuAD normalisation; a yes / no / noanswer
 * on either side scores F1 only when both sides are that same word), each the best over the gold
 * answer and every alias, and whether the answer counts as correct for the product (lenient).
 */
import { normalizeAnswer } from "./normalize";

/** HotpotQA's special answers: a token-overlap F1 between one of these and anything else is meaningless. */
const SPECIAL_ANSWERS = new Set(["yes", "no", "noanswer"]);

/** F1 >= this counts as correct (the figure the issue sets, and the usual lenient QA threshold). */
export const CORRECT_F1 = 0.5;

function tokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized ? normalized.split(" ") : [];
}

export function exactMatch(prediction: string, gold: string): boolean {
  return normalizeAnswer(prediction) === normalizeAnswer(gold);
}

/** Token F1 of one prediction against one gold answer, as hotpot_evaluate_v1.py's f1_score. */
export function tokenF1(prediction: string, gold: string): number {
  const predicted = normalizeAnswer(prediction);
  const expected = normalizeAnswer(gold);
  if ((SPECIAL_ANSWERS.has(predicted) || SPECIAL_ANSWERS.has(expected)) && predicted !== expected) return 0;
  const predictedTokens = tokens(prediction);
  const goldCounts = new Map<string, number>();
  for (const token of tokens(gold)) goldCounts.set(token, (goldCounts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predictedTokens) {
    const left = goldCounts.get(token) ?? 0;
    if (left > 0) {
      common++;
      goldCounts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predictedTokens.length;
  const recall = common / tokens(gold).length;
  return (2 * precision * recall) / (precision + recall);
}

/** The normalised gold answer appears in the normalised text as whole words. */
export function containsAnswer(text: string, gold: string): boolean {
  const expected = normalizeAnswer(gold);
  return expected !== "" && ` ${normalizeAnswer(text)} `.includes(` ${expected} `);
}

export function isYesNo(answer: string): boolean {
  const normalized = normalizeAnswer(answer);
  return normalized === "yes" || normalized === "no";
}

export interface ShortAnswerScores {
  /** Best over the gold answer and its aliases. */
  exactMatch: boolean;
  f1: number;
  /**
   * yes / no gold: the answer starts with that word. Otherwise F1 >= 0.5 against the gold answer or
   * an alias, or one of them contained in the answer as whole words.
   */
  correct: boolean;
}

export const UNANSWERED: ShortAnswerScores = { exactMatch: false, f1: 0, correct: false };

/** Scores `text` against `gold` and its `aliases`; a null answer scores nothing. */
export function scoreShortAnswer(text: string | null, gold: string, aliases: readonly string[] = []): ShortAnswerScores {
  if (text === null) return UNANSWERED;
  const golds = [gold, ...aliases].filter((candidate) => normalizeAnswer(candidate) !== "");
  if (golds.length === 0) return UNANSWERED;
  const f1 = Math.max(...golds.map((candidate) => tokenF1(text, candidate)));
  const exact = golds.some((candidate) => exactMatch(text, candidate));
  // A yes/no question is answered by its first word: "Yes: A is 2,850 km and B 1,230 km" is right,
  // "No, ... yes ..." is not, whatever words follow.
  const correct = isYesNo(gold) ? tokens(text)[0] === normalizeAnswer(gold) : f1 >= CORRECT_F1 || golds.some((candidate) => containsAnswer(text, candidate));
  return { exactMatch: exact, f1, correct };
}
