import { z } from "@hono/zod-openapi";
import { JobStatus, ResearchProgressDto, ResearchResultDto, SourceDto } from "./shapes";

/**
 * The events of a job's stream (GET .../research/{id}/events), in zod: the contract the job emits
 * (its `emit` takes only a payload of its event's schema), /openapi.json publishes (JobEvent and one
 * component per event) and the SDK, the dashboard and MCP read. On the wire each is an SSE frame:
 * `id: <id>`, `event: <event>`, `data: <data as JSON>`.
 */

const EventId = z.int().min(1).openapi({
  description: "The frame's `id` line: increasing within the job's stream. Send the last one you received as `Last-Event-ID` to resume after it.",
});

/** One event's schema: its name on the `event` line, and what its `data` line holds. */
function jobEvent<const Name extends string, Data extends z.ZodType>(name: Name, data: Data, component: string, description: string) {
  return z
    .object({
      id: EventId,
      event: z.literal(name).openapi({ description: `The frame's \`event\` line: always \`${name}\`.` }),
      data,
    })
    .openapi(component, { description });
}

const JobStatusEvent = jobEvent(
  "status",
  z.object({ status: JobStatus }).openapi({ description: "The job's new status." }),
  "JobStatusEvent",
  "The job changed status: `pending` when accepted, `running` when it starts, then its terminal status just before its result.",
);

const JobProgressEvent = jobEvent(
  "progress",
  ResearchProgressDto,
  "JobProgressEvent",
  "The job moved on a step (or a wave): its stage, wave, searches, pages and what it has spent so far.",
);

const JobSourceEvent = jobEvent("source", SourceDto, "JobSourceEvent", "A page the job read for the first time, as it is read.");

const JobErrorEvent = jobEvent(
  "error",
  z
    .object({
      code: z.enum(["job_failed"]).openapi({ description: "Always `job_failed`: the job failed (nothing charged)." }),
      message: z.string().openapi({ description: "Why it failed; the same text as the result's `error`." }),
    })
    .openapi({ description: "Why the job failed." }),
  "JobErrorEvent",
  "The job failed; sent just before the result of a failed job (whose `error` says the same).",
);

const JobResultEvent = jobEvent(
  "result",
  ResearchResultDto,
  "JobResultEvent",
  "The job's final ResearchResult (succeeded, failed or cancelled): always the last event; the stream then ends.",
);

export const JobEventDto = z
  .discriminatedUnion("event", [JobStatusEvent, JobProgressEvent, JobSourceEvent, JobErrorEvent, JobResultEvent])
  .openapi("JobEvent", {
    description:
      "One event of a job's stream, as an SSE frame: its `id`, its name on the `event` line and its JSON `data`. Ids increase; `result` is the last. Comment lines (`: ...`) carry no event: they open the stream and keep it alive.",
  });

export type JobEvent = z.infer<typeof JobEventDto>;
export type JobEventName = JobEvent["event"];
/** What the `data` of event `Name` holds. */
export type JobEventData<Name extends JobEventName> = Extract<JobEvent, { event: Name }>["data"];
