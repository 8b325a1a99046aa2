import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../../context";
import { ApiError } from "../../../lib/errors";
import { createRouter, JWT_SECURITY, jsonResponse, noBody } from "../../../lib/openapi";
import { PagingQuery } from "../../../lib/paging";
import { adminGuard } from "../../../middleware/admin-guard";
import { recordAudit } from "../../../services/audit";
import { applyStoredEvent, listProcessorEvents } from "../../../services/billing/events";
import { AdminProcessorEventRow, adminErrors, ProcessorEventIdParam } from "./schemas";

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
    const outcome = await applyStoredEvent(c.var.deps, id);
    await recordAudit(c.var.deps.db, {
      adminId: c.var.user.id,
      adminEmail: c.var.user.email,
      action: "processor_event.replay",
      targetType: "processor_event",
      targetId: id,
      details: { outcome: outcome.status, note: outcome.note ?? null },
    });
    // As on the webhook: the failure is stored on the event; the operator sees it here too.
    if (outcome.status === "failed") throw new ApiError("internal", `The event could not be applied: ${outcome.note}`);
    return c.body(null, 200);
  },
);
