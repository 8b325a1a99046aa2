/** The questions asked in one mode: their rows, how long the mode took and what the run knows about itself. */
import type { EvalMode } from "./args";
import type { QuestionRow } from "./row";

export interface ModeRun {
  mode: EvalMode;
  rows: QuestionRow[];
  durationMs: number;
  meta: Record<string, unknown>;
}
