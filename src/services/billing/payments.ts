import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments } from "../../db/schema/billing";
import { ledgerEntries, type LedgerKind } from "../../db/schema/ledger";
import type { Paging } from "../../lib/paging";
import { nowIso } from "../../lib/time";
import { ledgerChangeStatements } from "../ledger";

export type PaymentRow = typeof payments.$inferSelect;

export async function findPayment(db: Db, id: string): Promise<PaymentRow | undefined> {
  return db.select().from(payments).where(eq(payments.id, id)).get();
}

export async function findPaymentBy(
  db: Db,
  ref: { sessionId?: string | null; paymentIntentId?: string | null; invoiceId?: string | null },
): Promise<PaymentRow | undefined> {
  if (ref.sessionId) return db.select().from(payments).where(eq(payments.processorSessionId, ref.sessionId)).get();
  if (ref.paymentIntentId) return db.select().from(payments).where(eq(payments.processorPaymentIntentId, ref.paymentIntentId)).get();
  if (ref.invoiceId) return db.select().from(payments).where(eq(payments.processorInvoiceId, ref.invoiceId)).get();
  return undefined;
}

/**
 * Grants what a payment bought, exactly once: the ledger entry (idempotency key `payment:<id>`)
 * and the row's move to `completed` happen in one batch, so a retried, replayed or concurrent
 * event finds the key taken and changes nothing.
 */
export async function completePayment(
  db: Db,
  payment: PaymentRow,
  kind: LedgerKind,
  refs: { paymentIntentId?: string | null } = {},
): Promise<{ granted: boolean }> {
  const key = `payment:${payment.id}`;
  const grant = ledgerChangeStatements(db, payment.userId, {
    kind,
    delta: payment.packCredits,
    idempotencyKey: key,
    relatedId: payment.id,
    note: `${payment.packCredits} credits (${payment.kind}${payment.packId ? ` ${payment.packId}` : ""})`,
  });
  const [, , , entries] = await db.batch([
    grant.insert,
    grant.update,
    db
      .update(payments)
      .set({
        status: "completed",
        completedAt: sql`coalesce(${payments.completedAt}, ${nowIso()})`,
        processorPaymentIntentId: sql`coalesce(${payments.processorPaymentIntentId}, ${refs.paymentIntentId ?? null})`,
        error: null,
      })
      .where(and(eq(payments.id, payment.id), sql`${payments.status} in ('pending', 'failed')`)),
    db
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, payment.userId), eq(ledgerEntries.idempotencyKey, key))),
  ]);
  return { granted: entries[0]?.id === grant.id };
}

/** Marks a pending payment failed (a completed one is never downgraded by a late failure event). */
export async function failPayment(db: Db, paymentId: string, error: string): Promise<void> {
  await db
    .update(payments)
    .set({ status: "failed", error: error.slice(0, 500) })
    .where(and(eq(payments.id, paymentId), eq(payments.status, "pending")));
}

export async function paymentHistory(db: Db, userId: string, page: Paging): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(sql`rowid`))
    .limit(page.limit)
    .offset(page.offset);
}

export function paymentDto(row: PaymentRow) {
  return {
    id: row.id,
    created_at: row.createdAt,
    status: row.status,
    pack_credits: row.packCredits,
    pack_amount_cents: row.packAmountCents,
    completed_at: row.completedAt,
    kind: row.kind,
    pack_id: row.packId,
    plan_id: row.planId,
    error: row.error,
  };
}
