import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, jsonResponse, noBody } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
import { adminGuard } from "../../../middleware/admin-guard";
import { listProcessorEvents, replayProcessorEvent } from "../../../admin/processor-events";
import { AdminProcessorEventRow, adminErrors, ProcessorEventIdParam } from "./admin-schemas";

const tags = ["Admin"];
export const adminProcessorEventRoutes = createRouter();
adminProcessorEventRoutes.use("*", adminGuard);


adminProcessorEventRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "Payment processor events received (newest first)",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: { 200: jsonResponse(z.array(AdminProcessorEventRow), "Events"), ...adminErrors() },
  }),
  async (c) => {
    const rows = await listProcessorEvents(c.var.deps, c.req.valid("query"));
    return c.json(
      rows.map((r) => ({ id: r.id, event_type: r.type, received_at: r.receivedAt, has_body: r.body !== null })),
      200,
    );
  },
);

adminProcessorEventRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/replay",
    tags,
    summary: "Apply a stored event again, through the webhook's idempotent handler (never credits twice)",
    security: JWT_SECURITY,
    request: { params: ProcessorEventIdParam },
    responses: { 200: noBody("Event replayed"), ...adminErrors("not_found", "internal") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    await replayProcessorEvent(c.var.deps, c.var.user, id);
    return c.body(null, 200);
  },
);
