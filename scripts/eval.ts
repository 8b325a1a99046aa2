/**
 * `npm run eval`: how well the deep-research service answers multi-hop questions, measured
 * through the running service exactly as a customer uses it.
 *
 *   npm run eval -- <dataset.json ...> [--mode lite|standard|pro[,...]] [--limit N] [--verbose]
 *                   [--json out.json] [--concurrency N] [--base-url http://127.0.0.1:PORT]
 *                   [--admin-email EMAIL] [--collection] [--answer-from field|opening]
 *                   [--wallclock SECONDS] [--only ID|N[,...]]
 *                   [--in-process [--per-question]] [--llm openai|anthropic [--model ID]]
 *
 * Datasets are HotpotQA-format JSON arrays, optionally with `answer_aliases` per question
 * (scripts/eval/convert.ts turns MuSiQue and 2WikiMultihopQA files into that format); several
 * files are pooled (and also reported per file).
 * By default it starts `npm start -- --port <free> --persist-to <fresh temp dir>
 * --var ADMIN_EMAILS:<admin> --var RATE_LIMIT_SCALE:1000` (so the demo State of the Union corpus
 * is seeded as on a first start), signs the admin up, loads every context paragraph of every
 * question of every file through POST /api/admin/corpus (one document per title, url
 * https://en.wikipedia.org/wiki/<Title_with_underscores>; a title's different paragraphs are
 * joined), funds the account through the admin credits endpoint, creates an API key and asks each
 * question with POST /v1/research, following 202 jobs over SSE (or polling with backoff), once per
 * mode listed in --mode (standard,pro: every question in standard, then every one in pro, on the
 * same corpus). The server is always stopped and its state removed.
 * --limit N asks the first N questions of each file; the corpus still holds every file's paragraphs.
 * --only ID|N[,...] asks only those questions, each named by its id or its number (1-based, as the
 * per-question lines of a run with the same files and --limit number it); the corpus is unchanged.
 * --wallclock SECONDS is sent as every job's max_wallclock_secs (1 to 3600; the client waits that
 * long plus a grace): a capable model relayed from elsewhere answers slower than a mode's limit allows.
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
 * Metrics (per question, in total, by `type`, by hop count and by file), for each mode:
 * - the short answer (result.answer): answered rate, exact match and F1 (SQuAD/HotpotQA
 *   normalisation, best over the gold answer and its aliases), correct (F1 >= 0.5, the gold answer
 *   contained as whole words, or for yes/no the answer starting with the right word), precision
 *   when answered and per confidence level. A result without an `answer` field (a server older
 *   than it) has its brief's opening sentence scored instead, confidence "unknown", and the report
 *   says so; --answer-from opening does that for every result (a "before" measure).
 * - the brief and its sources: supporting-document recall and the share citing every gold
 *   document (supporting_facts titles as wiki urls against result.sources), sources cited, answer
 *   recall for open questions (the normalised answer as whole words in the brief), yes/no
 *   correctness of the opening, citation precision (gold cited / all cited);
 * - job and client latency (p50 / p90 / max), credits charged and failed jobs.
 * A job that fails or never answers counts as a miss everywhere. With --json and several modes,
 * each mode's rows go to their own file (out.standard.json, out.pro.json).
 *
 * --llm openai|anthropic [--model ID] starts the service with that hosted model (LLM_PROVIDER,
 * LLM_MODEL; OPENAI_BASE_URL or ANTHROPIC_BASE_URL and LLM_CONTEXT_TOKENS from the environment, as
 * --var) and its key from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY) in an owner-only env
 * file under the server's temporary state directory, never on a command line or in the output
 * (scripts/eval/model.ts). scripts/eval/stand-in-model.ts is a local OpenAI-compatible stand-in.
 *
 * --in-process runs the engine directly on a clean corpus: debugging only, NOT the product path.
 */
