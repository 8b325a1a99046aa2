import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type TicketCategory, type TicketStatus, ticketReplies, tickets } from "../db/schema";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";
import { type Actor, auditAfterChange } from "../services/audit";
import type { Deps } from "../services/deps";
import { findTicket, repliesByTicket } from "../services/tickets";

/** The support queue as admins work it: every ticket, its detail, replies and status changes. */

export async function adminListTickets(db: Db, filters: { status?: TicketStatus; category?: TicketCategory }, page: Paging) {
  const rows = await db
    .select({
      ticket: tickets,
      // Qualified by hand: Drizzle renders bare column names, and a bare `id` in the subquery would be the reply's.
      replyCount: sql<number>`(select count(*) from "ticket_replies" r where r."ticket_id" = "tickets"."id")`,
    })
    .from(tickets)
    .where(and(filters.status ? eq(tickets.status, filters.status) : undefined, filters.category ? eq(tickets.category, filters.category) : undefined))
    .orderBy(desc(tickets.createdAt), desc(sql`"tickets".rowid`))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(({ ticket: t, replyCount }) => ({
    id: t.id,
    user_id: t.userId,
    email: t.email,
    category: t.category,
    subject: t.subject,
    status: t.status,
    created_at: t.createdAt,
    reply_count: Number(replyCount),
  }));
}

export async function adminTicketDetail(db: Db, id: string) {
  const t = await findTicket(db, id);
  const replies = (await repliesByTicket(db, [id])).get(id) ?? [];
  return {
    id: t.id,
    user_id: t.userId,
    email: t.email,
    category: t.category,
    subject: t.subject,
    body: t.body,
    status: t.status,
    assigned_admin_id: t.assignedAdminId,
    created_at: t.createdAt,
    replies: replies.map((r) => ({ id: r.id, admin_id: r.adminId, body: r.body, sent_email: r.sentEmail, created_at: r.createdAt })),
  };
}

/**
 * An admin's reply: stored, the ticket set to `answered` and assigned to the replying admin
 * (the first one to answer owns it), audited in the same batch. With `sendEmail` the reply goes
 * to the ticket's address through the one sender; `sent_email` records that it did.
 */
export async function replyToTicket(
  deps: Pick<Deps, "db" | "email">,
  actor: Actor,
  input: { ticketId: string; body: string; sendEmail: boolean },
): Promise<void> {
  const { db } = deps;
  const ticket = await findTicket(db, input.ticketId);
  if (input.sendEmail) {
    await deps.email.send({
      to: ticket.email,
      subject: `Re: ${ticket.subject}`,
      text: `${input.body}\n\n--\nReference: ${ticket.id}\nReply to this ticket from your dashboard's support page.`,
    });
  }
  const replyId = crypto.randomUUID();
  const now = nowIso();
  await db.batch([
    db
      .update(tickets)
      .set({ status: "answered", assignedAdminId: sql`coalesce(${tickets.assignedAdminId}, ${actor.id})`, updatedAt: now })
      .where(eq(tickets.id, ticket.id)),
    db.insert(ticketReplies).values({ id: replyId, ticketId: ticket.id, adminId: actor.id, body: input.body, sentEmail: input.sendEmail, createdAt: now }),
    auditAfterChange(db, actor, {
      action: "ticket.reply",
      targetType: "ticket",
      targetId: ticket.id,
      details: { reply_id: replyId, send_email: input.sendEmail, previous_status: ticket.status },
    }),
  ]);
}

/** Close (`closed`) or reopen (`open`); a ticket already there is left alone (and nothing is audited). */
export async function setTicketStatus(db: Db, actor: Actor, id: string, status: Extract<TicketStatus, "open" | "closed">): Promise<void> {
  const ticket = await findTicket(db, id);
  await db.batch([
    db
      .update(tickets)
      .set({ status, updatedAt: nowIso() })
      .where(and(eq(tickets.id, id), ne(tickets.status, status))),
    auditAfterChange(db, actor, {
      action: status === "closed" ? "ticket.close" : "ticket.reopen",
      targetType: "ticket",
      targetId: id,
      details: { previous_status: ticket.status },
    }),
  ]);
}
