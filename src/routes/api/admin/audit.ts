import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, pageResponse } from "../../../http/openapi";
import { listAudit } from "../../../services/audit";
import { adminErrors, queryString, withPaging } from "./admin-schemas";
import { AdminAuditRow } from "./admin-ops-schemas";
import { adminAuditExample } from "./admin-examples";

export const adminAuditRoutes = createRouter();

adminAuditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListAudit",
    tags: ["Admin"],
    summary: "List the audit trail",
    description:
      "Every change an admin made, newest first: who, what, to what, and the details. Written in the same transaction as the change itself, so nothing changes without its entry. Filter by `action`, `target_type` and `target_id`; page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: {
      query: withPaging({
        action: queryString("action", "Only this action, e.g. `user.credits_adjust` (exact match).", 100),
        target_type: queryString("target_type", "Only changes to this kind of thing: `user`, `job`, `ticket`, `processor_event` or `corpus`.", 50),
        target_id: queryString("target_id", "Only changes to this thing (its id, or a domain for the corpus).", 255),
      }),
    },
    responses: { 200: pageResponse(z.array(AdminAuditRow), "Audit entries, newest first", adminAuditExample), ...adminErrors() },
  }),
  async (c) => {
    const { action, target_type, target_id, ...page } = c.req.valid("query");
    return c.json(pageWithLink(c, await listAudit(c.get("deps").db, { action, targetType: target_type, targetId: target_id }, peek(page)), page), 200);
  },
);
