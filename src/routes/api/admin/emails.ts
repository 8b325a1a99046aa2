import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, jsonResponse } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { listOutbox } from "../../../admin/emails";
import { AdminEmailRow, adminErrors, queryString, withPaging } from "./admin-schemas";

export const adminEmailRoutes = createRouter();
adminEmailRoutes.use("*", adminGuard);

adminEmailRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags: ["Admin"],
    summary: "The outbox: every email the service sent (newest first); `to` filters by recipient",
    security: JWT_SECURITY,
    request: { query: withPaging({ to: queryString("to") }) },
    responses: { 200: jsonResponse(z.array(AdminEmailRow), "Emails"), ...adminErrors() },
  }),
  async (c) => {
    const { to, ...page } = c.req.valid("query");
    return c.json(await listOutbox(c.var.deps.db, to, page), 200);
  },
);
