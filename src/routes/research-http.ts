import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../db/schema/jobs";

/** HTTP-only parts of the research routes; the shapes themselves come from research/shapes.ts. */

export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({
    description:
      "Makes a retry safe: 1 to 255 printable ASCII characters, kept 24 hours per account. The same key with the same body returns the original job (same id, charged once); with another body it is 422 `idempotency_key_reused`; while a synchronous original is still starting, 409 `idempotency_conflict`. Use a new key for every distinct request (a UUID, or your own order id).",
  }),
});

export const StatusFilter = z.object({
  status: z
    .enum(JOB_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" }, description: "Only jobs in this status (`pending`, `running`, `succeeded`, `failed` or `cancelled`). Absent: every status." }),
});

export const LastEventIdHeader = z.object({
  "last-event-id": z.string().optional().openapi({
    description: "Resume a stream: the id of the last event received. The events after it are replayed first. Absent: every event from the start.",
    example: "3",
  }),
});

/** What a job's event stream looks like, from the first frame to the result. */
const SSE_EXAMPLE = [
  ": stream open",
  "",
  ": emitted_at=1795456789605",
  "id: 1",
  "event: status",
  'data: {"status":"pending"}',
  "",
  "id: 2",
  "event: status",
  'data: {"status":"running"}',
  "",
  "id: 3",
  "event: progress",
  'data: {"stage":"searching","wave":1,"searches":4,"pages":0,"cost_usd":0.02}',
  "",
  "id: 4",
  "event: source",
  'data: {"url":"corpus://sotu.corpus/1908-theodore-roosevelt","title":"Theodore Roosevelt: State of the Union address, 1908","domain":"sotu.corpus"}',
  "",
  "id: 9",
  "event: status",
  'data: {"status":"succeeded"}',
  "",
  "id: 10",
  "event: result",
  'data: {"id":"f6ba9db4-5f45-477e-ab6c-85b5085af8b7","status":"succeeded","question":"How did presidents describe the railroads?","brief":"...","answer":{"text":"...","confidence":"medium","citations":[0]},"typed":null,"sources":[{"url":"corpus://sotu.corpus/1908-theodore-roosevelt","title":"Theodore Roosevelt: State of the Union address, 1908","domain":"sotu.corpus"}],"citations":[],"credits_charged":60,"cost_usd":0.087,"created_at":"2026-11-23T17:59:49.605Z","completed_at":"2026-11-23T17:59:50.994Z","error":null,"latency_ms":1332,"wave_count":2}',
  "",
  "",
].join("\n");

export const SSE_RESPONSE = {
  description:
    "Server-Sent Events. Events: `status` ({status}), `progress` ({stage, wave, searches, pages, cost_usd}; `stage` is `planning`, `searching`, `reading`, `analyzing`, `reflecting` (with a hosted model: deciding what to search and read next), `synthesizing`, `critic`, `typed_output` or `done`, and `cost_usd` is what the job has spent so far), `source` (a SourceDto, each page as it is read), `error` ({code: \"job_failed\", message}, before the result of a failed job) and `result` (the final ResearchResult, always last; the stream then ends). Ids increase; reconnect with `Last-Event-ID` to get what came after. A comment line keeps the connection alive every 15 s.",
  content: { "text/event-stream": { schema: z.string().openapi({ description: "A stream of SSE frames (`id`, `event`, `data` lines; `data` is JSON)." }), example: SSE_EXAMPLE } },
};
