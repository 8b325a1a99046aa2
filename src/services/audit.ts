import { and, desc, eq, is, SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type AuditRow, auditLog, users } from "../db/schema";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";

/** What an admin mutation did (who did it is the `Actor`). */
export interface AuditEntry {
  /** `<target type>.<verb>`, e.g. `user.credits_adjust`, `job.refund`, `ticket.reply`. */
  action: string;
  targetType: "user" | "job" | "ticket" | "processor_event" | "corpus";
  targetId?: string | null;
  /** What changed; in `auditAfterChange`, a value may be SQL the batch evaluates (e.g. the balance after it). */
  details?: Record<string, unknown> | null;
}

/** Who made an admin mutation. */
export interface Actor {
  id: string;
  email: string;
}

/** `json_object(...)` of the details: SQL values are evaluated in the batch, the others bound as JSON. */
function detailsSql(details: Record<string, unknown>) {
  const pairs = Object.entries(details).map(([key, value]) => (is(value, SQL) ? sql`${key}, ${value}` : sql`${key}, json(${JSON.stringify(value ?? null)})`));
  return sql`json_object(${sql.join(pairs, sql`, `)})`;
}

/**
 * The audit row of an admin mutation, as a statement of the mutation's own batch, placed right
 * after the write it records: it is inserted only if that write changed a row (SQLite's
 * `changes()`), so a resubmit that changed nothing leaves no row, and no row can exist without
 * its mutation (one transaction).
 */
export function auditAfterChange(db: Db, actor: Actor, entry: AuditEntry) {
  return db.insert(auditLog).select(
    db
      .select({
        // Drizzle wants every column in table order; NULL lets SQLite assign the next seq.
        seq: sql`null`.as("seq"),
        id: sql`${crypto.randomUUID()}`.as("id"),
        adminId: sql`${actor.id}`.as("admin_id"),
        adminEmail: sql`${actor.email}`.as("admin_email"),
        action: sql`${entry.action}`.as("action"),
        targetType: sql`${entry.targetType}`.as("target_type"),
        targetId: sql`${entry.targetId ?? null}`.as("target_id"),
        details: sql`${entry.details ? detailsSql(entry.details) : null}`.as("details"),
        createdAt: sql`${nowIso()}`.as("created_at"),
      })
      // One row to select from: the acting admin's own.
      .from(users)
      .where(and(eq(users.id, actor.id), sql`changes() > 0`)),
  );
}

/**
 * The audit row of a mutation that is not one batch of ours (a processor event replayed through
 * its handler, corpus documents written by the corpus store): written right after it succeeds.
 */
export async function recordAudit(db: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: crypto.randomUUID(),
    adminId: actor.id,
    adminEmail: actor.email,
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

function auditDto(row: AuditRow) {
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
