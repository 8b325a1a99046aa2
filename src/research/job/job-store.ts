import { and, desc, eq, gte, inArray, lt, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type JobStatus, OPEN_STATUSES, type ResearchJobRow, researchJobs, usageDaily } from "../../db/schema/jobs";
import type { Paging } from "../../lib/paging";
import { rowChargeBasis, usdToMicros } from "../pricing";
import { plainSources, type ResearchResult } from "./job-state";
import type { WriteReport } from "../engine";

/** The D1 side of jobs: the row every list, usage view and admin screen reads. */

export async function findOwnJob(db: Db, userId: string, id: string): Promise<ResearchJobRow | undefined> {
  return db
    .select()
    .from(researchJobs)
    .where(and(eq(researchJobs.id, id), eq(researchJobs.userId, userId)))
    .get();
}

/**
 * The ResearchResult a row holds: its final result, or what the row knows of a job whose object
 * has none (a start that failed moments ago; the sweep settles it).
 */
export function resultFromRow(job: ResearchJobRow): ResearchResult {
  // Rows written before claim-level citations (or the short answer) existed have none.
  if (job.resultJson) {
    const stored = JSON.parse(job.resultJson) as Omit<ResearchResult, "citations" | "answer" | "partial" | "charge_basis" | "previous_job_id" | "thread">;
    // Rows written before `charge_basis` (issue 43) get it from their figures, under the same rule.
    // Rows written before follow-ups (issue 45) follow no job.
    const result = { citations: [], answer: null, partial: false, charge_basis: rowChargeBasis(job), previous_job_id: null, thread: [], ...stored };
    return { ...result, sources: plainSources(result.sources ?? []) }; // rows written before titles were made plain
  }
  return {
    id: job.id,
    status: job.status,
    question: job.question,
    brief: null,
    answer: null,
    typed: null,
    sources: [],
    citations: [],
    credits_charged: job.creditsCharged,
    charge_basis: rowChargeBasis(job),
    cost_usd: job.costUsdMicros / 1_000_000,
    created_at: job.createdAt,
    completed_at: job.completedAt,
    error: job.error,
    latency_ms: job.latencyMs,
    wave_count: job.waveCount,
    previous_job_id: requestedPrevious(job.requestJson),
    thread: [],
    partial: false,
  };
}

/** The job a request follows up, as its row recorded the request (the thread is the object's, not the row's). */
function requestedPrevious(requestJson: string): string | null {
  try {
    const previous = (JSON.parse(requestJson) as { previous_job_id?: unknown }).previous_job_id;
    return typeof previous === "string" ? previous : null;
  } catch {
    return null;
  }
}

export async function markJobRunning(db: Db, id: string, startedAt: string): Promise<void> {
  await db
    .update(researchJobs)
    .set({ status: "running", startedAt })
    .where(and(eq(researchJobs.id, id), eq(researchJobs.status, "pending")));
}

/**
 * Writes the final state once: a row already terminal is left as it is. The write stage's report
 * goes beside the result, not in it: the operator reads it, the customer's result never holds it.
 */
export async function writeFinalJob(db: Db, result: ResearchResult, writeReport: WriteReport | null = null): Promise<void> {
  await db
    .update(researchJobs)
    .set({
      status: result.status,
      resultJson: JSON.stringify(result),
      writeReport: writeReport === null ? null : JSON.stringify(writeReport),
      creditsCharged: result.credits_charged,
      costUsdMicros: usdToMicros(result.cost_usd),
      error: result.error,
      latencyMs: result.latency_ms,
      sourceCount: result.sources.length,
      waveCount: result.wave_count,
      completedAt: result.completed_at,
    })
    .where(and(eq(researchJobs.id, result.id), inArray(researchJobs.status, OPEN_STATUSES)));
}

/**
 * What a job list shows: the summary columns, never request_json or result_json (tens of KB a
 * row). With the list indexes (db/schema/jobs.ts) the figures come from the index.
 */
export const jobListColumns = {
  id: researchJobs.id,
  userId: researchJobs.userId,
  status: researchJobs.status,
  mode: researchJobs.mode,
  question: researchJobs.question,
  creditsCharged: researchJobs.creditsCharged,
  costUsdMicros: researchJobs.costUsdMicros,
  latencyMs: researchJobs.latencyMs,
  sourceCount: researchJobs.sourceCount,
  waveCount: researchJobs.waveCount,
  createdAt: researchJobs.createdAt,
  completedAt: researchJobs.completedAt,
};
export type JobListRow = { [K in keyof typeof jobListColumns]: ResearchJobRow[K] };

/**
 * What the account's own lists add (GET /v1/research, /api/logs): where each job came from. In
 * research_jobs_user_list_idx with the figures, so the list reads them from the index.
 */
