/** What the evaluation prints (a line per question, the markdown tables) and writes (--json). */
import { writeFileSync } from "node:fs";
import type { ScoredConfidence } from "./answer";
import type { QuestionRow } from "./row";
import type { ConfidencePrecision, GroupedSummary, Spread, Summary } from "./summary";
import { writeDetail } from "./write-summary";

function shortAnswerCell(row: QuestionRow): string {
  if (!row.answer) return "sa null            ";
  const probability = row.answer.probability === undefined ? "    " : row.answer.probability.toFixed(2);
  return `sa ${row.metrics.shortAnswerCorrect ? "ok" : "--"} ${row.answer.confidence.padEnd(7)} ${probability}`;
}

export function questionLine(row: QuestionRow, total: number): string {
  const m = row.metrics;
  const gold = m.bothGoldCited ? "both" : `${m.goldCited}/${m.goldTotal} `;
  const answer = `${m.answerCorrect ? "ans" : "---"}${m.answerKind === "yes_no" ? "(y/n)" : "     "}`;
  const latency = `job ${row.latency.job_ms === null ? "   -  " : `${(row.latency.job_ms / 1000).toFixed(1).padStart(5)}s`} wall ${(row.latency.wall_ms / 1000).toFixed(1).padStart(5)}s`;
  const status = row.status === "succeeded" ? "" : ` [${row.status.toUpperCase()}: ${row.error ?? ""}]`;
  return (
    `${String(row.index + 1).padStart(String(total).length)}/${total} ${shortAnswerCell(row)} ${gold} ${answer} prec ${m.citationPrecision.toFixed(2)} ` +
    `${latency} ${String(row.credits_charged).padStart(3)} cr ${row.via.padEnd(4)} ${row.type.padEnd(12)} ${row.question.slice(0, 70)}${status}`
  );
}

/** `withWrite`: a model run, so the write stage's report is shown (or that there is none). */
export function questionDetail(row: QuestionRow, withWrite = false): string {
  const aliases = row.answer_aliases.length ? ` (or ${row.answer_aliases.join(" / ")})` : "";
  const probability = row.answer?.probability === undefined ? "" : ` p ${row.answer.probability.toFixed(3)}`;
  const answer = row.answer
    ? `${row.answer.text}  [${row.answer.confidence}${probability}; sources ${row.answer.citations.map((i) => i + 1).join(", ") || "none"}]`
    : "null";
  return [
    `   expected: ${row.expected_answer}${aliases}    gold: ${row.gold_urls.join(" ; ")}`,
    `   answer (${row.answer_source}): ${answer}    F1 ${row.metrics.f1.toFixed(2)}`,
    ...row.brief.split("\n").map((line) => `   | ${line}`),
    `   sources (${row.sources.length}): ${row.sources.map((source) => source.title).join(" ; ")}`,
    ...(withWrite ? writeDetail(row.write_report) : []),
    "",
  ].join("\n");
}

const ratio = (value: number | null, of: number) => (value === null ? "–" : `${value.toFixed(3)} (${Math.round(value * of)}/${of})`);
const seconds = (s: Spread) => (s.p50 === null ? "–" : [s.p50, s.p90, s.max].map((ms) => (ms! / 1000).toFixed(2)).join(" / "));
const precisionCell = (p: ConfidencePrecision | undefined) => (!p || p.precision === null ? "– (0)" : `${p.precision.toFixed(3)} (${p.correct}/${p.answered})`);

function groups(summary: GroupedSummary): [string, Summary][] {
  const rows: [string, Summary][] = [
    ["**all**", summary.total],
    ...Object.entries(summary.by_type).map(([type, s]): [string, Summary] => [`type: ${type}`, s]),
    ...Object.entries(summary.by_hops).map(([hops, s]): [string, Summary] => [`hops: ${hops}`, s]),
  ];
  if (Object.keys(summary.by_file).length > 1) rows.push(...Object.entries(summary.by_file).map(([file, s]): [string, Summary] => [`file: ${file}`, s]));
  return rows;
}

/** The confidence columns: high, medium, low, and unknown when an opening sentence stood in for answers. */
function confidenceLevels(summary: GroupedSummary): ScoredConfidence[] {
  return Object.keys(summary.total.by_confidence) as ScoredConfidence[];
}

