/**
 * DEBUGGING ONLY, NOT THE PRODUCT PATH: the engine called in-process (runResearch) on a fresh
 * local D1 holding only the evaluation corpus (no State of the Union documents, no HTTP, no
 * job Durable Object, queue, ledger or settlement). Useful to iterate on the engine; the figures
 * a customer gets are the ones of the default (service) path.
 * With --per-question, each question is asked of a corpus holding only its own ten paragraphs
 * (HotpotQA's distractor setting) instead of the pooled one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProviders, runResearch } from "../../src/research/engine";
import { ingestDocuments } from "../../src/research/providers/corpus-store";
import { budgetsForMode, creditsCharged } from "../../src/research/pricing";
import { applyMigrations, openLocalD1 } from "../lib/local-d1.mjs";
import { readAnswer } from "./answer";
import type { EvalOptions } from "./args";
import { onCleanup } from "./cleanup";
import type { LoadedDatasets } from "./dataset";
import { questionDetail, questionLine } from "./report";
import type { ModeRun } from "./mode-run";
import { buildRow, type QuestionRow } from "./row";

export const IN_PROCESS_BANNER =
  "*** IN-PROCESS DEBUG RUN: the engine called directly on a clean corpus. NOT the product path; these figures are not what a customer gets. ***";

export async function runInProcess(options: EvalOptions, data: LoadedDatasets, log: (line: string) => void): Promise<ModeRun[]> {
  const dir = mkdtempSync(join(tmpdir(), "research-eval-"));
  const { db, dispose } = await openLocalD1(dir);
  let disposed = false;
  const cleanup = async () => {
    if (!disposed) {
      disposed = true;
      await dispose();
    }
    rmSync(dir, { recursive: true, force: true });
  };
  onCleanup({ run: cleanup, runSync: () => rmSync(dir, { recursive: true, force: true }) });
  try {
    await applyMigrations(db);
    if (!options.perQuestion) await ingestDocuments(db, data.corpus);
    log(
      `${IN_PROCESS_BANNER}\ncorpus: ${options.perQuestion ? "each question's own paragraphs" : `${data.corpus.length} documents`}; modes ${options.modes.join(", ")}; LLM ${process.env.LLM_PROVIDER ?? "extractive"}\n`,
    );
    const providers = createProviders(
      {
        SEARCH_PROVIDER: "corpus",
        LLM_PROVIDER: process.env.LLM_PROVIDER,
        LLM_MODEL: process.env.LLM_MODEL,
        OPENAI_API_KEY: process.env.OPENAI_API_KEY,
        OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
        ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY,
      },
      db,
    );
    const runs: ModeRun[] = [];
    for (const mode of options.modes) {
      const started = Date.now();
      const budgets = budgetsForMode(mode, { maxWallclockSecs: options.wallclock });
      const rows: QuestionRow[] = [];
      log(`\nmode ${mode}\n`);
      for (const [index, question] of data.questions.entries()) {
        if (options.perQuestion) {
          await db.prepare("DELETE FROM corpus_documents").run();
          await ingestDocuments(db, question.documents);
        }
        const questionStarted = performance.now();
        let row: QuestionRow;
        try {
          const result = await runResearch({ question: question.question, mode, budgets, include_sources: true }, { providers });
          const wallMs = Math.round(performance.now() - questionStarted);
          const { answer, source } = readAnswer(result, options.answerFrom);
          row = buildRow(index, question, {
            status: "succeeded",
            error: null,
            jobId: null,
            httpStatus: null,
            via: "in-process",
            brief: result.brief,
            answer,
            answerSource: source,
            sources: result.sources,
            jobMs: wallMs,
            wallMs,
            credits: creditsCharged(mode, result.cost_usd),
            costUsd: result.cost_usd,
            waves: result.wave_count,
          });
        } catch (error) {
          const wallMs = Math.round(performance.now() - questionStarted);
          row = buildRow(index, question, {
            status: "failed",
            error: (error as Error).message,
            jobId: null,
            httpStatus: null,
            via: "in-process",
            brief: null,
            answer: null,
            answerSource: "field",
            sources: [],
            jobMs: wallMs,
            wallMs,
            credits: 0,
            costUsd: 0,
            waves: null,
          });
        }
        rows.push(row);
        log(questionLine(row, data.questions.length));
        if (options.verbose) log(questionDetail(row));
      }
      runs.push({
        mode,
        rows,
        durationMs: Date.now() - started,
        meta: { path: "in-process (NOT the product path)", per_question_corpus: options.perQuestion, corpus_documents: data.corpus.length },
      });
    }
    return runs;
  } finally {
    await cleanup();
  }
}
