import type { Db } from "../db/client";
import { isTerminal, type ResearchJobRow } from "../db/schema/jobs";
import type { Caller } from "../db/schema/users";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { sseEvent, SSE_HEADERS } from "../lib/sse";
import type { Deps } from "../services/deps";
import { listDeliveries, resendDelivery } from "../webhooks/delivery";
import type { JobEvent } from "./event-shapes";
import { type FollowOptions, followJobEvents, rowEvents } from "./job/follow-job";
import { cancelAnswer } from "./job/cancel-outcome";
import { describeSearchSource, type SearchSource } from "./providers/search-source";
import { quoteResearch } from "./submit/quote";
import type { ResearchQuote } from "./submit/quote";
import type { ResearchJob } from "./job/job";
import { jobObject } from "./job/job-object";
import type { ResearchResult } from "./job/job-state";
import { finishedResults } from "./job/finished-results";
import { findOwnJob, listOwnJobs, resultFromRow } from "./job/job-store";
import { currentResult, finalResultJson } from "./job/current-result";
import type { CancelResult } from "./shapes";
import type { ResearchRequest } from "./request/request";
import { type SubmitResponse, submitResearch } from "./submit/submit";

/**
 * The research feature's front door. Routes (/v1, the playground, the dashboard), the admin
 * services and the worker entry call what this file exports; nothing outside research/ reaches
 * job rows, job objects, queues or providers directly.
 */

export { ResearchRequestSchema, type ResearchRequest } from "./request/request";
export * from "./shapes";
export * from "./event-shapes";
export type { FollowOptions } from "./job/follow-job";
export type { WriteReport } from "./engine";
export type { SubmitResponse } from "./submit/submit";
export { ResearchQuoteDto, type ResearchQuote } from "./submit/quote";
export { createPlan, ResearchPlanDto, type ResearchPlanBody } from "./submit/plans";
export { OP_PRICES, RESEARCH_MODES, budgetsForMode, modePrices, reservationCredits, type ResearchMode } from "./pricing";
export {
  jobListColumns,
  ownJobListColumns,
  jobSummary,
  researchLogRow,
  logRow,
  recentJob,
  usageBuckets,
  type JobListRow,
  type OwnJobListRow,
  type UsageBucket,
} from "./job/job-store";
export { ingestDocuments as ingestCorpusDocuments, deleteDomain as deleteCorpusDomain, corpusStats, type CorpusDocumentInput } from "./providers/corpus-store";
// An account's own documents (collections), which research can be pointed at.
export * from "./collections/shapes";
export {
  createCollection,
  ownCollection,
  collectionDto,
  listCollections,
  updateCollection,
  deleteCollection,
  listDocuments,
  getDocument,
  deleteDocument,
} from "./collections/store";
export { documentsFromFiles, MAX_FILE_BYTES } from "./collections/files";
export { ingest } from "./collections/ingest";
export { storageQuotaBytes, MAX_DOCUMENTS_PER_COLLECTION, UPLOAD_LIMITS } from "./collections/limits";
// The worker entry's parts of the feature: the job object, the queue consumers and the sweep.
export { ResearchJob } from "./job/job";
export { consumeTaskBatch, consumeDeadTaskBatch } from "./job/task-consumer";
export { isTaskQueue } from "./tasks/task-queues";
export { sweepStuckJobs } from "./job/sweep";

export interface ResearchCaller {
  user: Caller;
  /** Where the job was submitted: the public API (with this key) or the dashboard's playground. */
  origin: "api" | "playground";
  apiKeyId: string | null;
  /** A monitor's run: the monitor that submits it (the job's row records it). */
  monitorId?: string;
}

export interface SubmitOptions {
  idempotencyKey: string | undefined;
  /** Where status_url and events_url point: /v1/research or /api/playground/research on this host. */
  resourceBase: string;
}

type ResearchDeps = Pick<Deps, "db" | "config" | "env">;

/** POST /research: the result (short jobs) or where to follow it. */
export function submit(
  deps: ResearchDeps & Pick<Deps, "defer">,
  caller: ResearchCaller,
  request: ResearchRequest,
  options: SubmitOptions,
): Promise<SubmitResponse> {
  return submitResearch(
    { ...deps, user: caller.user, origin: caller.origin, apiKeyId: caller.apiKeyId, monitorId: caller.monitorId, resourceBase: options.resourceBase },
    request,
    options.idempotencyKey,
  );
}

/** POST /research/quote: what a submit of this body would reserve and run, and whether it would be accepted now; nothing is written. */
export function quote(deps: ResearchDeps, user: Caller, request: ResearchRequest): Promise<ResearchQuote> {
  return quoteResearch({ ...deps, user }, request);
}

/** The caller's job row, else 404 (an unknown id and another account's job look the same). */
async function ownJob(db: Db, userId: string, id: string): Promise<ResearchJobRow> {
  const job = await findOwnJob(db, userId, id);
  if (!job) throw ApiError.notFound("Research job");
  return job;
}

