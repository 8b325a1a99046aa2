import { peek, pageWithLink } from "../../http/next-page";
import { accountLimitNote, withLimitState } from "../../http/account-limit-docs";
import { limitPerAccount } from "../../middleware/account-rate-limit";
import { createRoute, z } from "@hono/zod-openapi";
import { TICKET_CATEGORIES } from "../../db/schema";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, noBody, pageResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { createTicket, listOwnTickets } from "../../services/tickets";

const tags = ["Support"];
export const supportRoutes = createRouter();

export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;

const TicketBody = z
  .strictObject({
    category: z
      .enum(TICKET_CATEGORIES, { error: `category must be one of ${TICKET_CATEGORIES.join(", ")}` })
      .openapi({ description: "What the ticket is about: `billing`, `technical`, `account`, `feature_request` or `other`." }),
    subject: z
      .string()
      .trim()
      .min(1, { error: "subject must not be empty" })
      .max(SUBJECT_MAX, { error: `subject must be at most ${SUBJECT_MAX} characters` })
      // It becomes an email subject line.
      .refine((s) => !/[\r\n]/.test(s), { error: "subject must be a single line" })
      .openapi({ description: `A one-line summary, 1 to ${SUBJECT_MAX} characters (trimmed); it becomes the subject of the emails about the ticket.` }),
    body: z
      .string()
      .trim()
      .min(1, { error: "body must not be empty" })
      .max(BODY_MAX, { error: `body must be at most ${BODY_MAX} characters` })
      .openapi({
        description: `What happened or what you need, 1 to ${BODY_MAX} characters (trimmed). Include job ids or X-Request-Id values when they apply.`,
      }),
  })
  .openapi("TicketBody", { description: "A new support ticket." });

const SupportTicketReply = z
  .object({
    id: z.uuid().openapi({ description: "The reply's id." }),
    body: z.string().openapi({ description: "The reply's text." }),
    created_at: z.iso.datetime().openapi({ description: "When support replied (UTC)." }),
  })
  .openapi("SupportTicketReply", { description: "A reply from support." });
const SupportTicket = z
  .object({
    id: z.uuid().openapi({ description: "The ticket's id (its reference in emails)." }),
    category: z.enum(TICKET_CATEGORIES).openapi({ description: "What the ticket is about, as submitted." }),
    subject: z.string().openapi({ description: "The one-line summary, as submitted." }),
    body: z.string().openapi({ description: "The text, as submitted." }),
    status: z.string().openapi({ description: "open, answered (an admin replied) or closed" }),
    created_at: z.iso.datetime().openapi({ description: "When the ticket was submitted (UTC)." }),
    replies: z.array(SupportTicketReply).openapi({ description: "Support's replies, oldest first." }),
  })
  .openapi("SupportTicket", { description: "One of your support tickets, with its replies." });

const ticketExample = { category: "billing", subject: "VAT number on invoices", body: "Please add our VAT number DE123456789 to future invoices." } as const;

supportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    operationId: "createTicket",
    tags,
    summary: "Submit a support ticket",
    description:
      "Opens a ticket with support. A confirmation with the ticket's reference is emailed to the account's address, and replies arrive by email and in `GET /api/support`." +
      accountLimitNote("account:email", "tickets"),
    security: JWT_SECURITY,
    // Each ticket sends an email: a loop must not turn our sender into a spammer of the account's inbox.
    middleware: [limitPerAccount("account:email", "Too many support tickets for this account; retry later.")] as const,
    request: { body: jsonBody(TicketBody, ticketExample) },
    responses: {
      200: withLimitState(noBody("Ticket submitted")),
      ...errorResponses("invalid_request", "unauthorized", "account_suspended", "rate_limited"),
    },
  }),
  async (c) => {
    await createTicket(c.get("deps").db, c.get("deps").email, c.get("user"), c.req.valid("json"));
    return c.body(null, 200);
  },
);

supportRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "listTickets",
    tags,
    summary: "List your support tickets",
    description: "Lists the tickets you submitted, newest first, each with its status and support's replies (oldest first); page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: {
      200: pageResponse(z.array(SupportTicket), "Your tickets, newest first", [
        {
          id: "9953e98a-3121-4f1c-8df6-ef48a5e48a3c",
          ...ticketExample,
          status: "answered",
          created_at: "2026-11-23T18:00:06.690Z",
          replies: [{ id: "c41d3e2a-7b5f-4e8a-9d10-2f6b8a4c1e07", body: "Done: your next invoices will carry it.", created_at: "2026-11-24T08:15:31.002Z" }],
        },
      ]),
      ...errorResponses("invalid_request", "unauthorized", "account_suspended"),
    },
  }),
  async (c) => {
    const page = c.req.valid("query");
    return c.json(pageWithLink(c, await listOwnTickets(c.get("deps").db, c.get("user").id, peek(page)), page), 200);
  },
);
