import { createRoute, z } from "@hono/zod-openapi";
import { TICKET_CATEGORIES, TICKET_STATUSES } from "../../../db/schema";
import { createRouter, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { adminListTickets, adminTicketDetail, replyToTicket, setTicketStatus } from "../../../admin/tickets";
import { AdminTicketDetail, AdminTicketRow, adminErrors, enumFilter, ReplyBody, withPaging } from "./admin-schemas";

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
    await replyToTicket(c.var.deps, c.var.user, { ticketId: id, body: body.body, sendEmail: body.send_email });
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
      await setTicketStatus(c.var.deps.db, c.var.user, id, status);
      return c.body(null, 200);
    },
  );
}
