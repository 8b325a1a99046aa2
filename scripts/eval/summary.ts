/** Aggregates of question rows: in total, by dataset `type` and by source file. */
import type { QuestionRow } from "./row";

export interface Spread {
  p50: number | null;
  p90: number | null;
  max: number | null;
}

export interface Summary {
  questions: number;
  failed: number;
  open_questions: number;
  yes_no_questions: number;
  /** Mean over questions of gold cited / gold. */
  support_recall: number;
  /** Share of questions citing every gold document. */
  both_gold_cited: number;
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
  by_file: Record<string, Summary>;
}

const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);

/** Nearest-rank percentile. */
function spread(values: number[]): Spread {
  if (!values.length) return { p50: null, p90: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1]! };
}

export function summarize(rows: QuestionRow[]): Summary {
  const open = rows.filter((row) => row.metrics.answerKind === "open");
  const yesNo = rows.filter((row) => row.metrics.answerKind === "yes_no");
  const credits = rows.map((row) => row.credits_charged);
  return {
    questions: rows.length,
    failed: rows.filter((row) => row.status !== "succeeded").length,
    open_questions: open.length,
    yes_no_questions: yesNo.length,
    support_recall: mean(rows.map((row) => row.metrics.supportRecall)),
    both_gold_cited: mean(rows.map((row) => (row.metrics.bothGoldCited ? 1 : 0))),
    answer_recall_open: open.length ? mean(open.map((row) => (row.metrics.answerCorrect ? 1 : 0))) : null,
    yes_no_correct: yesNo.length ? mean(yesNo.map((row) => (row.metrics.answerCorrect ? 1 : 0))) : null,
    citation_precision: mean(rows.map((row) => row.metrics.citationPrecision)),
    job_latency_ms: spread(rows.flatMap((row) => (row.latency.job_ms === null ? [] : [row.latency.job_ms]))),
    wall_ms: spread(rows.map((row) => row.latency.wall_ms)),
    credits: { mean: mean(credits), total: credits.reduce((sum, value) => sum + value, 0) },
  };
}

function groupBy(rows: QuestionRow[], key: (row: QuestionRow) => string): Record<string, Summary> {
  const groups = new Map<string, QuestionRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return Object.fromEntries([...groups].map(([name, members]) => [name, summarize(members)]));
}

export function summarizeGroups(rows: QuestionRow[]): GroupedSummary {
  return { total: summarize(rows), by_type: groupBy(rows, (row) => row.type), by_file: groupBy(rows, (row) => row.file) };
}
