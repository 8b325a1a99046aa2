/**
 * --only: the questions to ask, each named by its id (the dataset's `_id`) or by its number, 1-based,
 * as the per-question lines of a run with the same files and --limit print it ("7/24"): a question
 * seen failing in one run is asked again alone. Kept in the datasets' order.
 */
import type { EvalQuestion } from "./dataset";

export function onlyQuestions(questions: EvalQuestion[], selectors: string[]): EvalQuestion[] {
  const picked = new Set<EvalQuestion>();
  for (const selector of selectors) {
    // An id first: a dataset may use numbers as ids.
    const byId = questions.filter((question) => question.id === selector);
    const number = /^\d+$/.test(selector) ? Number(selector) : null;
    const byNumber = number !== null && number >= 1 && number <= questions.length ? [questions[number - 1]!] : [];
    const found = byId.length > 0 ? byId : byNumber;
    if (found.length === 0) {
      throw new Error(`--only ${selector}: no question has that id${number !== null ? `, and the questions are numbered 1 to ${questions.length}` : ""}`);
    }
    for (const question of found) picked.add(question);
  }
  return questions.filter((question) => picked.has(question));
}
