import { createRoute, z } from "@hono/zod-openapi";
import { TICKET_CATEGORIES, TICKET_STATUSES } from "../../../db/schema";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../../lib/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { recordAudit } from "../../../services/audit";
import { adminListTickets, adminTicketDetail, replyToTicket, setTicketStatus } from "../../../services/tickets";
import { AdminTicketDetail, AdminTicketRow, adminErrors, enumFilter, ReplyBody, withPaging } from "./schemas";

const tags = ["Admin"];
export const adminTicketRoutes = createRouter();
adminTicketRoutes.use("*", adminGuard);

adminTicketRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "List support tickets (newest first)",
    security: JWT_SECURITY,
    request: { query: withPaging({ status: enumFilter("status", TICKET_STATUSES), category: enumFilter("category", TICKET_CATEGORIES) }) },
    responses: { 200: jsonResponse(z.array(AdminTicketRow), "Tickets"), ...adminErrors() },
  }),
  async (c) => {
    const { status, category, ...page } = c.req.valid("query");
    return c.json(await adminListTickets(c.var.deps.db, { status, category }, page), 200);
  },
);

adminTicketRoutes.openapi(
  createRoute({
    method: "get",
    path: "/{id}",
    tags,
    summary: "One ticket with its replies (oldest first)",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(AdminTicketDetail, "The ticket"), ...adminErrors("not_found") },
  }),
  async (c) => c.json(await adminTicketDetail(c.var.deps.db, c.req.valid("param").id), 200),
);

adminTicketRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/reply",
    tags,
    summary: "Reply to a ticket (status becomes answered); send_email also emails it to the ticket's address",
    security: JWT_SECURITY,
    request: { params: IdParam, body: jsonBody(ReplyBody) },
    responses: { 200: noBody("Reply created"), ...adminErrors("not_found") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const { replyId, ticket } = await replyToTicket(c.var.deps.db, c.var.deps.email, { ticketId: id, adminId: c.var.user.id, body: body.body, sendEmail: body.send_email });
    await recordAudit(c.var.deps.db, {
      adminId: c.var.user.id,
      adminEmail: c.var.user.email,
      action: "ticket.reply",
      targetType: "ticket",
      targetId: id,
      details: { reply_id: replyId, send_email: body.send_email, previous_status: ticket.status },
    });
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
      tags,
      summary: verb === "close" ? "Close a ticket" : "Reopen a ticket (status open)",
      security: JWT_SECURITY,
      request: { params: IdParam },
      responses: { 200: noBody(verb === "close" ? "Closed" : "Reopened"), ...adminErrors("not_found") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const previous = await setTicketStatus(c.var.deps.db, id, status);
      if (previous !== status) {
        await recordAudit(c.var.deps.db, {
          adminId: c.var.user.id,
          adminEmail: c.var.user.email,
          action: `ticket.${verb}`,
          targetType: "ticket",
          targetId: id,
          details: { previous_status: previous },
        });
      }
      return c.body(null, 200);
    },
  );
}
