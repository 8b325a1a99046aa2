import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type TicketCategory, type TicketReplyRow, type TicketRow, ticketReplies, tickets, type Caller } from "../db/schema";
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

export async function createTicket(db: Db, email: EmailSender, user: Caller, input: NewTicket): Promise<TicketRow> {
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

export async function repliesByTicket(db: Db, ticketIds: string[]): Promise<Map<string, TicketReplyRow[]>> {
  const byTicket = new Map<string, TicketReplyRow[]>();
  if (ticketIds.length === 0) return byTicket;
  const rows = await db.select().from(ticketReplies).where(inArray(ticketReplies.ticketId, ticketIds)).orderBy(asc(ticketReplies.createdAt), asc(sql`rowid`));
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
  const replies = await repliesByTicket(
    db,
    rows.map((t) => t.id),
  );
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

export async function findTicket(db: Db, id: string): Promise<TicketRow> {
  const ticket = await db.select().from(tickets).where(eq(tickets.id, id)).get();
  if (!ticket) throw ApiError.notFound("Ticket");
  return ticket;
}
