/** Aggregates of question rows: in total, by dataset `type`, by hop count and by source file. */
import { type ReliabilityBin, reliabilityBins } from "../../src/research/engine/answer";
import { CONFIDENCES, type ScoredConfidence } from "./answer";
import type { QuestionRow } from "./row";

export interface Spread {
  p50: number | null;
  p90: number | null;
  max: number | null;
}

/** Short answers given at one confidence level, and how many of them were right. */
export interface ConfidencePrecision {
  answered: number;
  correct: number;
  /** correct / answered; null when none was given at this level. */
  precision: number | null;
}

export interface Summary {
  questions: number;
  failed: number;
  open_questions: number;
  yes_no_questions: number;
  /** Share of questions whose short answer is not null. */
  answered_rate: number;
  /** Share of all questions whose short answer is right (F1 >= 0.5, contained, or the right yes / no). */
  short_answer_correct: number;
  /** The short answers given: how many, how many right, and that precision (null when none was given). */
  when_answered: ConfidencePrecision;
  /** Means over all questions (an unanswered question scores 0), best over the gold answer and aliases. */
  exact_match: number;
  f1: number;
  /** Per confidence level; "unknown" only where an opening sentence stood in for the answer. */
  by_confidence: Partial<Record<ScoredConfidence, ConfidencePrecision>>;
  /**
   * The answers that state a probability, binned by it: predicted against observed (the share that
   * was right) and the count per bin. Empty when no answer states one.
   */
  reliability: ReliabilityBin[];
  /** Rows whose answer is the brief's opening sentence: asked for (--answer-from opening), or the result had no `answer` field. */
  answers_from_opening: number;
  answers_from_opening_fallback: number;
  /** Mean over questions of gold cited / gold. */
  support_recall: number;
  /** Share of questions citing every gold document. */
  both_gold_cited: number;
  /** Mean number of distinct sources a result cites. */
  sources_cited: number;
  /** Share of open (non yes/no) questions whose brief contains the answer; null without any. */
  answer_recall_open: number | null;
  /** Share of yes/no questions whose brief opens with the right yes / no; null without any. */
  yes_no_correct: number | null;
  /** Mean over questions of gold cited / cited. */
  citation_precision: number;
  /** latency_ms of the job as the service reports it. */
  job_latency_ms: Spread;
  /** Submit to result as the client saw it. */
  wall_ms: Spread;
  credits: { mean: number; total: number };
}

export interface GroupedSummary {
  total: Summary;
  by_type: Record<string, Summary>;
  by_hops: Record<string, Summary>;
  by_file: Record<string, Summary>;
}

const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);
const share = (rows: QuestionRow[], test: (row: QuestionRow) => boolean) => mean(rows.map((row) => (test(row) ? 1 : 0)));

/** Nearest-rank percentile. */
function spread(values: number[]): Spread {
  if (!values.length) return { p50: null, p90: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1]! };
}

function precisionOf(rows: QuestionRow[]): ConfidencePrecision {
  const correct = rows.filter((row) => row.metrics.shortAnswerCorrect).length;
  return { answered: rows.length, correct, precision: rows.length ? correct / rows.length : null };
}

/** high, medium and low always (a level never used shows as 0 given); unknown only when present. */
function byConfidence(answered: QuestionRow[]): Partial<Record<ScoredConfidence, ConfidencePrecision>> {
  const levels: ScoredConfidence[] = [...CONFIDENCES];
  if (answered.some((row) => row.answer?.confidence === "unknown")) levels.push("unknown");
  return Object.fromEntries(levels.map((level) => [level, precisionOf(answered.filter((row) => row.answer?.confidence === level))]));
}

export function summarize(rows: QuestionRow[]): Summary {
  const open = rows.filter((row) => row.metrics.answerKind === "open");
  const yesNo = rows.filter((row) => row.metrics.answerKind === "yes_no");
  const answered = rows.filter((row) => row.metrics.answered);
  const credits = rows.map((row) => row.credits_charged);
  return {
    questions: rows.length,
    failed: rows.filter((row) => row.status !== "succeeded").length,
    open_questions: open.length,
    yes_no_questions: yesNo.length,
    answered_rate: share(rows, (row) => row.metrics.answered),
    short_answer_correct: share(rows, (row) => row.metrics.shortAnswerCorrect),
    when_answered: precisionOf(answered),
    exact_match: share(rows, (row) => row.metrics.exactMatch),
    f1: mean(rows.map((row) => row.metrics.f1)),
    by_confidence: byConfidence(answered),
    reliability: reliabilityBins(
      answered.flatMap((row) =>
        typeof row.answer?.probability === "number" ? [{ probability: row.answer.probability, correct: row.metrics.shortAnswerCorrect }] : [],
      ),
    ),
    answers_from_opening: rows.filter((row) => row.answer_source === "opening").length,
    answers_from_opening_fallback: rows.filter((row) => row.answer_source === "opening-fallback").length,
    support_recall: mean(rows.map((row) => row.metrics.supportRecall)),
    both_gold_cited: share(rows, (row) => row.metrics.bothGoldCited),
    sources_cited: mean(rows.map((row) => row.metrics.cited)),
    answer_recall_open: open.length ? share(open, (row) => row.metrics.answerCorrect) : null,
    yes_no_correct: yesNo.length ? share(yesNo, (row) => row.metrics.answerCorrect) : null,
    citation_precision: mean(rows.map((row) => row.metrics.citationPrecision)),
    job_latency_ms: spread(rows.flatMap((row) => (row.latency.job_ms === null ? [] : [row.latency.job_ms]))),
    wall_ms: spread(rows.map((row) => row.latency.wall_ms)),
    credits: { mean: mean(credits), total: credits.reduce((sum, value) => sum + value, 0) },
  };
}

function groupBy(rows: QuestionRow[], key: (row: QuestionRow) => string): Record<string, Summary> {
  const groups = new Map<string, QuestionRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true })).map(([name, members]) => [name, summarize(members)]));
}

export function summarizeGroups(rows: QuestionRow[]): GroupedSummary {
  return {
    total: summarize(rows),
    by_type: groupBy(rows, (row) => row.type),
    by_hops: groupBy(rows, (row) => `${row.hops} hop${row.hops === 1 ? "" : "s"}`),
    by_file: groupBy(rows, (row) => row.file),
  };
}
