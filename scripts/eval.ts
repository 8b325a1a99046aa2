/**
 * `npm run eval`: how well the deep-research service answers multi-hop questions, measured
 * through the running service exactly as a customer uses it.
 *
 *   npm run eval -- <dataset.json ...> [--mode lite|standard|pro] [--limit N] [--verbose]
 *                   [--json out.json] [--concurrency N] [--base-url http://127.0.0.1:PORT]
 *                   [--admin-email EMAIL] [--collection] [--in-process [--per-question]]
 *
 * Datasets are HotpotQA-format JSON arrays; several files are pooled (and also reported per file).
 * By default it starts `npm start -- --port <free> --persist-to <fresh temp dir>
 * --var ADMIN_EMAILS:<admin> --var RATE_LIMIT_SCALE:1000` (so the demo State of the Union corpus
 * is seeded as on a first start), signs the admin up, loads every context paragraph of every
 * question of every file through POST /api/admin/corpus (one document per title, url
 * https://en.wikipedia.org/wiki/<Title_with_underscores>), funds the account through the admin
 * credits endpoint, creates an API key and asks each question with POST /v1/research, following
 * 202 jobs over SSE (or polling with backoff). The server is always stopped and its state removed.
 * --limit N asks the first N questions of each file; the corpus still holds every file's paragraphs.
 * --collection puts the paragraphs into a collection of the eval account instead (POST
 * /v1/collections/{id}/documents, charged like any upload) and every question names it: the
 * quality of research over a customer's own documents, with the demo corpus not searched.
 *
 * --base-url uses a server that is already running on this machine instead; the admin email
 * (default eval-admin@example.com, or --admin-email / EVAL_ADMIN_EMAIL; password from
 * EVAL_ADMIN_PASSWORD) must be in that server's ADMIN_EMAILS, e.g.
 * `npm start -- --var ADMIN_EMAILS:eval-admin@example.com --var RATE_LIMIT_SCALE:1000`.
 * The documents it loads stay in that server's corpus.
 *
 * Metrics (per question, in total, by `type` and by file): supporting-document recall and the
 * share citing both gold documents (supporting_facts titles as wiki urls against result.sources),
 * answer recall for open questions (the SQuAD-normalised answer as whole words in the brief),
 * yes/no correctness (the brief's first sentence starts with the right yes / no), citation
 * precision (gold cited / all cited), job and client latency (p50 / p90 / max), credits charged
 * and failed jobs. A job that fails or never answers counts as a miss everywhere.
 *
 * --in-process runs the engine directly on a clean corpus: debugging only, NOT the product path.
 */
import { execFileSync } from "node:child_process";
import { parseArgs, USAGE, UsageError } from "./eval/args";
import { isExiting, runCleanup } from "./eval/cleanup";
import { loadDatasets } from "./eval/dataset";
import { markdownTable, writeJson } from "./eval/report";
import type { QuestionRow } from "./eval/row";
import { runThroughService } from "./eval/service-run";
import { summarizeGroups } from "./eval/summary";

function gitRevision(): string | null {
  try {
    return execFileSync("git", ["describe", "--always", "--dirty"], { cwd: import.meta.dirname, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(error.message);
    console.error(USAGE);
    return 2;
  }
  const log = (line: string) => console.log(line);
  const data = loadDatasets(options.files, options.limit);
  if (data.conflictingTitles.length) log(`note: ${data.conflictingTitles.length} titles have different paragraphs across questions; the longest is loaded`);
  if (data.emptyTitles.length) log(`note: ${data.emptyTitles.length} context paragraphs are empty and were left out`);
  log(`${data.questions.length} questions from ${options.files.join(", ")}; ${data.corpus.length} corpus documents`);

  const started = Date.now();
  let run: { rows: QuestionRow[]; meta: Record<string, unknown> };
  let banner = "";
  if (options.inProcess) {
    const { runInProcess, IN_PROCESS_BANNER } = await import("./eval/in-process");
    run = await runInProcess(options, data, log);
    banner = IN_PROCESS_BANNER;
  } else {
    run = await runThroughService(options, data, log);
  }
  const durationMs = Date.now() - started;
  if (isExiting()) return 1; // interrupted: the rows after the interruption are not results

  const summary = summarizeGroups(run.rows);
  const charged = summary.total.credits.total;
  log(`\n${banner ? `${banner}\n\n` : ""}## ${options.inProcess ? "In-process engine (debug)" : "Through the service"}: mode ${options.mode}, ${run.rows.length} questions, ${(durationMs / 1000).toFixed(0)} s, revision ${gitRevision() ?? "unknown"}\n`);
  log(markdownTable(summary));
  if (typeof run.meta.ledger_credits_spent === "number" && run.meta.ledger_credits_spent !== charged) {
    log(`\nWARNING: the ledger says ${run.meta.ledger_credits_spent} credits were spent, the jobs report ${charged} charged`);
  }
  const failures = run.rows.filter((row) => row.status !== "succeeded");
  for (const row of failures) log(`failed: #${row.index + 1} ${row.question.slice(0, 80)}: ${row.error}`);
  if (options.jsonOut) {
    const meta = {
      ...run.meta,
      mode: options.mode,
      files: options.files,
      limit: options.limit ?? null,
      concurrency: options.concurrency,
      revision: gitRevision(),
      started_at: new Date(started).toISOString(),
      duration_ms: durationMs,
      corpus_documents: data.corpus.length,
    };
    writeJson(options.jsonOut, meta, summary, run.rows);
    log(`\nwrote ${options.jsonOut}`);
  }
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  // The message says what to do; the stack only helps when debugging the evaluation itself.
  const verbose = process.argv.includes("--verbose");
  if (!isExiting()) console.error(error instanceof Error ? `eval failed: ${verbose ? (error.stack ?? error.message) : error.message}` : error);
} finally {
  await runCleanup();
}
process.exit(code);
