import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../db/schema/jobs";

/** HTTP-only parts of the research routes; the shapes themselves come from research/shapes.ts. */

export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({ description: "Idempotency-Key: the same key and body within 24 h return the original job." }),
});

export const StatusFilter = z.object({
  status: z.enum(JOB_STATUSES).optional().openapi({ param: { name: "status", in: "query" } }),
});

export const SSE_RESPONSE = {
  description: "Server-Sent Events: status, progress, source, result (last), error; ids increase; Last-Event-ID replays.",
  content: { "text/event-stream": { schema: z.string() } },
};
