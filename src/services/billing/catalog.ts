import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { packs, plans } from "../../db/schema/billing";

export const FREE_PLAN_ID = "free";

export type PackRow = typeof packs.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

export async function listPacks(db: Db): Promise<PackRow[]> {
  return db.select().from(packs).orderBy(asc(packs.sortOrder));
}

export async function listPlans(db: Db): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder));
}

export async function findPack(db: Db, id: string): Promise<PackRow | undefined> {
  return db.select().from(packs).where(eq(packs.id, id)).get();
}

export async function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return db.select().from(plans).where(eq(plans.id, id)).get();
}

/** PackDto: the processor price variable is internal and never listed. */
export function packDto(pack: PackRow) {
  return { id: pack.id, name: pack.name, credits: pack.credits, price_cents: pack.priceCents, blurb: pack.blurb };
}

export function planDto(plan: PlanRow) {
  return {
    id: plan.id,
    name: plan.name,
    monthly_price_cents: plan.monthlyPriceCents,
    included_credits: plan.includedCredits,
    overage_micros: plan.overageMicros,
    breakeven_credits: plan.breakevenCredits,
    blurb: plan.blurb,
    features: plan.features,
  };
}
