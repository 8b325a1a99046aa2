/** What the evaluation prints (a line per question, the markdown table) and writes (--json). */
import { writeFileSync } from "node:fs";
import type { QuestionRow } from "./row";
import type { GroupedSummary, Spread, Summary } from "./summary";

export function questionLine(row: QuestionRow, total: number): string {
  const m = row.metrics;
  const gold = m.bothGoldCited ? "both" : `${m.goldCited}/${m.goldTotal} `;
  const answer = `${m.answerCorrect ? "ans" : "---"}${m.answerKind === "yes_no" ? "(y/n)" : "     "}`;
  const latency = `job ${row.latency.job_ms === null ? "   -  " : `${(row.latency.job_ms / 1000).toFixed(1).padStart(5)}s`} wall ${(row.latency.wall_ms / 1000).toFixed(1).padStart(5)}s`;
  const status = row.status === "succeeded" ? "" : ` [${row.status.toUpperCase()}: ${row.error ?? ""}]`;
  return (
    `${String(row.index + 1).padStart(String(total).length)}/${total} ${gold} ${answer} prec ${m.citationPrecision.toFixed(2)} ` +
    `${latency} ${String(row.credits_charged).padStart(3)} cr ${row.via.padEnd(4)} ${row.type.padEnd(12)} ${row.question.slice(0, 70)}${status}`
  );
}

export function questionDetail(row: QuestionRow): string {
  return [
    `   expected: ${row.expected_answer}    gold: ${row.gold_urls.join(" ; ")}`,
    ...row.brief.split("\n").map((line) => `   | ${line}`),
    `   sources (${row.sources.length}): ${row.sources.map((source) => source.title).join(" ; ")}`,
    "",
  ].join("\n");
}

const ratio = (value: number | null, of: number) => (value === null ? "–" : `${value.toFixed(3)} (${Math.round(value * of)}/${of})`);
const seconds = (s: Spread) => (s.p50 === null ? "–" : [s.p50, s.p90, s.max].map((ms) => (ms! / 1000).toFixed(2)).join(" / "));

function tableRow(name: string, s: Summary): string {
  return `| ${name} | ${s.questions} | ${s.failed} | ${s.support_recall.toFixed(3)} | ${ratio(s.both_gold_cited, s.questions)} | ${ratio(s.answer_recall_open, s.open_questions)} | ${ratio(s.yes_no_correct, s.yes_no_questions)} | ${s.citation_precision.toFixed(3)} | ${seconds(s.job_latency_ms)} | ${seconds(s.wall_ms)} | ${s.credits.mean.toFixed(1)} / ${s.credits.total} |`;
}

export function markdownTable(summary: GroupedSummary): string {
  const lines = [
    "| group | questions | failed | supporting-doc recall | both gold cited | answer recall (open) | yes/no correct | citation precision | job latency p50 / p90 / max (s) | client wall p50 / p90 / max (s) | credits mean / total |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    tableRow("**all**", summary.total),
    ...Object.entries(summary.by_type).map(([type, s]) => tableRow(`type: ${type}`, s)),
  ];
  if (Object.keys(summary.by_file).length > 1) lines.push(...Object.entries(summary.by_file).map(([file, s]) => tableRow(`file: ${file}`, s)));
  return lines.join("\n");
}

export function writeJson(path: string, meta: Record<string, unknown>, summary: GroupedSummary, rows: QuestionRow[]): void {
  writeFileSync(path, `${JSON.stringify({ meta, totals: summary.total, by_type: summary.by_type, by_file: summary.by_file, rows }, null, 2)}\n`);
}