/** GET /research/{id}: a finished job's result from this isolate's memory once read. */
export async function getJob(deps: ResearchDeps, userId: string, id: string): Promise<ResearchResult> {
  const finished = finishedResults.get(userId, id);
  if (finished) return finished;
  const job = await ownJob(deps.db, userId, id);
  const result = await currentResult(deps.env, job);
  const json = finalResultJson(job);
  if (json) finishedResults.set(userId, id, result, json.length);
  return result;
}

/**
 * DELETE /research/{id}: cancelled and charged only for work done; a finished job comes back
 * unchanged, with `cancel_outcome` saying the cancel arrived too late.
 */
export async function cancelJob(deps: ResearchDeps, userId: string, id: string): Promise<CancelResult> {
  const job = await ownJob(deps.db, userId, id);
  // Typed as the object's own method: the runtime's RPC types map a result holding `typed: unknown` to never.
  const answer = (await jobObject(deps.env, job.id).cancel()) as Awaited<ReturnType<ResearchJob["cancel"]>>;
  if (answer) return cancelAnswer(answer.result, answer.endedBefore);
  // The object never received its job: finished ones answer from their row; an open one is a
  // submit still starting it (its row is written first), which a moment later can be cancelled.
  const result = await currentResult(deps.env, job);
  if (isTerminal(result.status)) return cancelAnswer(result, true);
  throw new ApiError("service_unavailable", "The job is still starting: cancel it again in a moment.", undefined, { "Retry-After": "1" });
}

/** GET /api/dashboard/search-source: what research searches by default (the backend; for the local corpus, what it holds). */
export function searchSource(deps: Pick<ResearchDeps, "config" | "env">): Promise<SearchSource> {
  return describeSearchSource(deps.config.SEARCH_PROVIDER, deps.env.DB);
}

/** The caller's jobs, newest first (GET /v1/research, the dashboard's logs and recent jobs). */
export function listJobs(deps: Pick<ResearchDeps, "db">, userId: string, page: Paging & { status?: string; origin?: "api" | "playground" }) {
  return listOwnJobs(deps.db, userId, page);
}

/** GET /research/{id}/deliveries: every webhook delivery attempt, oldest first. */
export async function jobDeliveries(deps: ResearchDeps, userId: string, id: string) {
  const job = await ownJob(deps.db, userId, id);
  const rows = await listDeliveries(deps.db, job.id);
  return rows.map((row) => ({
    delivery_id: row.deliveryId,
    event: row.event,
    attempt: row.attempt,
    status_code: row.statusCode,
    error: row.error,
    duration_ms: row.durationMs,
    created_at: row.createdAt,
  }));
}

/** POST /research/{id}/deliveries/{delivery_id}/resend: one attempt now, recorded; 404 for a delivery the job does not have. */
export async function resendJobDelivery(deps: ResearchDeps, userId: string, id: string, deliveryId: string) {
  const job = await ownJob(deps.db, userId, id);
  const sent = await resendDelivery(deps.db, deps.env, job.id, deliveryId);
  if (!sent) throw ApiError.notFound("Webhook delivery");
  return sent;
}

/**
 * GET /research/{id}/events: the SSE stream of the job's object (which replays after
 * Last-Event-ID). A job its object never received (settled by the sweep from its row) streams
 * its final result and ends.
 */
export async function jobEvents(deps: ResearchDeps, userId: string, id: string, lastEventId: string | undefined): Promise<Response> {
  const job = await ownJob(deps.db, userId, id);
  const headers = new Headers();
  if (lastEventId) headers.set("Last-Event-ID", lastEventId);
  const response = await jobObject(deps.env, job.id).fetch(new Request(`https://research-job/${job.id}/events`, { headers }));
  if (response.status !== 404) return response;
  await response.body?.cancel();
  const after = Number(lastEventId ?? 0) || 0;
  // A row not yet terminal (its start failed moments ago; the sweep will settle it) has only a status to tell.
  const frames = rowEvents(resultFromRow(job))
    .filter((event) => event.id > after)
    .map((event) => sseEvent(event.id, event.event, event.data));
  return new Response(new Blob(frames).stream(), { status: 200, headers: SSE_HEADERS });
}

/**
 * The same events as typed objects (event-shapes.ts), for a follower inside the worker (MCP's
 * deep_research): in order, each once, until the result or `options.signal`. Another account's
 * job is 404, like an unknown id (thrown at the first step of the iteration).
 */
export async function* followJob(deps: ResearchDeps, userId: string, id: string, options: FollowOptions): AsyncGenerator<JobEvent, void, undefined> {
  const job = await ownJob(deps.db, userId, id);
  yield* followJobEvents(deps.env, job.id, () => ownJob(deps.db, userId, id), options);
}
