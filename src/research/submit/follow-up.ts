import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { ApiError } from "../../lib/errors";
import { currentResult } from "../job/current-result";
import { findOwnJob } from "../job/job-store";

/** The most jobs one thread holds: the first question and nine follow-ups (docs/decisions.md "Follow-ups (issue 45)"). */
export const MAX_THREAD_JOBS = 10;

/** A follow-up's place in its thread, checked at submit and quote. */
export interface FollowUpOf {
  previousJobId: string;
  /** The jobs before the new one, oldest first (previousJobId last). */
  thread: string[];
  /** Sources the previous job's result cites. */
  previousSources: number;
}

/**
 * The checks of `previous_job_id`, before anything is written or reserved: the job is the
 * caller's (else 404, like an unknown id), it succeeded (else 400, its status in `details`), and
 * the thread has room for one more job (else 400). The thread is the previous job's own, as its
 * result recorded it, plus that job.
 *
 * The status is the job's as its caller saw it: a row still open asks the job's object, because
 * the row can lag the result the caller was already handed (a settlement's D1 write that failed
 * is retried later), and a follow-up sent the moment `run()` returned must not be refused.
 */
export async function followUpOf(
  ctx: { db: Db; env: Pick<Env, "RESEARCH_JOB">; userId: string },
  previousJobId: string | undefined,
): Promise<FollowUpOf | null> {
  if (!previousJobId) return null;
  const row = await findOwnJob(ctx.db, ctx.userId, previousJobId);
  if (!row) throw ApiError.notFound(`Research job ${previousJobId}`);
  const result = await currentResult(ctx.env, row);
  if (result.status !== "succeeded") {
    throw ApiError.invalid(
      `Invalid request: previous_job_id names a job that is ${result.status}; a follow-up starts from a job that succeeded${result.status === "pending" || result.status === "running" ? " (wait for it to finish)" : ""}.`,
      { field: "previous_job_id", reason: "previous_job_not_succeeded", status: result.status },
    );
  }
  const thread = [...(result.thread ?? []), previousJobId];
  if (thread.length >= MAX_THREAD_JOBS) {
    throw ApiError.invalid(
      `Invalid request: this thread already holds ${thread.length} jobs, the most a thread may hold is ${MAX_THREAD_JOBS}; ask the question fresh (without previous_job_id) to start a new thread.`,
      { field: "previous_job_id", reason: "thread_too_long", max_jobs: MAX_THREAD_JOBS },
    );
  }
  return { previousJobId, thread, previousSources: result.sources.length };
}
