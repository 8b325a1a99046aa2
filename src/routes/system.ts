import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { ApiError } from "../lib/errors";
import { createRouter, errorResponses, jsonResponse, NO_SECURITY } from "../http/openapi";
import { docsHtml } from "./docs-page";

export const systemRoutes = createRouter();

systemRoutes.openapi(
  createRoute({
    method: "get",
    path: "/healthz",
    operationId: "getHealth",
    tags: ["System"],
    security: NO_SECURITY,
    summary: "Check the service's health",
    description:
      "For load balancers and uptime checks: 200 when the service is up and reaches its database, 503 `service_unavailable` when it does not. No credentials.",
    responses: {
      200: jsonResponse(
        z.object({ ok: z.literal(true).openapi({ description: "Always true." }) }).openapi("Health", { description: "The service is up." }),
        "Healthy",
        { ok: true },
      ),
      ...errorResponses("service_unavailable"),
    },
  }),
  async (c) => {
    try {
      await c.get("deps").db.run(sql`select 1`);
    } catch (error) {
      console.error("healthz: database unreachable", error);
      throw new ApiError("service_unavailable", "The database is unreachable.");
    }
    return c.json({ ok: true as const }, 200);
  },
);

systemRoutes.get("/docs", (c) => c.html(docsHtml("public")));
systemRoutes.get("/docs/dashboard", (c) => c.html(docsHtml("dashboard")));