import { execFileSync } from "node:child_process";
import { parseArgs, USAGE, UsageError } from "./eval/args";
import { isExiting, runCleanup } from "./eval/cleanup";
import { loadDatasets } from "./eval/dataset";
import { onlyQuestions } from "./eval/only";
import type { ModeRun } from "./eval/mode-run";
import { answerSourceNote, jsonPathForMode, reliabilityTable, retrievalTable, shortAnswerTable, writeJson } from "./eval/report";
import { runThroughService } from "./eval/service-run";
import { summarizeGroups } from "./eval/summary";
import { summarizeWrites, writeSummaryTable } from "./eval/write-summary";

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
  const loaded = loadDatasets(options.files, options.limit);
  // The corpus keeps every question's paragraphs: --only changes what is asked, not what is searched.
  const data = options.only ? { ...loaded, questions: onlyQuestions(loaded.questions, options.only) } : loaded;
  if (data.joinedTitles.length)
    log(
      `note: ${data.joinedTitles.length} titles have several different paragraphs (across questions or files); each title's paragraphs are joined into one document`,
    );
  if (data.emptyTitles.length) log(`note: ${data.emptyTitles.length} context paragraphs are empty and were left out`);
  log(`${data.questions.length} questions from ${options.files.join(", ")}; ${data.corpus.length} corpus documents`);

  const started = Date.now();
  let runs: ModeRun[];
  let banner = "";
  if (options.inProcess) {
    const { runInProcess, IN_PROCESS_BANNER } = await import("./eval/in-process");
    runs = await runInProcess(options, data, log);
    banner = IN_PROCESS_BANNER;
  } else {
    runs = await runThroughService(options, data, log);
  }
  if (isExiting()) return 1; // interrupted: the rows after the interruption are not results

  const revision = gitRevision();
  for (const run of runs) {
    const summary = summarizeGroups(run.rows);
    const charged = summary.total.credits.total;
    const engine = options.llm ? `, model ${options.llm.provider}:${options.llm.model ?? "default"}` : "";
    log(
      `\n${banner ? `${banner}\n\n` : ""}## ${options.inProcess ? "In-process engine (debug)" : "Through the service"}: mode ${run.mode}${engine}, ${run.rows.length} questions, ${(run.durationMs / 1000).toFixed(0)} s, revision ${revision ?? "unknown"}\n`,
    );
    log(`### Short answer\n\n${shortAnswerTable(summary)}\n`);
    const note = answerSourceNote(summary);
    if (note) log(`${note}\n`);
    const reliability = reliabilityTable(summary.total);
    if (reliability) log(`### Reliability of the stated answers (all questions)\n\n${reliability}\n`);
    log(`### Sources, brief, latency and credits\n\n${retrievalTable(summary)}`);
    // A model run (or a running server that reports its write stage): what was kept of the model's writing.
    const writes = summarizeWrites(run.rows.filter((row) => row.status === "succeeded").map((row) => row.write_report));
    if (options.llm || writes.reported > 0) log(`\n### The model's writing: claims and answers kept\n\n${writeSummaryTable(writes)}`);
    if (typeof run.meta.ledger_credits_spent === "number" && run.meta.ledger_credits_spent !== charged) {
      log(`\nWARNING: the ledger says ${run.meta.ledger_credits_spent} credits were spent in mode ${run.mode}, the jobs report ${charged} charged`);
    }
    for (const row of run.rows.filter((r) => r.status !== "succeeded"))
      log(`failed (${run.mode}): #${row.index + 1} ${row.question.slice(0, 80)}: ${row.error}`);
    if (options.jsonOut) {
      const path = jsonPathForMode(options.jsonOut, run.mode, runs.length > 1);
      const meta = {
        ...run.meta,
        mode: run.mode,
        answer_from: options.answerFrom,
        files: options.files,
        limit: options.limit ?? null,
        concurrency: options.concurrency,
        revision,
        started_at: new Date(started).toISOString(),
        duration_ms: run.durationMs,
        corpus_documents: data.corpus.length,
        wallclock_secs: options.wallclock ?? null,
        only: options.only ?? null,
        write: writes,
      };
      writeJson(path, meta, summary, run.rows);
      log(`\nwrote ${path}`);
    }
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
