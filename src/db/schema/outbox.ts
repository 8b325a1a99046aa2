import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Every email the service sends, whether or not a real provider also delivered it. */
export const outboxEmails = sqliteTable(
  "outbox_emails",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** "outbox" when only recorded; "sent" / "failed" once the provider answered. */
    deliveryStatus: text("delivery_status").notNull().default("outbox"),
    provider: text("provider"),
    providerMessageId: text("provider_message_id"),
    deliveryError: text("delivery_error"),
    createdAt: text("created_at").notNull(),
    /** Requests made to the provider for this email, the first send's and the sweep's (0 for rows older than migration 0015). */
    attempts: integer("attempts").notNull().default(0),
    /** When the cron sweep sends a `failed` email again (its failure was a 429, a 5xx or no answer); null when nothing is due. */
    nextAttemptAt: text("next_attempt_at"),
  },
  (t) => [
    index("outbox_emails_to_idx").on(t.to),
    index("outbox_emails_created_idx").on(t.createdAt),
    index("outbox_emails_retry_idx").on(t.deliveryStatus, t.nextAttemptAt),
  ],
);