export const ownJobListColumns = {
  ...jobListColumns,
  previousJobId: researchJobs.previousJobId,
  planId: researchJobs.planId,
  monitorId: researchJobs.monitorId,
};
export type OwnJobListRow = { [K in keyof typeof ownJobListColumns]: ResearchJobRow[K] };

/** The query of a user's job list (exported so a test can read its plan). */
export function ownJobsQuery(db: Db, userId: string, page: Paging & { status?: string; origin?: "api" | "playground" }) {
  return db
    .select(ownJobListColumns)
    .from(researchJobs)
    .where(
      and(
        eq(researchJobs.userId, userId),
        page.status ? eq(researchJobs.status, page.status as JobStatus) : undefined,
        page.origin ? eq(researchJobs.origin, page.origin) : undefined,
      ),
    )
    .orderBy(desc(researchJobs.createdAt), desc(researchJobs.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function listOwnJobs(db: Db, userId: string, page: Paging & { status?: string; origin?: "api" | "playground" }): Promise<OwnJobListRow[]> {
  return ownJobsQuery(db, userId, page);
}

/** Non-terminal jobs whose deadline passed before `before` (for the sweep). */
export async function overdueJobs(db: Db, before: string, limit = 50) {
  return db
    .select({ id: researchJobs.id, userId: researchJobs.userId })
    .from(researchJobs)
    .where(and(inArray(researchJobs.status, OPEN_STATUSES), lt(researchJobs.deadlineAt, before)))
    .limit(limit);
}

export interface UsageBucket {
  day: string;
  credits: number;
  jobs: number;
  cost_usd_micros: number;
  plans: number;
  monitor_runs: number;
}

/**
 * The daily rollup rows between the UTC days of `from` and `to` (db/schema/jobs.ts usageDaily):
 * one row a day whatever the number of jobs. Buckets are whole UTC days. Exported so a test can
 * read its query plan (index only).
 */
export function usageQuery(db: Db, userId: string, from: Date, to: Date) {
  return db
    .select({
      day: usageDaily.day,
      credits: usageDaily.credits,
      jobs: usageDaily.jobs,
      cost: usageDaily.costUsdMicros,
      plans: usageDaily.plans,
      monitorRuns: usageDaily.monitorRuns,
    })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, utcDay(from)), lte(usageDaily.day, utcDay(new Date(to.getTime() - 1)))));
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Daily UTC buckets of a user's jobs in [from, to), every day present (zero-filled). */
export async function usageBuckets(db: Db, userId: string, from: Date, to: Date): Promise<UsageBucket[]> {
  const rows = await usageQuery(db, userId, from, to);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const buckets: UsageBucket[] = [];
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t < to.getTime(); t += 86_400_000) {
    const key = new Date(t).toISOString().slice(0, 10);
    const row = byDay.get(key);
    buckets.push({
      day: `${key}T00:00:00.000Z`,
      credits: Number(row?.credits ?? 0),
      jobs: Number(row?.jobs ?? 0),
      cost_usd_micros: Number(row?.cost ?? 0),
      plans: Number(row?.plans ?? 0),
      monitor_runs: Number(row?.monitorRuns ?? 0),
    });
  }
  return buckets;
}

/**
 * The fields every job list shares (RecentJob, AdminUserJobRow; the base of ResearchLogRow,
 * LogRow and AdminJobRow).
 */
export function jobSummary(row: JobListRow) {
  return {
    id: row.id,
    created_at: row.createdAt,
    status: row.status,
    question: row.question,
    credits_charged: row.creditsCharged,
    cost_usd_micros: row.costUsdMicros,
    latency_ms: row.latencyMs,
  };
}

/** Where a job came from (JobLineage): the job it follows up, the plan it ran, the monitor whose run it is. */
export function jobLineage(row: OwnJobListRow) {
  return { previous_job_id: row.previousJobId, plan_id: row.planId, monitor_id: row.monitorId };
}

/** ResearchLogRow (GET /v1/research). */
export function researchLogRow(row: OwnJobListRow) {
  return { ...jobSummary(row), completed_at: row.completedAt, source_count: row.sourceCount, wave_count: row.waveCount, ...jobLineage(row) };
}

/** LogRow (GET /api/logs); `anonymize` replaces the question with a redaction that keeps its length. */
export function logRow(row: OwnJobListRow, anonymize: boolean) {
  return {
    ...jobSummary(row),
    question: anonymize ? `[redacted] (${row.question.length} characters)` : row.question,
    mode: row.mode,
    source_count: row.sourceCount,
    wave_count: row.waveCount,
    ...jobLineage(row),
  };
}

/** RecentJob (GET /api/dashboard/recent): the summary without its cost. */
export function recentJob(row: JobListRow) {
  const { cost_usd_micros: _cost, ...job } = jobSummary(row);
  return job;
}
