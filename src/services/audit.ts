import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type AuditRow, auditLog } from "../db/schema";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";

export interface AuditEntry {
  adminId: string;
  adminEmail?: string | null;
  /** `<target type>.<verb>`, e.g. `user.credits_adjust`, `job.refund`, `ticket.reply`. */
  action: string;
  targetType: "user" | "job" | "ticket" | "processor_event" | "corpus";
  targetId?: string | null;
  details?: Record<string, unknown> | null;
}

/**
 * One row per admin mutation that changed something. Written right after the change succeeds
 * (a resubmit that changed nothing writes none). The money itself is recorded by the ledger,
 * so a lost audit row can never lose money, only the note of who moved it.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: crypto.randomUUID(),
    adminId: entry.adminId,
    adminEmail: entry.adminEmail ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
    createdAt: nowIso(),
  });
}

export async function listAudit(db: Db, filters: { targetType?: string; targetId?: string; action?: string }, page: Paging) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        filters.targetType ? eq(auditLog.targetType, filters.targetType) : undefined,
        filters.targetId ? eq(auditLog.targetId, filters.targetId) : undefined,
        filters.action ? eq(auditLog.action, filters.action) : undefined,
      ),
    )
    .orderBy(desc(auditLog.seq))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(auditDto);
}

export function auditDto(row: AuditRow) {
  return {
    id: row.id,
    admin_id: row.adminId,
    admin_email: row.adminEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    details: row.details ?? null,
    created_at: row.createdAt,
  };
}
