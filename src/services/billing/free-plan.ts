import { and, eq, inArray, isNull, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { subscriptions } from "../../db/schema/billing";
import { ledgerEntries } from "../../db/schema/ledger";
import { users } from "../../db/schema/users";
import { applyLedgerChange } from "../ledger";
import { FREE_PLAN_ID } from "./catalog";

/** Credits a Free account has at the start of each month (spec: "The free plan includes 500 credits per month"). */
const FREE_MONTHLY_CREDITS = 500;
/** Accounts handled per cron tick; the rest follow on the next ticks. */
const BATCH = 200;

/**
 * Tops every Free account up to 500 credits once per UTC month (a `plan_grant`, idempotency key
 * `free:<YYYY-MM>`, written even when nothing was missing so the account is done for the month).
 * Topping up rather than adding keeps unused accounts from piling up free credits. Accounts
 * created this month already have their signup bonus; suspended accounts are skipped.
 */
export async function grantFreeMonth(db: Db, now = new Date()): Promise<number> {
  const month = now.toISOString().slice(0, 7);
  const monthStart = `${month}-01T00:00:00.000Z`;
  const key = `free:${month}`;
  const due = await db
    .select({ id: users.id, credits: users.credits })
    .from(users)
    .where(
      and(
        lt(users.createdAt, monthStart),
        isNull(users.suspendedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(ledgerEntries)
            .where(and(eq(ledgerEntries.userId, users.id), eq(ledgerEntries.idempotencyKey, key))),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(subscriptions)
            .where(
              and(
                eq(subscriptions.userId, users.id),
                sql`${subscriptions.planId} != ${FREE_PLAN_ID}`,
                inArray(subscriptions.status, ["active", "trialing", "past_due"]),
              ),
            ),
        ),
      ),
    )
    .limit(BATCH);
  for (const user of due) {
    await applyLedgerChange(db, user.id, {
      kind: "plan_grant",
      delta: Math.max(0, FREE_MONTHLY_CREDITS - user.credits),
      idempotencyKey: key,
      note: `Free plan: topped up to ${FREE_MONTHLY_CREDITS} credits for ${month}`,
    });
  }
  return due.length;
}
