import { createRoute } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, jsonResponse } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { adminStats } from "../../../admin/stats";
import { AdminStatsDto, adminErrors } from "./admin-schemas";

export const adminStatsRoutes = createRouter();
adminStatsRoutes.use("*", adminGuard);

adminStatsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags: ["Admin"],
    summary: "Business figures: 30 daily UTC buckets of signups and jobs, top-up revenue, users, tickets, in-flight jobs, outstanding credits",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(AdminStatsDto, "The figures"), ...adminErrors() },
  }),
  async (c) => c.json(await adminStats(c.var.deps.db), 200),
);
