import { z } from "@hono/zod-openapi";
import { JOB_STATUSES } from "../db/schema/jobs";
import { JobEventDto } from "../research/service";
import { jobErrorEventExample, jobEventsExample } from "./research-examples";

/** HTTP-only parts of the research routes; the shapes themselves come from research/shapes.ts and research/event-shapes.ts. */

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
    .openapi({
      param: { name: "status", in: "query" },
      description: "Only jobs in this status (`pending`, `running`, `succeeded`, `failed` or `cancelled`). Absent: every status.",
    }),
});

export const LastEventIdHeader = z.object({
  "last-event-id": z.string().optional().openapi({
    description: "Resume a stream: the id of the last event received. The events after it are replayed first. Absent: every event from the start.",
    example: "3",
  }),
});

/** The example events as the wire carries them: a comment opens the stream, each event is one frame. */
const SSE_TRANSCRIPT = [
  ": stream open",
  "",
  ...jobEventsExample.flatMap(({ id, event, data }, index) => [
    // Every frame starts with its emission time; shown once.
    ...(index === 0 ? [": emitted_at=1795456789605"] : []),
    `id: ${id}`,
    `event: ${event}`,
    `data: ${JSON.stringify(data)}`,
    "",
  ]),
].join("\n");

/** Each example event as a named example of the JobEvent schema. */
const EVENT_EXAMPLES = Object.fromEntries(
  [...jobEventsExample, jobErrorEventExample].map((example) => [`${example.event}-${example.id}`, { summary: `A \`${example.event}\` event`, value: example }]),
);

export const SSE_RESPONSE = {
  description:
    'Server-Sent Events, one `JobEvent` per frame (`id`, `event` and `data` lines; `data` is JSON): `status` (the job\'s new status), `progress` (stage, wave, searches, pages and `cost_usd` spent so far), `source` (a SourceDto, each page as it is read), `error` (`{code: "job_failed", message}`, before the result of a failed job) and `result` (the final ResearchResult, always last; the stream then ends). Ids increase; reconnect with `Last-Event-ID` to get what came after. A comment line keeps the connection alive every 15 s. On the wire:\n\n```text\n' +
    SSE_TRANSCRIPT +
    "```",
  content: { "text/event-stream": { schema: JobEventDto, examples: EVENT_EXAMPLES } },
};
