import { and, eq, inArray } from "drizzle-orm";
import { createDb } from "../../db/client";
import { OPEN_STATUSES, researchJobs } from "../../db/schema/jobs";
import { type Env, loadConfig } from "../../env";
import { MINUTE, nowIso } from "../../lib/time";
import { settleReservation } from "../../services/billing/reservations";
import { jobObject } from "./job-object";
import { overdueJobs } from "./job-store";

/** How far past its deadline a job must be before the sweep steps in. */
const SWEEP_MARGIN_MS = 2 * MINUTE;

/**
 * The scheduled sweep: no reservation may stay stuck. A job still open well past its deadline is
 * settled by its Durable Object (failed and refunded when it has nothing); a job whose object never
 * received it is failed and refunded here from its D1 row. Running jobs within their deadline are
 * left alone: a running job's alarm is always armed, and resumes it after a restart (job.ts,
 * RESUME_AFTER_MS). Webhook deliveries have their own sweep (webhooks/sweep.ts, sweepDueWebhooks).
 */
export async function sweepStuckJobs(env: Env, now = Date.now()): Promise<{ checked: number; settled: number }> {
  const db = createDb(env.DB);
  const overdue = await overdueJobs(db, new Date(now - SWEEP_MARGIN_MS).toISOString());
  let settled = 0;
  for (const job of overdue) {
    try {
      const outcome = await jobObject(env, job.id).sweep();
      if (outcome === "missing") {
        const row = await db.select().from(researchJobs).where(eq(researchJobs.id, job.id)).get();
        if (!row) continue;
        await settleReservation({ db, config: loadConfig(env) }, job.userId, job.id, 0);
        await db
          .update(researchJobs)
          .set({ status: "failed", error: "The job never started; the credits were refunded.", creditsCharged: 0, completedAt: nowIso() })
          .where(and(eq(researchJobs.id, job.id), inArray(researchJobs.status, OPEN_STATUSES)));
      }
      if (outcome === "settled" || outcome === "missing") settled += 1;
    } catch (error) {
      console.error(`sweep of job ${job.id} failed`, error);
    }
  }
  return { checked: overdue.length, settled };
}
