import { and, desc, eq, inArray, isNull, lte, ne, or } from "drizzle-orm";
import { overageReports, subscriptions } from "../../db/schema/billing";
import { users } from "../../db/schema/users";
import { errorSummary } from "../../lib/errors";
import type { Paging } from "../../lib/paging";
import { DAY, HOUR, isoAfter, MINUTE, nowIso } from "../../lib/time";
import type { BillingDeps } from "./checkout";
import { failureIsDefinite, processorClient } from "./processor";

/**
 * Overage reports to the processor's billing meter, and the sweep that retries the failed ones.
 *
 * Stripe's window (https://docs.stripe.com/api/billing/meter-event/create): a meter event's
 * `identifier` is unique "within a rolling period of at least 24 hours", and its `timestamp` must be
 * "within the past 35 calendar days". A retry resends the report's id as the identifier, so inside
 * 24 hours a resend of a report that did reach Stripe is dropped there, never billed twice. Past
 * 24 hours that holds only when every failure was a refusal (a 4xx: nothing was recorded); a
 * report that may have reached Stripe (network error, timeout, 5xx: `in_doubt`) is given up there,
 * for an operator to check against the meter. Past 35 days nothing is accepted: given up.
 */

export type OverageReportRow = typeof overageReports.$inferSelect;

/** Retries of a report whose earlier sends may have reached Stripe: only inside the identifier's de-duplication (24 h, less an hour for clocks and requests in flight). */
export const IN_DOUBT_RETRY_WINDOW_MS = 23 * HOUR;
/** Retries of a report Stripe refused: while Stripe still accepts its timestamp (35 days, less an hour). */
export const RETRY_WINDOW_MS = 35 * DAY - HOUR;
/** Reports one sweep sends at most: a Stripe outage must not make one cron run call it for every report at once. */
const SWEEP_BATCH = 25;

