import { and, eq, lte } from "drizzle-orm";
import { type ResearchJobRow, researchJobs } from "../../db/schema/jobs";
import type { Caller } from "../../db/schema/users";
import { sha256Hex } from "../../lib/crypto";
import { isUniqueViolation } from "../../lib/db-errors";
import { ApiError } from "../../lib/errors";
import { checkIdempotencyKey } from "../../lib/idempotency-key";
import { DAY, isoAfter, nowIso, SECOND } from "../../lib/time";
import { reservationFunding, reserveCredits, settleReservation } from "../../services/billing/reservations";
import { emailNotVerified } from "../../services/unverified-spending";
import type { Deps } from "../../services/deps";
import { jobObject } from "../job/job-object";
import type { JobSpec, ResearchResult } from "../job/job-state";
import type { AsyncAccepted } from "../shapes";
import { planResearch, type ResearchPlan, type ResearchRequest } from "../request/request";
import { ownedCollections } from "../collections/store";
import { claimPlan, releasePlan, reviewedPlan } from "./plan-store";
import type { SearchScope } from "../providers/types";
import { type FollowUpOf, followUpOf } from "./follow-up";

const IDEMPOTENCY_WINDOW_MS = DAY;
/** How long a replay waits for the request that claimed its key to start the job or give the key up. */
const REPLAY_WAIT_MS = 10 * SECOND;

export interface SubmitContext extends Pick<Deps, "db" | "config" | "env" | "defer"> {
  user: Caller;
  origin: "api" | "playground";
  apiKeyId: string | null;
  /** The monitor whose run this job is (src/monitors/); recorded on the job's row. */
  monitorId?: string;
  /** Where status_url and events_url point: /v1/research or /api/playground/research on this host. */
  resourceBase: string;
}

export type SubmitResponse = { status: 200; body: ResearchResult } | { status: 202; body: AsyncAccepted };

/** Recursive, so it runs only on a request planResearch accepted (response_schema depth is bounded). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * POST /v1/research and POST /api/playground/research. Every check runs before anything is
 * written; the job row claims the Idempotency-Key (unique per account), so concurrent duplicates
 * can never create two jobs; credits are reserved before the job starts, and released if it
 * cannot start.
 */
export async function submitResearch(ctx: SubmitContext, request: ResearchRequest, idempotencyKey: string | undefined): Promise<SubmitResponse> {
  const plan = await planResearch(request, ctx.config);
  // A reviewed plan (plan_id, and its edits) is checked before anything is written.
  plan.reviewed = await reviewedPlan(ctx, request, plan.budgets);
  checkIdempotencyKey(idempotencyKey);
  const requestHash = await sha256Hex(canonicalJson(request));
  const replayDeadline = Date.now() + REPLAY_WAIT_MS;
  let scope: SearchScope | undefined | null = null;
  let followUp: FollowUpOf | null | undefined;
  // A replay answers only once the job holding the key was handed to its object; if the request
  // that claimed the key gave it up (402, or the job could not start), the key is free again and
  // this request is processed as a new one: its answer is what that submit would answer now.
  for (;;) {
    if (idempotencyKey) {
      const existing = await claimedJob(ctx, idempotencyKey);
      if (existing) {
        const answer = await replay(ctx, plan, existing, requestHash, replayDeadline);
        if (answer) return answer;
        await refuseWhenShort(ctx, plan);
        continue;
      }
    }
    // Checked for a new job only: a replay answers the job the key already holds.
    scope ??= await searchScope(ctx, request);
    followUp ??= await followUpOf({ db: ctx.db, env: ctx.env, userId: ctx.user.id }, request.previous_job_id);
    const job = { id: crypto.randomUUID(), now: Date.now() };
    const winner = await insertJobRow(ctx, plan, job, idempotencyKey, requestHash);
    if (winner) {
      const answer = await replay(ctx, plan, winner, requestHash, replayDeadline);
      if (answer) return answer;
      await refuseWhenShort(ctx, plan);
      continue;
    }
    await withPlanClaimed(ctx, plan, job, () => reserveAndStart(ctx, plan, job, scope ?? undefined, followUp ?? null));
    return respond(ctx, plan, job.id);
  }
}

