import { createRoute, z } from "@hono/zod-openapi";
import { TICKET_CATEGORIES } from "../../db/schema";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { jwtAuth } from "../../middleware/jwt-auth";
import { createTicket, listOwnTickets } from "../../services/tickets";

const tags = ["Support"];
export const supportRoutes = createRouter();
supportRoutes.use("*", jwtAuth);

export const SUBJECT_MAX = 200;
export const BODY_MAX = 10_000;

const TicketBody = z
  .strictObject({
    category: z.enum(TICKET_CATEGORIES, { error: `category must be one of ${TICKET_CATEGORIES.join(", ")}` }),
    subject: z
      .string()
      .trim()
      .min(1, { error: "subject must not be empty" })
      .max(SUBJECT_MAX, { error: `subject must be at most ${SUBJECT_MAX} characters` })
      // It becomes an email subject line.
      .refine((s) => !/[\r\n]/.test(s), { error: "subject must be a single line" }),
    body: z
      .string()
      .trim()
      .min(1, { error: "body must not be empty" })
      .max(BODY_MAX, { error: `body must be at most ${BODY_MAX} characters` }),
  })
  .openapi("TicketBody");

const SupportTicketReply = z.object({ id: z.uuid(), body: z.string(), created_at: z.iso.datetime() }).openapi("SupportTicketReply");
const SupportTicket = z
  .object({
    id: z.uuid(),
    category: z.enum(TICKET_CATEGORIES),
    subject: z.string(),
    body: z.string(),
    status: z.string().openapi({ description: "open, answered (an admin replied) or closed" }),
    created_at: z.iso.datetime(),
    replies: z.array(SupportTicketReply),
  })
  .openapi("SupportTicket");

supportRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Submit a support ticket (a confirmation is emailed to you)",
    security: JWT_SECURITY,
    request: { body: jsonBody(TicketBody) },
    responses: { 200: noBody("Ticket submitted"), ...errorResponses("invalid_request", "unauthorized", "account_suspended") },
  }),
  async (c) => {
    await createTicket(c.var.deps.db, c.var.deps.email, c.var.user, c.req.valid("json"));
    return c.body(null, 200);
  },
);

supportRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "Your own tickets (newest first), each with its replies",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: { 200: jsonResponse(z.array(SupportTicket), "Your tickets"), ...errorResponses("invalid_request", "unauthorized", "account_suspended") },
  }),
  async (c) => c.json(await listOwnTickets(c.var.deps.db, c.var.user.id, c.req.valid("query")), 200),
);
