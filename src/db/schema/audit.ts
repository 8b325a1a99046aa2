import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Append-only trail of admin mutations. No foreign keys on purpose: the trail outlives the
 * admin and the target (a deleted user's refunds must still be explainable). `seq` orders it.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    adminId: text("admin_id").notNull(),
    adminEmail: text("admin_email"),
    /** e.g. `user.credits_adjust`, `job.refund`, `ticket.reply`, `processor_event.replay`. */
    action: text("action").notNull(),
    /** `user`, `job`, `ticket`, `processor_event`, `corpus`. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** JSON object with what changed (amounts, notes, outcome). */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("audit_log_target_idx").on(t.targetType, t.targetId), index("audit_log_admin_idx").on(t.adminId)],
);

export type AuditRow = typeof auditLog.$inferSelect;
