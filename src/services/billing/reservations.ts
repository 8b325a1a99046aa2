import { errorSummary } from "../../lib/errors";
import { and, eq, inArray, sql } from "drizzle-orm";
import { overageReports } from "../../db/schema/billing";
import { ledgerEntries } from "../../db/schema/ledger";
import { users } from "../../db/schema/users";
import { nowIso } from "../../lib/time";
import { applyLedgerChange, ledgerChangeStatements } from "../ledger";
import { maybeStartAutoTopup } from "./auto-topup";
import type { BillingDeps } from "./checkout";
import { reportOverage } from "./overage-reports";
import { currentPlan } from "./subscriptions";
import { unverifiedFloor } from "../unverified-spending";

import type { Defer } from "../deps";

export type ReservationOutcome =
  | { status: "reserved"; balance: number; overageCredits: number }
  | { status: "insufficient"; balance: number }
  /** The balance could pay, but the email is not verified and the floor (unverified-spending.ts) stops it. */
  | { status: "unverified"; balance: number; floor: number };

const reservationKey = (jobId: string) => `reservation:${jobId}`;

/** How a reservation would be paid, read without writing: the balance, a paid plan's overage, or nothing (402, or 403 before the email is verified). */
export interface ReservationFunding {
  balance: number;
  fundedBy: "balance" | "plan_overage" | null;
  /** Not funded only because the email is not verified: the balance pays, but not without crossing the unverified floor. */
  unverifiedFloor?: number;
}

/**
 * What reserveCredits would do now, without doing it: the same rule (the balance pays, else a
 * paid plan's overage, else 402). For a quote, and for a replay that must refuse before racing
 * duplicates reserve and give back in turn.
 */
export async function reservationFunding(db: BillingDeps["db"], userId: string, credits: number, floor: number | null = null): Promise<ReservationFunding> {
  const row = await db.select({ credits: users.credits, emailVerified: users.emailVerified }).from(users).where(eq(users.id, userId)).get();
  const balance = row?.credits ?? 0;
  // The unverified floor, as reserveCredits judges it: only the balance path has it.
  const unverified = floor && !row?.emailVerified ? floor : 0;
  if (balance - credits >= unverified) return { balance, fundedBy: "balance" };
  if ((await currentPlan(db, userId)).paid) return { balance, fundedBy: "plan_overage" };
  return { balance, fundedBy: null, ...(balance >= credits ? { unverifiedFloor: unverified } : {}) };
}

/**
 * Reserves `credits` for a job, once per job id. When the balance is short, a user on a paid plan
 * gets the shortfall as an `overage` entry in the same transaction as the reservation (reported to
 * the processor's billing meter afterwards) instead of a 402; Free users get `insufficient`.
 * Any debit may trigger an auto top-up in the background. Until the email is verified, the balance
 * path stops at the unverified floor (`unverified`; services/unverified-spending.ts), in the same
 * statement as the balance check; the overage path has none (a paid plan has a card on file).
 */
export async function reserveCredits(deps: BillingDeps, userId: string, credits: number, jobId: string, defer: Defer): Promise<ReservationOutcome> {
  const { db } = deps;
  const reservation = { kind: "reservation" as const, delta: -credits, idempotencyKey: reservationKey(jobId), relatedId: jobId };
  const floor = unverifiedFloor(deps.config);
  const first = await applyLedgerChange(db, userId, { ...reservation, unverifiedFloor: floor });
  if (first.status !== "insufficient") {
    defer(maybeStartAutoTopup(deps, userId).catch((error: unknown) => console.error(`auto top-up check failed: ${errorSummary(error)}`)));
    return { status: "reserved", balance: first.balance, overageCredits: 0 };
  }
  if (!(await currentPlan(db, userId)).paid) {
    // Which rule refused it, for the answer: the balance (read in the same transaction) could pay, so the floor did.
    if (floor && first.balance >= credits) return { status: "unverified", balance: first.balance, floor };
    return { status: "insufficient", balance: first.balance };
  }

  const overage = ledgerChangeStatements(db, userId, {
    kind: "overage",
    topUpTo: credits,
    idempotencyKey: `overage:${jobId}`,
    relatedId: jobId,
    note: "Plan overage covering a reservation",
  });
  const reserve = ledgerChangeStatements(db, userId, reservation);
  const reportId = crypto.randomUUID();
  const [, , , , , written, after] = await db.batch([
    overage.insert,
    overage.update,
    reserve.insert,
    reserve.update,
    // The meter report to send, written only if the overage entry was.
    db.insert(overageReports).select(
      db
        .select({
          id: sql`${reportId}`.as("id"),
          userId: ledgerEntries.userId,
          ledgerEntryId: ledgerEntries.id,
          credits: ledgerEntries.delta,
          status: sql`'pending'`.as("status"),
          error: sql`null`.as("error"),
          createdAt: sql`${nowIso()}`.as("created_at"),
          reportedAt: sql`null`.as("reported_at"),
          attempts: sql`0`.as("attempts"),
          nextAttemptAt: sql`null`.as("next_attempt_at"),
          inDoubt: sql`0`.as("in_doubt"),
        })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.id, overage.id)),
    ),
    db
      .select()
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.id, [overage.id, reserve.id])),
    db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)),
  ]);
  const balance = after[0]?.credits ?? 0;
  if (!written.some((entry) => entry.id === reserve.id)) return { status: "insufficient", balance };
  const overageEntry = written.find((entry) => entry.id === overage.id);
  if (overageEntry) defer(reportOverage(deps, reportId));
  return { status: "reserved", balance, overageCredits: overageEntry?.delta ?? 0 };
}

/**
 * Settles a job's reservation: gives back what was not charged (`release`), exactly once per job.
 * The amount comes from the job's own reservation entry, so a job that never reserved (or was
 * already settled) can never release credits it did not take.
 */
export async function settleReservation(deps: BillingDeps, userId: string, jobId: string, charged: number) {
  const reservation = await deps.db
    .select({ delta: ledgerEntries.delta })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, reservationKey(jobId))))
    .get();
  if (!reservation) return null;
  const reserved = -reservation.delta;
  const unspent = reserved - Math.min(Math.max(0, charged), reserved);
  return applyLedgerChange(deps.db, userId, {
    kind: "release",
    delta: unspent,
    idempotencyKey: `release:${jobId}`,
    relatedId: jobId,
    note: `Released ${unspent} of ${reserved} reserved credits`,
  });
}
