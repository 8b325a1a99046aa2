import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** Credit packs (pay as you go). Seeded by a migration; `processor_price_env` names the variable holding the processor's price id. */
export const packs = sqliteTable("packs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  credits: integer("credits").notNull(),
  priceCents: integer("price_cents").notNull(),
  blurb: text("blurb").notNull(),
  processorPriceEnv: text("processor_price_env").notNull(),
  sortOrder: integer("sort_order").notNull(),
});

/** Monthly plans. `features` is a JSON array of strings. */
export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  monthlyPriceCents: integer("monthly_price_cents").notNull(),
  includedCredits: integer("included_credits").notNull(),
  overageMicros: integer("overage_micros").notNull(),
  breakevenCredits: integer("breakeven_credits").notNull(),
  blurb: text("blurb").notNull(),
  features: text("features", { mode: "json" }).$type<string[]>().notNull(),
  /** Null for Free: nothing to buy. */
  processorPriceEnv: text("processor_price_env"),
  /** The metered overage price attached to the subscription. */
  processorOveragePriceEnv: text("processor_overage_price_env"),
  sortOrder: integer("sort_order").notNull(),
});

export const PAYMENT_KINDS = ["pack", "plan_checkout", "plan_invoice", "auto_topup"] as const;
export const PAYMENT_STATUSES = ["pending", "completed", "failed", "refunded"] as const;

/**
 * One row per attempt to take money: a pack checkout, a plan checkout, a paid plan invoice, an
 * auto top-up. `pack_credits` / `pack_amount_cents` are what the row buys (plan rows: the
 * included credits and the monthly price). Processor references are unique so an event can only
 * ever match one row.
 */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: PAYMENT_KINDS }).notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    packId: text("pack_id"),
    planId: text("plan_id"),
    packCredits: integer("pack_credits").notNull(),
    packAmountCents: integer("pack_amount_cents").notNull(),
    processorSessionId: text("processor_session_id").unique(),
    processorPaymentIntentId: text("processor_payment_intent_id").unique(),
    processorInvoiceId: text("processor_invoice_id").unique(),
    /** Credits taken back by processor refunds so far, and what could not be taken (already spent). */
    refundedCredits: integer("refunded_credits").notNull().default(0),
    refundShortfallCredits: integer("refund_shortfall_credits").notNull().default(0),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    completedAt: text("completed_at"),
  },
  (t) => [index("payments_user_created_idx").on(t.userId, t.createdAt)],
);

/** Every processor event received, stored with its raw body before it is applied. */
export const processorEvents = sqliteTable(
  "processor_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    receivedAt: text("received_at").notNull(),
    body: text("body"),
    /** received → processed | ignored | failed */
    status: text("status").notNull().default("received"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    processedAt: text("processed_at"),
  },
  (t) => [index("processor_events_received_idx").on(t.receivedAt)],
);

/** The current plan of a user (no row = Free) and the processor subscription behind it. */
export const subscriptions = sqliteTable("subscriptions", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  planId: text("plan_id").notNull(),
  status: text("status").notNull(),
  processorSubscriptionId: text("processor_subscription_id").unique(),
  currentPeriodStart: text("current_period_start"),
  currentPeriodEnd: text("current_period_end"),
  /** `created` of the newest processor event applied, so late, out-of-order events are ignored. */
  processorEventCreated: integer("processor_event_created").notNull().default(0),
  updatedAt: text("updated_at").notNull(),
});

/** Auto top-up settings and the one payment that may be in flight for it. */
export const autoTopups = sqliteTable("auto_topups", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  thresholdCredits: integer("threshold_credits").notNull(),
  packId: text("pack_id").notNull(),
  inFlightPaymentId: text("in_flight_payment_id"),
  inFlightSince: text("in_flight_since"),
  updatedAt: text("updated_at").notNull(),
});

/** Overage credits granted to paid-plan users, each reported once to the processor's billing meter. */
export const overageReports = sqliteTable(
  "overage_reports",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ledgerEntryId: text("ledger_entry_id").notNull(),
    credits: integer("credits").notNull(),
    /**
     * pending → reported | failed (retried by the sweep) | skipped (never sent: no processor, or no Stripe customer; final) |
     * abandoned (given up: past Stripe's window for meter events; services/billing/overage-retry.ts)
     */
    status: text("status").notNull(),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    reportedAt: text("reported_at"),
    /** Sends tried so far (the first one included). */
    attempts: integer("attempts").notNull().default(0),
    /** When the sweep may try a failed report again; null when nothing is due. */
    nextAttemptAt: text("next_attempt_at"),
    /** A failed send may have reached Stripe (network error, 5xx): past the identifier's de-duplication window a resend could bill twice. */
    inDoubt: integer("in_doubt", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("overage_reports_entry_idx").on(t.ledgerEntryId),
    index("overage_reports_user_idx").on(t.userId, t.createdAt),
    index("overage_reports_status_idx").on(t.status, t.nextAttemptAt),
  ],
);
