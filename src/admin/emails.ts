import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { outboxEmails } from "../db/schema";
import type { Paging } from "../lib/paging";

/** The outbox (every email the service sent), newest first; `to` matches the address exactly (case-insensitively). */
export async function listOutbox(db: Db, to: string | undefined, page: Paging) {
  const rows = await db
    .select({
      id: outboxEmails.id,
      to: outboxEmails.to,
      subject: outboxEmails.subject,
      text: outboxEmails.text,
      created_at: outboxEmails.createdAt,
      delivery_status: sql<"outbox" | "sent" | "failed">`${outboxEmails.deliveryStatus}`,
      delivery_error: outboxEmails.deliveryError,
      attempts: outboxEmails.attempts,
      next_attempt_at: outboxEmails.nextAttemptAt,
    })
    .from(outboxEmails)
    .where(to ? eq(outboxEmails.to, to.trim().toLowerCase()) : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(sql`rowid`))
    .limit(page.limit)
    .offset(page.offset);
  return rows;
}
