import { and, eq, gt, isNull } from "drizzle-orm";
import { researchPlans } from "../../db/schema/plans";
import type { Caller } from "../../db/schema/users";
import type { Db } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { nowIso } from "../../lib/time";
import type { ResearchBudgets } from "../pricing";
import type { ResearchRequest } from "../request/request";

type PlanContext = { db: Db; user: Caller };

/** A reviewed plan a submit runs: its id and the first wave it searches (the plan's, or the edits). */
export interface ReviewedPlan {
  id: string;
  subQuestions: string[];
  queries: string[];
}

/**
 * The plan a submit names, checked before anything is written: the caller's (else 404), not
 * expired (404), made for the same question and mode (400), and the edits within the mode's
 * bounds (400). Whether it already ran is settled by claimPlan, atomically.
 */
export async function reviewedPlan(ctx: PlanContext, request: ResearchRequest, budgets: ResearchBudgets): Promise<ReviewedPlan | null> {
  if (!request.plan_id) {
    if (request.sub_questions || request.queries) throw ApiError.invalid("Invalid request: sub_questions and queries edit a plan: they need plan_id.");
    return null;
  }
  const row = await ctx.db
    .select()
    .from(researchPlans)
    .where(and(eq(researchPlans.id, request.plan_id), eq(researchPlans.userId, ctx.user.id)))
    .get();
  if (!row) throw ApiError.notFound(`Plan ${request.plan_id}`);
  if (row.expiresAt <= nowIso()) {
    throw new ApiError("not_found", `Plan ${request.plan_id} expired at ${row.expiresAt}; make a new one with POST /v1/research/plan.`);
  }
  if (row.question !== request.question || row.mode !== request.mode) {
    throw ApiError.invalid("Invalid request: plan_id was made for another question or mode; send the plan's question and mode, or make a new plan.");
  }
  const queries = request.queries ?? (JSON.parse(row.queriesJson) as string[]);
  if (queries.length > budgets.branches) {
    throw ApiError.invalid(
      `Invalid request: queries may hold at most ${budgets.branches} searches in ${request.mode} mode (its first wave); got ${queries.length}.`,
    );
  }
  const seen = new Set<string>();
  for (const query of queries) {
    const key = query.replace(/\s+/g, " ").toLowerCase();
    if (seen.has(key)) throw ApiError.invalid(`Invalid request: queries repeats "${query}".`);
    seen.add(key);
  }
  if (row.usedByJobId) throw ApiError.invalid(`Invalid request: plan ${row.id} already ran (job ${row.usedByJobId}); a plan runs once: make a new one.`);
  return { id: row.id, subQuestions: request.sub_questions ?? (JSON.parse(row.subQuestionsJson) as string[]), queries };
}

/** Takes the plan for this job: false when another submit took it first, or it expired meanwhile. */
export async function claimPlan(ctx: PlanContext, planId: string, jobId: string): Promise<boolean> {
  const claimed = await ctx.db
    .update(researchPlans)
    .set({ usedByJobId: jobId })
    .where(and(eq(researchPlans.id, planId), eq(researchPlans.userId, ctx.user.id), isNull(researchPlans.usedByJobId), gt(researchPlans.expiresAt, nowIso())))
    .returning({ id: researchPlans.id });
  return claimed.length === 1;
}

/** The job could not start: its plan can run again (until it expires). */
export async function releasePlan(ctx: PlanContext, planId: string, jobId: string): Promise<void> {
  await ctx.db
    .update(researchPlans)
    .set({ usedByJobId: null })
    .where(and(eq(researchPlans.id, planId), eq(researchPlans.userId, ctx.user.id), eq(researchPlans.usedByJobId, jobId)));
}
