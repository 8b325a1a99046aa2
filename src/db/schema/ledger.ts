import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const LEDGER_KINDS = [
  "signup_bonus",
  "purchase",
  "plan_grant",
  "auto_topup",
  "reservation",
  "release",
  "refund",
  "admin_adjustment",
  "overage",
  "ingest",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * Append-only credit ledger. `seq` orders a user's entries; `balance_after` is the balance
 * right after the entry, so the chain can be checked. (user_id, idempotency_key) is unique:
 * the same money movement can never be written twice.
 */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    idempotencyKey: text("idempotency_key"),
    note: text("note"),
    relatedId: text("related_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_user_idem_idx").on(t.userId, t.idempotencyKey),
    index("ledger_entries_user_seq_idx").on(t.userId, t.seq),
    index("ledger_entries_related_idx").on(t.relatedId),
  ],
);

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
