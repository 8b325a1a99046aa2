import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type TicketCategory, type TicketReplyRow, type TicketRow, type TicketStatus, ticketReplies, tickets, type UserRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";
import type { EmailSender } from "./email";

/** Support tickets: users submit and read their own; admins list, reply, close and reopen. */

export interface NewTicket {
  category: TicketCategory;
  subject: string;
  body: string;
}

export async function createTicket(db: Db, email: EmailSender, user: UserRow, input: NewTicket): Promise<TicketRow> {
  const now = nowIso();
  const [ticket] = await db
    .insert(tickets)
    .values({ id: crypto.randomUUID(), userId: user.id, email: user.email, ...input, status: "open", createdAt: now, updatedAt: now })
    .returning();
  await email.send({
    to: user.email,
    subject: `We received your request: ${input.subject}`,
    text: [
      "Thanks for writing to us. We have your request and will answer by email.",
      "",
      `Reference: ${ticket!.id}`,
      `Category: ${input.category}`,
      `Subject: ${input.subject}`,
      "",
      input.body,
    ].join("\n"),
  });
  return ticket!;
}

async function repliesByTicket(db: Db, ticketIds: string[]): Promise<Map<string, TicketReplyRow[]>> {
  const byTicket = new Map<string, TicketReplyRow[]>();
  if (ticketIds.length === 0) return byTicket;
  const rows = await db
    .select()
    .from(ticketReplies)
    .where(inArray(ticketReplies.ticketId, ticketIds))
    .orderBy(asc(ticketReplies.createdAt), asc(sql`rowid`));
  for (const row of rows) byTicket.set(row.ticketId, [...(byTicket.get(row.ticketId) ?? []), row]);
  return byTicket;
}

/** GET /api/support: the caller's own tickets (newest first), each with its replies (oldest first). */
export async function listOwnTickets(db: Db, userId: string, page: Paging) {
  const rows = await db
    .select()
    .from(tickets)
    .where(eq(tickets.userId, userId))
    .orderBy(desc(tickets.createdAt), desc(sql`rowid`))
    .limit(page.limit)
    .offset(page.offset);
  const replies = await repliesByTicket(db, rows.map((t) => t.id));
  return rows.map((t) => ({
    id: t.id,
    category: t.category,
    subject: t.subject,
    body: t.body,
    status: t.status,
    created_at: t.createdAt,
    // What the user sees of a reply: its text and time, not which admin wrote it.
    replies: (replies.get(t.id) ?? []).map((r) => ({ id: r.id, body: r.body, created_at: r.createdAt })),
  }));
}

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

async function findTicket(db: Db, id: string): Promise<TicketRow> {
  const ticket = await db.select().from(tickets).where(eq(tickets.id, id)).get();
  if (!ticket) throw ApiError.notFound("Ticket");
  return ticket;
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
 * (the first one to answer owns it). With `sendEmail` the reply goes to the ticket's address
 * through the one sender; `sent_email` records that it did.
 */
export async function replyToTicket(
  db: Db,
  email: EmailSender,
  input: { ticketId: string; adminId: string; body: string; sendEmail: boolean },
): Promise<{ replyId: string; ticket: TicketRow }> {
  const ticket = await findTicket(db, input.ticketId);
  if (input.sendEmail) {
    await email.send({
      to: ticket.email,
      subject: `Re: ${ticket.subject}`,
      text: `${input.body}\n\n--\nReference: ${ticket.id}\nReply to this ticket from your dashboard's support page.`,
    });
  }
  const replyId = crypto.randomUUID();
  const now = nowIso();
  await db.batch([
    db.insert(ticketReplies).values({ id: replyId, ticketId: ticket.id, adminId: input.adminId, body: input.body, sentEmail: input.sendEmail, createdAt: now }),
    db
      .update(tickets)
      .set({ status: "answered", assignedAdminId: sql`coalesce(${tickets.assignedAdminId}, ${input.adminId})`, updatedAt: now })
      .where(eq(tickets.id, ticket.id)),
  ]);
  return { replyId, ticket };
}

/** Close (`closed`) or reopen (`open`); returns the status it had before. */
export async function setTicketStatus(db: Db, id: string, status: Extract<TicketStatus, "open" | "closed">): Promise<TicketStatus> {
  const ticket = await findTicket(db, id);
  if (ticket.status !== status) await db.update(tickets).set({ status, updatedAt: nowIso() }).where(eq(tickets.id, id));
  return ticket.status;
}

/** Tickets not yet closed (of one user, or of everyone). */
export async function countOpenTickets(db: Db, userId?: string): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(tickets)
    .where(and(ne(tickets.status, "closed"), userId ? eq(tickets.userId, userId) : undefined))
    .get();
  return row?.n ?? 0;
}
