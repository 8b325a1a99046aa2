import { peek, pageWithLink } from "../../../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, JWT_SECURITY, noBody, pageResponse } from "../../../http/openapi";
import { PagingQuery } from "../../../lib/paging";
import { listProcessorEvents, replayProcessorEvent } from "../../../admin/processor-events";
import type { StoredEventStatus } from "../../../services/billing/events";
import { adminErrors, ProcessorEventIdParam } from "./admin-schemas";
import { AdminProcessorEventRow } from "./admin-ops-schemas";
import { adminProcessorEventsExample } from "./admin-examples";

const tags = ["Admin"];
export const adminProcessorEventRoutes = createRouter();

adminProcessorEventRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "adminListProcessorEvents",
    tags,
    summary: "List payment processor events",
    description:
      "The payment processor's webhook events as they were received and stored, newest first, with what applying each did (an event of another Stripe API version is `unsupported`); page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: { 200: pageResponse(z.array(AdminProcessorEventRow), "Events, newest first", adminProcessorEventsExample), ...adminErrors() },
  }),
  async (c) => {
    const page = c.req.valid("query");
    const rows = pageWithLink(c, await listProcessorEvents(c.get("deps"), peek(page)), page);
    return c.json(
      rows.map((r) => ({
        id: r.id,
        event_type: r.type,
        received_at: r.receivedAt,
        has_body: r.body !== null,
        status: r.status as StoredEventStatus | "received",
        error: r.error,
        attempts: r.attempts,
      })),
      200,
    );
  },
);

adminProcessorEventRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/replay",
    operationId: "adminReplayProcessorEvent",
    tags,
    summary: "Replay a payment processor event",
    description:
      "Applies a stored event again, e.g. after fixing what made it fail. It goes through the webhook's own idempotent handler, so a payment is never credited twice. An unknown event, or one without a stored body, is 404; a handler that fails again is 500 with the reason.",
    security: JWT_SECURITY,
    request: { params: ProcessorEventIdParam },
    responses: { 200: noBody("Event replayed"), ...adminErrors("not_found", "internal") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    await replayProcessorEvent(c.get("deps"), c.get("user"), id);
    return c.body(null, 200);
  },
);
