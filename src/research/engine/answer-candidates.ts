/**
 * A candidate short answer as the calibrated model scored it: what a run reports through
 * `onAnswerCandidates` and the training script collects. A leaf file, so the engine's own
 * types (types.ts) name it without standing above the answer stage.
 */

/** The path of the answer stage that proposed a candidate (answer/short-answer.ts lists them). */
export type AnswerPath = "chain" | "mention" | "comparison" | "direct" | "description" | "lead" | "general";

export interface ScoredCandidate {
  path: AnswerPath;
  text: string;
  features: number[];
  probability: number;
}
