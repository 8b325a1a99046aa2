import { and, desc, eq, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { ledgerEntries, type LedgerEntryRow, type LedgerKind, users } from "../db/schema";
import { nowIso } from "../lib/time";

/**
 * The credit ledger. Every balance change is one atomic D1 batch that
 *  1. inserts the entry (with `balance_after`) only if the balance stays >= 0 and the
 *     (user, idempotency_key) pair is new (a unique index makes the duplicate a no-op),
 *  2. moves `users.credits` to that entry's `balance_after`, only if step 1 wrote it,
 *  3. reads back what happened.
 * D1 runs a batch as one transaction, so concurrent callers serialise and the sum of deltas
 * always equals the balance.
 */

interface LedgerChangeBase {
  kind: LedgerKind;
  /** Makes the change safe to retry: a second change with the same key is not applied. */
  idempotencyKey?: string | null;
  note?: string | null;
  relatedId?: string | null;
  /**
   * While the account's email is not verified, the change may not take the balance below this
   * (services/unverified-spending.ts). Judged in the statement that judges the balance, so
   * concurrent reservations cannot pass it together.
   */
  unverifiedFloor?: number | null;
}

export type LedgerChange = LedgerChangeBase &
  (
    | {
        /** Credits added (positive) or taken (negative). */
        delta: number;
        /**
         * For debits that must happen even when the balance is short (a processor refund):
         * take at most the whole balance, never below zero. The entry records the amount taken.
         */
        clampAtZero?: boolean;
      }
    | {
        /**
         * Instead of a fixed delta: raise the balance to exactly this many credits, computed inside
         * the transaction (plan overage covering a reservation). No entry when it is already there.
         */
        topUpTo: number;
      }
  );

export type LedgerResult =
  | { status: "applied"; entry: LedgerEntryRow; balance: number }
  /** The idempotency key was used before: nothing changed, here is the original entry. */
  | { status: "duplicate"; entry: LedgerEntryRow; balance: number }
  /** The debit would take the balance below zero (or below `unverifiedFloor`): nothing changed. */
  | { status: "insufficient"; balance: number };

export class UnknownUserError extends Error {
  constructor(userId: string) {
    super(`No user ${userId}`);
  }
}

/**
 * The two writes of a ledger change, for callers that must batch them with their own writes
 * (signup creates the user and its bonus in one transaction).
 */
export function ledgerChangeStatements(db: Db, userId: string, change: LedgerChange, id: string = crypto.randomUUID()) {
  const amount = "topUpTo" in change ? change.topUpTo : change.delta;
  if (!Number.isSafeInteger(amount)) throw new RangeError("Ledger amounts must be safe integers");
  const delta =
    "topUpTo" in change
      ? sql`${change.topUpTo} - ${users.credits}`
      : change.clampAtZero && change.delta < 0
        ? sql`max(${change.delta}, -${users.credits})`
        : sql`${change.delta}`;
  // A top-up writes nothing when the balance already suffices; other zero deltas are still recorded.
  const applies = "topUpTo" in change ? sql`${users.credits} < ${change.topUpTo}` : sql`1 = 1`;
  const floor = change.unverifiedFloor ? sql`case when ${users.emailVerified} then 0 else ${change.unverifiedFloor} end` : sql`0`;
  const insert = db
    .insert(ledgerEntries)
    .select(
      db
        .select({
          // Drizzle wants every column in table order; NULL lets SQLite assign the next seq.
          seq: sql`null`.as("seq"),
          id: sql`${id}`.as("id"),
          userId: users.id,
          kind: sql`${change.kind}`.as("kind"),
          delta: sql`${delta}`.as("delta"),
          balanceAfter: sql`${users.credits} + ${delta}`.as("balance_after"),
          idempotencyKey: sql`${change.idempotencyKey ?? null}`.as("idempotency_key"),
          note: sql`${change.note ?? null}`.as("note"),
          relatedId: sql`${change.relatedId ?? null}`.as("related_id"),
          createdAt: sql`${nowIso()}`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, userId), sql`${users.credits} + ${delta} >= ${floor}`, applies)),
    )
    .onConflictDoNothing();
  const update = db
    .update(users)
    .set({
      credits: sql`(select ${ledgerEntries.balanceAfter} from ${ledgerEntries} where ${ledgerEntries.id} = ${id})`,
      updatedAt: nowIso(),
    })
    .where(and(eq(users.id, userId), sql`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.id} = ${id})`));
  return { id, insert, update };
}

/**
 * Applies one change. `alongside` adds a statement to the same transaction, right after the
 * balance update (so `changes()` there says whether the entry was written): an admin's audit row.
 */
export async function applyLedgerChange(
  db: Db,
  userId: string,
  change: LedgerChange,
  alongside?: (entryId: string) => BatchItem<"sqlite">,
): Promise<LedgerResult> {
  const { id, insert, update } = ledgerChangeStatements(db, userId, change);
  const key = change.idempotencyKey ?? null;
  const readEntry = db
    .select()
    .from(ledgerEntries)
    .where(
      key === null ? eq(ledgerEntries.id, id) : or(eq(ledgerEntries.id, id), and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.idempotencyKey, key))),
    );
  const readBalance = db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  const [written, after] = (
    alongside
      ? (await db.batch([insert, update, alongside(id), readEntry, readBalance])).slice(3)
      : (await db.batch([insert, update, readEntry, readBalance])).slice(2)
  ) as [LedgerEntryRow[], { credits: number }[]];

  const balance = after[0]?.credits;
  if (balance === undefined) throw new UnknownUserError(userId);
  const entry = written[0];
  if (!entry) return { status: "insufficient", balance };
  return { status: entry.id === id ? "applied" : "duplicate", entry, balance };
}

export async function getBalance(db: Db, userId: string): Promise<number> {
  const row = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)).get();
  if (!row) throw new UnknownUserError(userId);
  return row.credits;
}

export async function listLedgerEntries(db: Db, userId: string, page: { limit: number; offset: number }) {
  return db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(desc(ledgerEntries.seq)).limit(page.limit).offset(page.offset);
}

/** A balance as the API shows it: integer credits and USD as a decimal string (1 credit = $0.01). */
export function balanceDto(credits: number): { credits: number; usd: string } {
  const cents = Math.abs(credits);
  const usd = `${credits < 0 ? "-" : ""}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  return { credits, usd };
}
