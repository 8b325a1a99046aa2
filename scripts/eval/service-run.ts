/**
 * The product path: the evaluation as a customer experiences the service. Starts `npm start`
 * on a fresh state (or uses --base-url), loads the corpus through the admin API, funds the
 * account, creates an API key and asks every question over /v1/research, once per mode asked
 * (the corpus is loaded once, so the modes are measured on the same documents).
 */
import { randomUUID } from "node:crypto";
import { MODES } from "../../src/research/pricing";
import { createApiKey, creditBalance, grantCredits, signInAdmin } from "./account";
import { readAnswer } from "./answer";
import { EVAL_MODES, type EvalOptions } from "./args";
import { isExiting } from "./cleanup";
import { ApiClient } from "./client";
import { corpusStats, uploadCorpus, uploadToCollection } from "./corpus";
import type { LoadedDatasets } from "./dataset";
import { mapPool } from "./pool";
import { questionDetail, questionLine } from "./report";
import { ask } from "./research";
import { buildRow } from "./row";
import { isHealthy, startServer } from "./server";
import type { ModeRun } from "./mode-run";
import { modelSettings } from "./model";
import { AdminSession } from "./admin-session";
import type { EvalWriteReport } from "./write-summary";

/** The client gives up this long after a mode's wall-clock cap (queueing, settlement, SSE delivery). */
const CLIENT_GRACE_SECS = 60;
/** Credits granted per question and mode: twice the dearest price an eval mode has, so no job meets a 402. */
const CREDITS_PER_QUESTION = 2 * Math.max(...EVAL_MODES.map((mode) => MODES[mode].fixedCredits));

const ADMIN_PASSWORD = process.env.EVAL_ADMIN_PASSWORD || "eval admin password 1";

export async function runThroughService(options: EvalOptions, data: LoadedDatasets, log: (line: string) => void): Promise<ModeRun[]> {
  const runId = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
  let baseUrl = options.baseUrl;
  let stop: (() => Promise<void>) | null = null;
  if (baseUrl) {
    if (!(await isHealthy(baseUrl))) throw new Error(`${baseUrl}/healthz does not answer: is the server running?`);
    log(`using the running server at ${baseUrl} (corpus documents are added to its corpus and stay there)`);
  } else {
    const model = options.llm ? modelSettings(options.llm) : null;
    log(`starting the service: npm start -- --port <free> --persist-to <fresh temp dir> ...${model ? ` with the ${model.description}` : ""}`);
    const started = Date.now();
    const server = await startServer({ vars: { ADMIN_EMAILS: options.adminEmail, RATE_LIMIT_SCALE: 1000, ...model?.vars }, secrets: model?.secrets });
    baseUrl = server.baseUrl;
    stop = server.stop;
    log(`service up at ${baseUrl} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  try {
    const api = new ApiClient(baseUrl);
    const admin = await signInAdmin(api, options.adminEmail, ADMIN_PASSWORD);
    const session = new AdminSession(api, options.adminEmail, ADMIN_PASSWORD, admin.accessToken);

    const granted = Math.min(1_000_000, Math.max(1_000, data.questions.length * options.modes.length * CREDITS_PER_QUESTION));
    await grantCredits(api, admin.accessToken, admin.userId, granted, runId);
    const apiKey = await createApiKey(api, admin.accessToken, `eval ${runId}`.slice(0, 100));

    const uploadStarted = Date.now();
    let uploaded: number;
    let collectionId: string | null = null;
    if (options.collection) {
      // The customer path for their own documents: a collection, and every question names it.
      ({ id: collectionId, ingested: uploaded } = await uploadToCollection(api, apiKey, data.corpus));
      log(
        `collection ${collectionId}: uploaded ${uploaded} documents through POST /v1/collections/{id}/documents in ${((Date.now() - uploadStarted) / 1000).toFixed(1)} s`,
      );
    } else {
      uploaded = await uploadCorpus(api, admin.accessToken, data.corpus);
    }
    const stats = await corpusStats(api, admin.accessToken);
    if (!options.collection) {
      log(
        `corpus: uploaded ${uploaded} documents through POST /api/admin/corpus in ${((Date.now() - uploadStarted) / 1000).toFixed(1)} s; ` +
          `the server now holds ${stats.documents} (${stats.domains.map((d) => `${d.domain} ${d.documents}`).join(", ")})`,
      );
    }
    const shared = {
      path: "service",
      base_url: baseUrl,
      started_server: !options.baseUrl,
      model: options.llm ? modelSettings(options.llm).description : "offline engine (LLM_PROVIDER extractive)",
      admin_email: options.adminEmail,
      corpus_uploaded: uploaded,
      collection: collectionId,
      corpus_on_server: stats,
      credits_granted: granted,
    };

    const runs: ModeRun[] = [];
    for (const mode of options.modes) {
      const started = Date.now();
      const balanceBefore = await creditBalance(api, apiKey);
      log(
        `\naccount ${options.adminEmail}: balance ${balanceBefore} of ${granted} granted; asking ${data.questions.length} questions, mode ${mode}, concurrency ${options.concurrency}\n`,
      );
      const timeoutMs = ((options.wallclock ?? MODES[mode].wallclockSecs) + CLIENT_GRACE_SECS) * 1000;
      const jobOptions = {
        ...(collectionId ? { collections: [collectionId] } : {}),
        ...(options.wallclock ? { max_wallclock_secs: options.wallclock } : {}),
      };
      const rows = await mapPool(
        data.questions,
        options.concurrency,
        async (question, index) => {
          const asked = await ask(api, apiKey, question.question, mode, timeoutMs, jobOptions);
          const result = asked.result;
          const writeReport = result?.status === "succeeded" ? await reportOf(session, result.id, log) : null;
          const { answer, source } = readAnswer(result ?? { brief: null, answer: null }, options.answerFrom);
          const row = buildRow(index, question, {
            status: result?.status ?? "no_result",
            error: asked.error,
            jobId: result?.id ?? null,
            httpStatus: asked.httpStatus || null,
            via: asked.via,
            brief: result?.brief ?? null,
            answer,
            answerSource: source,
            sources: result?.sources ?? [],
            jobMs: result?.latency_ms ?? null,
            wallMs: asked.wallMs,
            credits: result?.credits_charged ?? 0,
            costUsd: result?.cost_usd ?? 0,
            waves: result?.wave_count ?? null,
            writeReport,
          });
          if (isExiting()) return row; // interrupted: the server is going away, this is no result
          log(questionLine(row, data.questions.length));
          if (options.verbose) log(questionDetail(row, Boolean(options.llm) || row.write_report !== null));
          return row;
        },
        isExiting,
      );
      if (isExiting()) throw new Error("interrupted");

      const balanceAfter = await creditBalance(api, apiKey);
      runs.push({
        mode,
        rows,
        durationMs: Date.now() - started,
        meta: {
          ...shared,
          balance_before: balanceBefore,
          balance_after: balanceAfter,
          /** What the ledger says this mode's run cost; should equal the sum of credits_charged. */
          ledger_credits_spent: balanceBefore - balanceAfter,
        },
      });
    }
    return runs;
  } finally {
    if (stop) {
      log("stopping the service and removing its state directory");
      await stop();
    }
  }
}

/** The job's write report; a failed read is reported and counted as none, not the end of the run. */
async function reportOf(session: AdminSession, jobId: string, log: (line: string) => void): Promise<EvalWriteReport | null> {
  try {
    return await session.writeReport(jobId);
  } catch (error) {
    log(`write report of job ${jobId} could not be read: ${(error as Error).message}`);
    return null;
  }
}
