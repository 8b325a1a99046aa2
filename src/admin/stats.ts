import { and, count, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { OPEN_STATUSES, payments, researchJobs, tickets, users } from "../db/schema";
import { DAY } from "../lib/time";

const STATS_DAYS = 30;

/** The UTC midnights of the last `days` days, oldest first, ending today. */
function lastDays(now: Date, days = STATS_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY).toISOString());
}

/**
 * Every figure is one SQL aggregate (no rows are loaded into the worker); all of them run in one
 * D1 batch, so they describe the same moment. Daily buckets are by UTC day of `created_at`
 * (ISO strings, so the first 10 characters are the day) and zero-filled.
 */
export async function adminStats(db: Db, now = new Date()) {
  const days = lastDays(now);
  const since = days[0]!;
  const revenueSince = new Date(now.getTime() - STATS_DAYS * DAY).toISOString();
  const day = (column: typeof users.createdAt | typeof researchJobs.createdAt) => sql<string>`substr(${column}, 1, 10)`;

  const [signups, jobs, revenue, userTotals, openTickets, inFlight] = await db.batch([
    db
      .select({ day: day(users.createdAt), count: count() })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(day(users.createdAt)),
    db
      .select({
        day: day(researchJobs.createdAt),
        count: count(),
        credits: sql<number>`coalesce(sum(${researchJobs.creditsCharged}), 0)`,
        cost: sql<number>`coalesce(sum(${researchJobs.costUsdMicros}), 0)`,
      })
      .from(researchJobs)
      .where(gte(researchJobs.createdAt, since))
      .groupBy(day(researchJobs.createdAt)),
    // Top-ups only (packs and auto top-ups): plan checkouts and plan invoices are subscription
    // revenue, and a plan checkout and its first invoice describe the same money.
    db
      .select({ cents: sql<number>`coalesce(sum(${payments.packAmountCents}), 0)` })
      .from(payments)
      .where(and(eq(payments.status, "completed"), inArray(payments.kind, ["pack", "auto_topup"]), gte(payments.completedAt, revenueSince))),
    db
      .select({
        total: count(),
        suspended: sql<number>`count(${users.suspendedAt})`,
        balance: sql<number>`coalesce(sum(${users.credits}), 0)`,
      })
      .from(users),
    db.select({ n: count() }).from(tickets).where(ne(tickets.status, "closed")),
    db.select({ n: count() }).from(researchJobs).where(inArray(researchJobs.status, OPEN_STATUSES)),
  ]);

  const signupsByDay = new Map(signups.map((r) => [r.day, Number(r.count)]));
  const jobsByDay = new Map(jobs.map((r) => [r.day, r]));
  return {
    signups_last_30d: days.map((d) => ({ day: d, count: signupsByDay.get(d.slice(0, 10)) ?? 0 })),
    jobs_last_30d: days.map((d) => {
      const r = jobsByDay.get(d.slice(0, 10));
      return { day: d, count: Number(r?.count ?? 0), credits_charged_sum: Number(r?.credits ?? 0), cost_usd_micros_sum: Number(r?.cost ?? 0) };
    }),
    topup_revenue_last_30d_cents: Number(revenue[0]?.cents ?? 0),
    total_users: Number(userTotals[0]?.total ?? 0),
    suspended_users: Number(userTotals[0]?.suspended ?? 0),
    open_tickets: Number(openTickets[0]?.n ?? 0),
    in_flight_jobs: Number(inFlight[0]?.n ?? 0),
    ledger_balance_outstanding: Number(userTotals[0]?.balance ?? 0),
  };
}