/** Short answers: how often one is given, how often it is right, and how far each confidence level can be trusted. */
export function shortAnswerTable(summary: GroupedSummary): string {
  const levels = confidenceLevels(summary);
  const row = (name: string, s: Summary) =>
    `| ${name} | ${s.questions} | ${ratio(s.answered_rate, s.questions)} | ${ratio(s.short_answer_correct, s.questions)} | ${precisionCell(s.when_answered)} | ${s.exact_match.toFixed(3)} | ${s.f1.toFixed(3)} | ${levels.map((level) => precisionCell(s.by_confidence[level])).join(" | ")} |`;
  return [
    `| group | questions | answered | correct (of all) | precision when answered | EM | F1 | ${levels.map((level) => `precision ${level}`).join(" | ")} |`,
    `|${"---|".repeat(7 + levels.length)}`,
    ...groups(summary).map(([name, s]) => row(name, s)),
  ].join("\n");
}

/**
 * The reliability table: the answers stated with a probability, binned by it, against how many
 * were right. A calibrated engine's observed column tracks the predicted one.
 */
export function reliabilityTable(summary: Summary): string | null {
  if (summary.reliability.length === 0) return null;
  const stated = summary.reliability.reduce((sum, bin) => sum + bin.count, 0);
  return [
    `Answers stated with a probability: ${stated}. Predicted is the bin's mean probability, observed the share that was right.`,
    "",
    "| predicted probability | count | predicted (mean) | observed |",
    "|---|---|---|---|",
    ...summary.reliability.map(
      (bin) =>
        `| ${bin.from.toFixed(2)}–${bin.to.toFixed(2)} | ${bin.count} | ${bin.predicted.toFixed(3)} | ${bin.observed.toFixed(3)} (${Math.round(bin.observed * bin.count)}/${bin.count}) |`,
    ),
  ].join("\n");
}

/** What was cited, whether the brief holds the answer somewhere, latency and cost. */
export function retrievalTable(summary: GroupedSummary): string {
  const row = (name: string, s: Summary) =>
    `| ${name} | ${s.questions} | ${s.failed} | ${s.support_recall.toFixed(3)} | ${ratio(s.both_gold_cited, s.questions)} | ${s.sources_cited.toFixed(1)} | ${ratio(s.answer_recall_open, s.open_questions)} | ${ratio(s.yes_no_correct, s.yes_no_questions)} | ${s.citation_precision.toFixed(3)} | ${seconds(s.job_latency_ms)} | ${seconds(s.wall_ms)} | ${s.credits.mean.toFixed(1)} / ${s.credits.total} |`;
  return [
    "| group | questions | failed | supporting-doc recall | both gold cited | sources cited (mean) | answer in brief (open) | yes/no opening correct | citation precision | job latency p50 / p90 / max (s) | client wall p50 / p90 / max (s) | credits mean / total |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...groups(summary).map(([name, s]) => row(name, s)),
  ].join("\n");
}

/** Says where an opening sentence was scored instead of the `answer` field, so no reader mistakes one for the other. */
export function answerSourceNote(summary: GroupedSummary): string | null {
  const { answers_from_opening: asked, answers_from_opening_fallback: fallback, questions } = summary.total;
  const notes: string[] = [];
  if (asked)
    notes.push(
      `--answer-from opening: for all ${asked} results the brief's opening sentence was scored as the short answer (confidence "unknown"), whatever their \`answer\` field says.`,
    );
  if (fallback)
    notes.push(
      `${fallback} of ${questions} results had no \`answer\` field (a server older than it): their brief's opening sentence was scored as the short answer, confidence "unknown".`,
    );
  return notes.length ? notes.join("\n") : null;
}

export function writeJson(path: string, meta: Record<string, unknown>, summary: GroupedSummary, rows: QuestionRow[]): void {
  writeFileSync(
    path,
    `${JSON.stringify({ meta, totals: summary.total, by_type: summary.by_type, by_hops: summary.by_hops, by_file: summary.by_file, rows }, null, 2)}\n`,
  );
}

/** out.json for one mode; out.standard.json, out.pro.json when several modes were run. */
export function jsonPathForMode(path: string, mode: string, severalModes: boolean): string {
  if (!severalModes) return path;
  return /\.json$/i.test(path) ? path.replace(/\.json$/i, `.${mode}.json`) : `${path}.${mode}.json`;
}