/** The collections a request names, all of them its caller's (else 404, before anything is written). */
export async function searchScope(ctx: Pick<SubmitContext, "db" | "user">, request: ResearchRequest): Promise<SearchScope | undefined> {
  if (!request.collections) return undefined;
  const wanted = [...new Set(request.collections)];
  const owned = await ownedCollections(ctx.db, ctx.user.id, wanted);
  if (owned.length !== wanted.length) {
    const missing = wanted.filter((id) => !owned.some((row) => row.id === id));
    throw ApiError.notFound(`Collection ${missing.join(", ")}`);
  }
  return { userId: ctx.user.id, collections: owned.map((row) => ({ id: row.id, name: row.name })), web: request.web ?? false };
}

interface NewJob {
  id: string;
  /** Submit time, epoch ms: the job's created_at and the start of its wall clock. */
  now: number;
}

/**
 * Writes the pending job row, which claims the Idempotency-Key. Returns the job that won the key
 * when a concurrent duplicate got there first (nothing written then).
 */
async function insertJobRow(
  ctx: SubmitContext,
  plan: ResearchPlan,
  job: NewJob,
  idempotencyKey: string | undefined,
  requestHash: string,
): Promise<ResearchJobRow | undefined> {
  const { request } = plan;
  try {
    await ctx.db.insert(researchJobs).values({
      id: job.id,
      userId: ctx.user.id,
      origin: ctx.origin,
      apiKeyId: ctx.apiKeyId,
      status: "pending",
      mode: plan.mode,
      question: request.question,
      requestJson: JSON.stringify(request),
      creditsReserved: plan.reservedCredits,
      webhookUrl: request.webhook_url ?? null,
      idempotencyKey: idempotencyKey ?? null,
      requestHash: idempotencyKey ? requestHash : null,
      idempotencyExpiresAt: idempotencyKey ? isoAfter(IDEMPOTENCY_WINDOW_MS) : null,
      createdAt: new Date(job.now).toISOString(),
      deadlineAt: new Date(job.now + plan.budgets.max_wallclock_secs * 1000).toISOString(),
      // Where it came from (the logs and lists show it), as the submit checked it before this write.
      previousJobId: request.previous_job_id ?? null,
      planId: plan.reviewed?.id ?? null,
      monitorId: ctx.monitorId ?? null,
    });
    return undefined;
  } catch (error) {
    // Lost the race for this Idempotency-Key to a concurrent duplicate.
    if (idempotencyKey && isUniqueViolation(error, "research_jobs.")) {
      const winner = await claimedJob(ctx, idempotencyKey);
      if (winner) return winner;
      throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry shortly.");
    }
    throw error;
  }
}

/**
 * Takes the reviewed plan for this job, then `start`s it: a plan runs once, so a submit that lost
 * it to another is 400 and its row is gone; a job that cannot start gives the plan back.
 */
async function withPlanClaimed(ctx: SubmitContext, plan: ResearchPlan, job: NewJob, start: () => Promise<void>): Promise<void> {
  const reviewed = plan.reviewed;
  if (!reviewed) return start();
  if (!(await claimPlan(ctx, reviewed.id, job.id))) {
    await ctx.db.delete(researchJobs).where(eq(researchJobs.id, job.id));
    throw ApiError.invalid(`Invalid request: plan ${reviewed.id} already ran or expired; make a new one with POST /v1/research/plan.`);
  }
  try {
    await start();
  } catch (error) {
    await releasePlan(ctx, reviewed.id, job.id);
    throw error;
  }
}

/**
 * Reserves the job's credits and hands it to its Durable Object. Short of credits: 402 and the
 * row is gone. If the job cannot start, everything is given back and no job is left behind.
 */
