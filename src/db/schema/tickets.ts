import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

export const TICKET_CATEGORIES = ["billing", "technical", "account", "feature_request", "other"] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
/** open → answered (an admin replied) → closed; reopen sets open again. */
export const TICKET_STATUSES = ["open", "answered", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * Support tickets. `email` is copied from the user at submission so replies still reach the
 * address the user wrote from; `user_id` becomes null if the account is deleted.
 */
export const tickets = sqliteTable(
  "tickets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    category: text("category", { enum: TICKET_CATEGORIES }).notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    assignedAdminId: text("assigned_admin_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("tickets_user_created_idx").on(t.userId, t.createdAt),
    index("tickets_status_created_idx").on(t.status, t.createdAt),
    index("tickets_created_idx").on(t.createdAt),
  ],
);

/** Admin replies to a ticket, oldest first. */
export const ticketReplies = sqliteTable(
  "ticket_replies",
  {
    id: text("id").primaryKey(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    adminId: text("admin_id"),
    body: text("body").notNull(),
    /** Whether the reply was also emailed to the ticket's address. */
    sentEmail: integer("sent_email", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("ticket_replies_ticket_idx").on(t.ticketId, t.createdAt)],
);

export type TicketRow = typeof tickets.$inferSelect;
export type TicketReplyRow = typeof ticketReplies.$inferSelect;
