import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, jsonResponse } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { listAudit } from "../../../services/audit";
import { AdminAuditRow, adminErrors, queryString, withPaging } from "./admin-schemas";

export const adminAuditRoutes = createRouter();
adminAuditRoutes.use("*", adminGuard);

adminAuditRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags: ["Admin"],
    summary: "The audit trail of admin mutations (newest first)",
    security: JWT_SECURITY,
    request: {
      query: withPaging({ action: queryString("action", 100), target_type: queryString("target_type", 50), target_id: queryString("target_id", 255) }),
    },
    responses: { 200: jsonResponse(z.array(AdminAuditRow), "Audit entries"), ...adminErrors() },
  }),
  async (c) => {
    const { action, target_type, target_id, ...page } = c.req.valid("query");
    return c.json(await listAudit(c.var.deps.db, { action, targetType: target_type, targetId: target_id }, page), 200);
  },
);