async function reserveAndStart(
  ctx: SubmitContext,
  plan: ResearchPlan,
  job: NewJob,
  scope: SearchScope | undefined,
  followUp: FollowUpOf | null,
): Promise<void> {
  const { request } = plan;
  const deps = { db: ctx.db, config: ctx.config };
  let reserved = false;
  try {
    const reservation = await reserveCredits(deps, ctx.user.id, plan.reservedCredits, job.id, ctx.defer);
    if (reservation.status === "insufficient") {
      await ctx.db.delete(researchJobs).where(eq(researchJobs.id, job.id));
      throw insufficientCredits(plan, reservation.balance);
    }
    if (reservation.status === "unverified") {
      await ctx.db.delete(researchJobs).where(eq(researchJobs.id, job.id));
      throw emailNotVerified(plan.reservedCredits, reservation.balance, reservation.floor);
    }
    reserved = true;
    const spec: JobSpec = {
      id: job.id,
      userId: ctx.user.id,
      origin: ctx.origin,
      mode: plan.mode,
      question: request.question,
      input: {
        question: request.question,
        mode: plan.mode,
        budgets: plan.budgets,
        include_domains: request.include_domains,
        exclude_domains: request.exclude_domains,
        include_sources: request.include_sources,
        response_schema: request.response_schema ?? null,
        ...(plan.reviewed ? { plan: { subQuestions: plan.reviewed.subQuestions, queries: plan.reviewed.queries } } : {}),
      },
      reservedCredits: plan.reservedCredits,
      maxCredits: request.max_credits ?? null,
      notifiesWebhook: Boolean(request.webhook_url),
      ...(request.webhook_url && request.webhook_events ? { webhookEvents: [...new Set(request.webhook_events)] } : {}),
      createdAt: new Date(job.now).toISOString(),
      deadlineAt: job.now + plan.budgets.max_wallclock_secs * 1000,
      ...(scope ? { scope } : {}),
      ...(followUp ? { previousJobId: followUp.previousJobId, thread: followUp.thread } : {}),
    };
    await jobObject(ctx.env, job.id).start(spec);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The job could not start: give everything back and leave no job behind (a plain 500).
    if (reserved) await settleReservation(deps, ctx.user.id, job.id, 0);
    await ctx.db.delete(researchJobs).where(eq(researchJobs.id, job.id));
    throw error;
  }
}

export function insufficientCredits(plan: ResearchPlan, balance: number): ApiError {
  return new ApiError("insufficient_credits", `This ${plan.mode} job needs ${plan.reservedCredits} credits; the balance is ${balance}.`);
}

/**
 * A replay whose key was given up (most often: the first request was refused for credits) answers
 * the same 402 at once when the balance still cannot pay and no paid plan runs on overage, rather
 * than each of many racing duplicates claiming the key, trying to reserve and deleting its row in
 * turn. Only on this path: a first submit pays no extra read.
 */
async function refuseWhenShort(ctx: SubmitContext, plan: ResearchPlan): Promise<void> {
  const funding = await reservationFunding(ctx.db, ctx.user.id, plan.reservedCredits);
  if (!funding.fundedBy) throw insufficientCredits(plan, funding.balance);
}

/** The job holding this caller's Idempotency-Key within the window (an expired claim is released). */
async function claimedJob(ctx: SubmitContext, key: string): Promise<ResearchJobRow | undefined> {
  await ctx.db
    .update(researchJobs)
    .set({ idempotencyKey: null })
    .where(and(eq(researchJobs.userId, ctx.user.id), eq(researchJobs.idempotencyKey, key), lte(researchJobs.idempotencyExpiresAt, nowIso())));
  return ctx.db
    .select()
    .from(researchJobs)
    .where(and(eq(researchJobs.userId, ctx.user.id), eq(researchJobs.idempotencyKey, key)))
    .get();
}

/**
 * A repeated Idempotency-Key: 422 for another body; for the same body, the original job's response
 * once that job was handed to its object, or undefined when the request that claimed the key gave
 * it up meanwhile (its row is gone). 409 when the claim is still unresolved after the wait.
 */
async function replay(
  ctx: SubmitContext,
  plan: ResearchPlan,
  existing: ResearchJobRow,
  requestHash: string,
  deadline: number,
): Promise<SubmitResponse | undefined> {
  if (existing.requestHash !== requestHash) {
    throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request body.");
  }
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    if (await jobObject(ctx.env, existing.id).accepted()) return respond(ctx, plan, existing.id);
    const row = await ctx.db.select({ id: researchJobs.id }).from(researchJobs).where(eq(researchJobs.id, existing.id)).get();
    if (!row) return undefined;
    if (Date.now() >= deadline) throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry shortly.");
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

async function respond(ctx: SubmitContext, plan: ResearchPlan, id: string): Promise<SubmitResponse> {
  if (plan.async) {
    return {
      status: 202,
      body: { id, status: "pending", status_url: `${ctx.resourceBase}/${id}`, events_url: `${ctx.resourceBase}/${id}/events` },
    };
  }
  // Synchronous: wait for the job to finish (its own deadline bounds the wait).
  const result = await jobObject(ctx.env, id).waitForResult(plan.budgets.max_wallclock_secs * 1000 + 20 * SECOND);
  if (!result) throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry shortly.");
  return { status: 200, body: result };
}
