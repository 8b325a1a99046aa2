// Section 5 of npm run bench: each fixed-price mode on the corpus path (the default), its job
// latency next to the quality figures of the same jobs. The jobs are the quality evaluation's own
// (`npm run eval`: the service started as `npm start` does, the demo corpus present, held-out
// questions loaded beside it, each question asked over HTTP), so a change that makes jobs deeper
// shows here as latency and as quality together.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DATASET = "eval/heldout-multihop.json";
const MODES = ["lite", "standard", "pro"] as const;

interface Spread {
  p50: number | null;
  p90: number | null;
  max: number | null;
}
interface Totals {
  questions: number;
  failed: number;
  answered_rate: number;
  short_answer_correct: number;
  when_answered: { precision: number | null; correct: number; answered: number };
  both_gold_cited: number;
  job_latency_ms: Spread;
  credits: { mean: number };
}

const secs = (ms: number | null) => (ms === null ? "–" : (ms / 1000).toFixed(2));

/** Runs the evaluation on DATASET in every mode and returns the section's lines. */
export function modesSection(limit: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), "bench-modes-"));
  try {
    const out = join(dir, "eval.json");
    const args = ["tsx", "scripts/eval.ts", DATASET, "--mode", MODES.join(","), "--json", out, ...(limit > 0 ? ["--limit", String(limit)] : [])];
    const run = spawnSync("npx", args, { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`npm run eval failed (${run.status}):\n${run.stderr.slice(-2000)}`);
    const lines = [
      `## 5. Jobs per mode on the corpus path, next to their quality (${DATASET}${limit > 0 ? `, first ${limit} questions` : ""}, through \`npm run eval\`)`,
      "",
      "The evaluation's own run: the service as `npm start` serves it (demo corpus present, the dataset's paragraphs loaded beside it), every question over HTTP, one mode after the other. Job latency is the result's `latency_ms`.",
      "",
      "| mode | questions | failed | job latency p50 / p90 / max (s) | answered | correct (of all) | precision when answered | both gold cited | credits mean |",
      "|---|---|---|---|---|---|---|---|---|",
    ];
    for (const mode of MODES) {
      const path = out.replace(/\.json$/, `.${mode}.json`);
      if (!existsSync(path)) throw new Error(`the evaluation wrote no ${path}`);
      const t = (JSON.parse(readFileSync(path, "utf8")) as { totals: Totals }).totals;
      const precision =
        t.when_answered.precision === null ? "–" : `${t.when_answered.precision.toFixed(3)} (${t.when_answered.correct}/${t.when_answered.answered})`;
      lines.push(
        `| ${mode} | ${t.questions} | ${t.failed} | ${secs(t.job_latency_ms.p50)} / ${secs(t.job_latency_ms.p90)} / ${secs(t.job_latency_ms.max)} | ` +
          `${t.answered_rate.toFixed(3)} | ${t.short_answer_correct.toFixed(3)} | ${precision} | ${t.both_gold_cited.toFixed(3)} | ${t.credits.mean.toFixed(1)} |`,
      );
    }
    lines.push("");
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
