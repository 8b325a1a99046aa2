import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { TICKET_CATEGORIES, TICKET_STATUSES } from "../../../db/schema";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody, pageResponse } from "../../../http/openapi";
import { adminListTickets, adminTicketDetail, replyToTicket, setTicketStatus } from "../../../admin/tickets";
import { AdminTicketDetail, AdminTicketRow, adminErrors, enumFilter, ReplyBody, withPaging } from "./admin-schemas";
import { adminTicketDetailExample, adminTicketRowExample } from "./admin-examples";

const tags = ["Admin"];
export const adminTicketRoutes = createRouter();

adminTicketRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListTickets",
    tags,
    summary: "List support tickets",
    description: "Support tickets of all users, newest first, with their reply counts. Filter by `status` and `category`; page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: {
      query: withPaging({
        status: enumFilter("status", TICKET_STATUSES, "Only tickets in this status."),
        category: enumFilter("category", TICKET_CATEGORIES, "Only tickets of this category."),
      }),
    },
    responses: { 200: pageResponse(z.array(AdminTicketRow), "Tickets, newest first", [adminTicketRowExample]), ...adminErrors() },
  }),
  async (c) => {
    const { status, category, ...page } = c.req.valid("query");
    return c.json(pageWithLink(c, await adminListTickets(c.get("deps").db, { status, category }, peek(page)), page), 200);
  },
);

adminTicketRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    operationId: "adminGetTicket",
    tags,
    summary: "Get a support ticket",
    description: "A ticket with its text, the admin it is assigned to (the first who replied) and every reply, oldest first.",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminTicketDetail, "The ticket", adminTicketDetailExample), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await adminTicketDetail(c.get("deps").db, c.req.valid("param").id), 200),
);

adminTicketRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/reply",
    operationId: "adminReplyToTicket",
    tags,
    summary: "Reply to a ticket",
    description:
      "Adds a reply, which the user sees in `GET /api/support`; the ticket becomes `answered` (also a closed one), and the first admin to reply is assigned to it. With `send_email` the reply is also emailed to the ticket's address.",
    security: JWT_SECURITY,
    request: { params: IdParam, body: jsonBody(ReplyBody, { body: "Done: your next invoices will carry it.", send_email: true }) },
    responses: { 200: noBody("Reply created"), ...adminErrors("not_found") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    await replyToTicket(c.get("deps"), c.get("user"), { ticketId: id, body: body.body, sendEmail: body.send_email });
    return c.body(null, 200);
  },
);

for (const [verb, status] of [
  ["close", "closed"],
  ["reopen", "open"],
] as const) {
  adminTicketRoutes.openapi(
    createRoute({
      method: "post",
      path: `/{id}/${verb}`,
      operationId: verb === "close" ? "adminCloseTicket" : "adminReopenTicket",
      tags,
      summary: verb === "close" ? "Close a ticket" : "Reopen a ticket",
      description:
        verb === "close"
          ? "Sets the ticket's status to `closed`: it leaves the open-ticket counts. A reply reopens it as `answered`."
          : "Sets the ticket's status back to `open`, e.g. when the user writes again about it.",
      security: JWT_SECURITY,
      request: { params: IdParam },
      responses: { 200: noBody(verb === "close" ? "Closed" : "Reopened"), ...adminErrors("not_found") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      await setTicketStatus(c.get("deps").db, c.get("user"), id, status);
      return c.body(null, 200);
    },
  );
}
