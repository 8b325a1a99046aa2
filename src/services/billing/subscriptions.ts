import { and, eq, gte, sql, sum } from "drizzle-orm";
import type { Db } from "../../db/client";
import { overageReports, subscriptions } from "../../db/schema/billing";
import { nowIso } from "../../lib/time";
import { findPlan, FREE_PLAN_ID, type PlanRow, planDto } from "./catalog";

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Processor statuses in which a paid plan is in force (past_due: the processor is still retrying the card). */
const LIVE_STATUSES = new Set(["active", "trialing", "past_due"]);

export interface CurrentPlan {
  plan: PlanRow;
  status: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  processorSubscriptionId: string | null;
  /** True for a paid plan in force: its shortfalls become overage instead of 402. */
  paid: boolean;
}

export async function currentPlan(db: Db, userId: string): Promise<CurrentPlan> {
  const row = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).get();
  const live = row && row.planId !== FREE_PLAN_ID && LIVE_STATUSES.has(row.status);
  const plan = (live ? await findPlan(db, row.planId) : undefined) ?? (await findPlan(db, FREE_PLAN_ID));
  if (!plan) throw new Error("The Free plan is missing from the catalog");
  return {
    plan,
    status: live ? row.status : "active",
    currentPeriodStart: live ? row.currentPeriodStart : null,
    currentPeriodEnd: live ? row.currentPeriodEnd : null,
    processorSubscriptionId: live ? row.processorSubscriptionId : null,
    paid: Boolean(live) && plan.id !== FREE_PLAN_ID,
  };
}

export interface SubscriptionChange {
  userId: string;
  planId: string;
  status: string;
  processorSubscriptionId: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  /** The processor event's `created` (unix seconds); older changes than the stored one are ignored. */
  eventCreated: number;
}

/** Records the user's plan as the processor reports it; a late, out-of-order event never overwrites a newer one. */
export async function applySubscriptionChange(db: Db, change: SubscriptionChange): Promise<boolean> {
  const values = {
    planId: change.planId,
    status: change.status,
    processorSubscriptionId: change.processorSubscriptionId,
    currentPeriodStart: change.currentPeriodStart,
    currentPeriodEnd: change.currentPeriodEnd,
    processorEventCreated: change.eventCreated,
    updatedAt: nowIso(),
  };
  const written = await db
    .insert(subscriptions)
    .values({ userId: change.userId, ...values })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: values,
      setWhere: sql`${subscriptions.processorEventCreated} <= ${change.eventCreated}`,
    })
    .returning({ userId: subscriptions.userId });
  return written.length > 0;
}

export async function findSubscriptionByProcessorId(db: Db, processorSubscriptionId: string): Promise<SubscriptionRow | undefined> {
  return db.select().from(subscriptions).where(eq(subscriptions.processorSubscriptionId, processorSubscriptionId)).get();
}

/** Overage credits granted in the current period (since its start, or the last 31 days when unknown). */
export async function overageThisPeriod(db: Db, userId: string, periodStart: string | null): Promise<number> {
  const since = periodStart ?? new Date(Date.now() - 31 * 86_400_000).toISOString();
  const row = await db
    .select({ credits: sum(overageReports.credits) })
    .from(overageReports)
    .where(and(eq(overageReports.userId, userId), gte(overageReports.createdAt, since)))
    .get();
  return Number(row?.credits ?? 0);
}

/**
 * The account's plan as GET /api/billing/subscription answers it: the plan, its status and renewal,
 * and this period's overage in credits with what it costs (credits × the plan's overage rate in
 * micro-USD). A plan that is not paid (Free, or a lapsed subscription) has no overage.
 */
export async function subscriptionSummary(db: Db, userId: string) {
  const current = await currentPlan(db, userId);
  const overage = current.paid ? await overageThisPeriod(db, userId, current.currentPeriodStart) : 0;
  return {
    plan: planDto(current.plan),
    status: current.status,
    current_period_end: current.currentPeriodEnd,
    overage_credits_this_period: overage,
    overage_usd_micros_this_period: overage * current.plan.overageMicros,
  };
}
