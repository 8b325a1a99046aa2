import { isTerminal, type ResearchJobRow } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { jobObject } from "./job-object";
import type { ResearchResult } from "./job-state";
import { resultFromRow } from "./job-store";

/**
 * A job's ResearchResult as it stands. A finished job's row holds its final result (written once,
 * when it settled), so it is read from there without a call to its object. A job whose row is
 * still open is asked live: its object is the job's record, and the row can lag it (the object
 * shows a result once it is terminal, and a settlement whose D1 write failed is retried later);
 * the row answers only if the object has nothing.
 */
export async function currentResult(env: Pick<Env, "RESEARCH_JOB">, job: ResearchJobRow): Promise<ResearchResult> {
  if (finalResultJson(job)) return resultFromRow(job);
  return (await jobObject(env, job.id).result()) ?? resultFromRow(job);
}

/** The final result a finished job's row holds (null while the job is open): it never changes. */
export function finalResultJson(job: ResearchJobRow): string | null {
  return job.resultJson && isTerminal(job.status) ? job.resultJson : null;
}