/** Waits between attempts, by attempts made: quick at first (a blip), then every 6 hours. */
const RETRY_DELAYS_MS = [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR];
export const retryDelayMs = (attempts: number) => RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? MINUTE;

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * The meter event's time: when the overage happened, so it is billed in that period; but never
 * before the current period began, since usage dated in a period whose invoice is finalized is
 * not billed (https://docs.stripe.com/billing/subscriptions/usage-based/configure-grace-period).
 */
async function meterTimestamp(deps: BillingDeps, report: OverageReportRow, now: number): Promise<number> {
  const sub = await deps.db.select({ start: subscriptions.currentPeriodStart }).from(subscriptions).where(eq(subscriptions.userId, report.userId)).get();
  const periodStart = sub?.start ? unix(sub.start) : 0;
  return Math.min(Math.max(unix(report.createdAt), periodStart), Math.floor(now / 1000));
}

/**
 * Why a report was not sent at all (`skipped`, final: the sweep retries only `failed`): the credits
 * were granted when used, and nothing will bill them unless someone does it by hand.
 */
export function skippedReason(noProcessor: boolean): string {
  return noProcessor
    ? "not sent: payments are not configured on this server (STRIPE_SECRET_KEY unset); not retried, bill it by hand if it is owed"
    : "not sent: the user has no Stripe customer to bill (no billing account); not retried, bill it by hand if it is owed";
}

/**
 * Sends one report (its id is the meter event's identifier) and records the outcome: `reported`,
 * or `failed` with the next attempt scheduled. Never throws.
 */
export async function sendOverageReport(deps: BillingDeps, report: OverageReportRow, now = Date.now()): Promise<"reported" | "failed" | "skipped"> {
  const { db, config } = deps;
  const processor = processorClient(config);
  const user = await db.select({ customer: users.processorCustomerId }).from(users).where(eq(users.id, report.userId)).get();
  if (!processor || !user?.customer) {
    await db
      .update(overageReports)
      .set({ status: "skipped", error: skippedReason(!processor) })
      .where(eq(overageReports.id, report.id));
    return "skipped";
  }
  const attempts = report.attempts + 1;
  try {
    await processor.reportUsage({
      eventName: config.STRIPE_METER_EVENT_NAME,
      identifier: report.id,
      customer: user.customer,
      value: report.credits,
      timestamp: await meterTimestamp(deps, report, now),
    });
    await db
      .update(overageReports)
      .set({ status: "reported", reportedAt: nowIso(), error: null, attempts, nextAttemptAt: null })
      .where(eq(overageReports.id, report.id));
    return "reported";
  } catch (error) {
    console.error(`overage report ${report.id} failed (attempt ${attempts}): ${errorSummary(error)}`);
    await db
      .update(overageReports)
      .set({
        status: "failed",
        error: String(error).slice(0, 500),
        attempts,
        inDoubt: report.inDoubt || !failureIsDefinite(error),
        nextAttemptAt: isoAfter(retryDelayMs(attempts), new Date(now)),
      })
      .where(and(eq(overageReports.id, report.id), ne(overageReports.status, "reported")));
    return "failed";
  }
}

/** The first send of a report, right after its overage was written (reservations.ts). */
export async function reportOverage(deps: BillingDeps, reportId: string): Promise<void> {
  const report = await deps.db.select().from(overageReports).where(eq(overageReports.id, reportId)).get();
  if (report?.status !== "pending") return;
  await sendOverageReport(deps, report);
}

/** Why a failed report is past retrying at `now`, or null while it may still be sent. */
export function givenUpReason(report: OverageReportRow, now: number): string | null {
  const age = now - Date.parse(report.createdAt);
  if (age > RETRY_WINDOW_MS) return "past Stripe's 35-day window for meter events; bill it by hand if it is still owed";
  if (report.inDoubt && age > IN_DOUBT_RETRY_WINDOW_MS) {
    return `a failed send may have reached Stripe and the identifier's 24 h de-duplication is over: check the meter's events for identifier ${report.id} before billing it by hand`;
  }
  return null;
}

/**
 * The cron sweep: every failed report that is due is given up past its window or sent again with
 * the same identifier. A report is claimed (its next attempt moved on) before it is sent, so two
 * overlapping sweeps do not both send it.
 */
export async function sweepOverageReports(deps: BillingDeps, now = Date.now()): Promise<{ reported: number; failed: number; givenUp: number }> {
  const outcome = { reported: 0, failed: 0, givenUp: 0 };
  if (!processorClient(deps.config)) return outcome;
  const nowIsoValue = new Date(now).toISOString();
  const due = or(isNull(overageReports.nextAttemptAt), lte(overageReports.nextAttemptAt, nowIsoValue));
  const rows = await deps.db
    .select()
    .from(overageReports)
    .where(and(eq(overageReports.status, "failed"), due))
    .orderBy(overageReports.createdAt)
    .limit(SWEEP_BATCH);
  for (const report of rows) {
    const reason = givenUpReason(report, now);
    if (reason) {
      await deps.db
        .update(overageReports)
        .set({ status: "abandoned", error: `given up: ${reason} (last error: ${report.error ?? "none"})`.slice(0, 1000), nextAttemptAt: null })
        .where(and(eq(overageReports.id, report.id), eq(overageReports.status, "failed")));
      outcome.givenUp += 1;
      continue;
    }
    const claimed = await deps.db
      .update(overageReports)
      .set({ nextAttemptAt: isoAfter(retryDelayMs(report.attempts + 1), new Date(now)) })
      .where(and(eq(overageReports.id, report.id), eq(overageReports.status, "failed"), due))
      .returning({ id: overageReports.id });
    if (claimed.length === 0) continue;
    outcome[(await sendOverageReport(deps, report, now)) === "reported" ? "reported" : "failed"] += 1;
  }
  return outcome;
}

export const OVERAGE_REPORT_STATUSES = ["pending", "reported", "failed", "skipped", "abandoned"] as const;
export type OverageReportStatus = (typeof OVERAGE_REPORT_STATUSES)[number];
/** What the admin list shows by default: every report whose overage is not (yet) billed. */
const UNBILLED: OverageReportStatus[] = ["pending", "failed", "skipped", "abandoned"];

export async function listOverageReports(deps: BillingDeps, page: Paging, status?: OverageReportStatus) {
  return deps.db
    .select({ report: overageReports, email: users.email })
    .from(overageReports)
    .leftJoin(users, eq(users.id, overageReports.userId))
    .where(inArray(overageReports.status, status ? [status] : UNBILLED))
    .orderBy(desc(overageReports.createdAt), desc(overageReports.id))
    .limit(page.limit)
    .offset(page.offset);
}
