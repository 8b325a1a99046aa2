import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { isTerminal, type JobStatus, ledgerEntries, researchJobs, users } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { jobListColumns, jobSummary, type WriteReport } from "../research/service";
import { type Actor, auditAfterChange } from "../services/audit";
import { applyLedgerChange } from "../services/ledger";

const jobWithEmail = { job: researchJobs, userEmail: users.email };

export async function listJobs(db: Db, filters: { userEmail?: string; status?: JobStatus }, page: Paging) {
  const rows = await db
    .select({ job: jobListColumns, userEmail: users.email })
    .from(researchJobs)
    .innerJoin(users, eq(users.id, researchJobs.userId))
    .where(
      and(
        filters.userEmail ? eq(users.email, filters.userEmail.trim().toLowerCase()) : undefined,
        filters.status ? eq(researchJobs.status, filters.status) : undefined,
      ),
    )
    .orderBy(desc(researchJobs.createdAt), desc(researchJobs.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(({ job, userEmail }) => ({ ...jobSummary(job), user_id: job.userId, user_email: userEmail }));
}

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsable: text };
  }
}

async function findJob(db: Db, id: string) {
  const row = await db.select(jobWithEmail).from(researchJobs).innerJoin(users, eq(users.id, researchJobs.userId)).where(eq(researchJobs.id, id)).get();
  if (!row) throw ApiError.notFound("Job");
  return row;
}

export async function jobDetail(db: Db, id: string) {
  const { job: j, userEmail } = await findJob(db, id);
  return {
    id: j.id,
    user_id: j.userId,
    user_email: userEmail,
    created_at: j.createdAt,
    completed_at: j.completedAt,
    status: j.status,
    question: j.question,
    credits_reserved: j.creditsReserved,
    credits_charged: j.creditsCharged,
    cost_usd_micros: j.costUsdMicros,
    error: j.error,
    latency_ms: j.latencyMs,
    source_count: j.sourceCount,
    wave_count: j.waveCount,
    request: parseJson(j.requestJson) ?? {},
    response: parseJson(j.resultJson),
    // The operator's view of a model's writing; the customer's result (response) never holds it.
    write_report: j.writeReport === null ? null : (JSON.parse(j.writeReport) as WriteReport),
  };
}

/** Credits already given back for a job by admin refunds. */
export async function refundedCredits(db: Db, jobId: string): Promise<number> {
  const row = await db
    .select({ total: sql<number>`coalesce(sum(${ledgerEntries.delta}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, "refund"), eq(ledgerEntries.relatedId, jobId)))
    .get();
  return Number(row?.total ?? 0);
}

function tooMuch(charged: number, refunded: number): ApiError {
  const left = Math.max(0, charged - refunded);
  return ApiError.invalid(`At most ${left} credits of this job can still be refunded (charged ${charged}, already refunded ${refunded}).`);
}

/**
 * An admin refund of a finished job: one `refund` ledger entry (+credits to the job's owner) with
 * `related_id` = the job id. What was already refunded is the sum of those entries, never a
 * counter kept elsewhere.
 *
 * Concurrency: the check below gives the clear 400 in the ordinary case, but two refunds racing
 * each other would both pass it. The guarantee comes from the `ledger_refund_within_charge`
 * trigger (migration 0006): it runs inside the ledger insert's transaction (the D1 batch), where
 * SQLite has serialised every writer, re-reads the sum and aborts the whole batch (entry and
 * balance) if the refund would exceed the charge. We chose a trigger over a hand-written
 * conditional insert because the ledger writes (balance_after chain, idempotency) stay in one
 * place (services/ledger.ts), and because the limit then holds for every writer of the table.
 * With an `idempotency_key` a retried request is a duplicate (same entry, nothing applied).
 */
export async function refundJob(
  db: Db,
  actor: Actor,
  jobId: string,
  input: { credits: number; note: string; idempotencyKey?: string | null },
): Promise<{ applied: boolean; userId: string; balanceAfter: number; entryId: string; refundedBefore: number }> {
  const { job } = await findJob(db, jobId);
  if (!isTerminal(job.status)) throw ApiError.invalid(`Only finished jobs can be refunded; this job is ${job.status}.`);
  const key = input.idempotencyKey ? `refund:${jobId}:${input.idempotencyKey}` : null;
  const refundedBefore = await refundedCredits(db, jobId);
  if (!key && input.credits > job.creditsCharged - refundedBefore) throw tooMuch(job.creditsCharged, refundedBefore);

  let result;
  try {
    result = await applyLedgerChange(
      db,
      job.userId,
      { kind: "refund", delta: input.credits, note: input.note, relatedId: jobId, idempotencyKey: key },
      (entryId) =>
        auditAfterChange(db, actor, {
          action: "job.refund",
          targetType: "job",
          targetId: jobId,
          details: {
            user_id: job.userId,
            credits: input.credits,
            note: input.note,
            balance_after: sql`(select ${ledgerEntries.balanceAfter} from ${ledgerEntries} where ${ledgerEntries.id} = ${entryId})`,
            ledger_entry_id: entryId,
          },
        }),
    );
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("refund_exceeds_charge")) {
      throw tooMuch(job.creditsCharged, await refundedCredits(db, jobId));
    }
    throw error;
  }
  if (result.status === "insufficient") throw new Error("a refund cannot take a balance below zero"); // credits > 0: unreachable
  const { entry } = result;
  if (result.status === "duplicate" && (entry.kind !== "refund" || entry.relatedId !== jobId || entry.delta !== input.credits || entry.note !== input.note)) {
    throw new ApiError("idempotency_key_reused", "This idempotency_key was already used for a different refund.");
  }
  return { applied: result.status === "applied", userId: job.userId, balanceAfter: entry.balanceAfter, entryId: entry.id, refundedBefore };
}
