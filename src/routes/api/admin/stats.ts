import { createRoute } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, jsonResponse } from "../../../http/openapi";
import { adminStats } from "../../../admin/stats";
import { adminErrors } from "./admin-schemas";
import { AdminStatsDto } from "./admin-ops-schemas";
import { adminStatsExample } from "./admin-examples";

export const adminStatsRoutes = createRouter();

adminStatsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminGetStats",
    tags: ["Admin"],
    summary: "Get the business figures",
    description:
      "The operator's dashboard figures, all computed now: sign-ups and jobs per UTC day for the last 30 days (zero-filled; the example shows two of the 30), top-up revenue, user and ticket counts, jobs in flight and the credits users hold.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(AdminStatsDto, "The figures", adminStatsExample), ...adminErrors() },
  }),
  async (c) => c.json(await adminStats(c.get("deps").db), 200),
);
