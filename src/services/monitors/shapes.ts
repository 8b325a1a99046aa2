import { z } from "@hono/zod-openapi";
import { ResearchRequestSchema } from "../../research/service";
import { MONITOR_RUN_STATUSES, MONITOR_STATUSES } from "../../db/schema/monitors";

/** The request and response shapes of /v1/monitors (issue 45, item 3). */

export const ScheduleSchema = z
  .strictObject({
    every: z.string().max(8).optional().openapi({
      description: 'Run every N hours or days: `"6h"`, `"2d"`; from `1h` to `30d`.',
      example: "6h",
    }),
    cron: z.string().max(120).optional().openapi({
      description:
        "Run at the times of a five-field cron expression (minute hour day-of-month month day-of-week, UTC; numbers, `*`, ranges, lists and steps). Its minute must be one number: a monitor runs at most once an hour.",
      example: "0 9 * * 1-5",
    }),
  })
  .openapi("MonitorSchedule", { description: "Exactly one of `every` or `cron`." });

const WebhookUrl = z.string().max(2048).nullable().optional().openapi({
  description:
    "Where to POST `monitor.changed` (signed like every webhook) when a run finds something changed since the previous run. An https URL to a public address, like a research job's `webhook_url`. Null or absent: no webhook.",
  example: "https://example.com/hooks/monitor",
});

const MaxCreditsPerRun = z.int().min(1).max(1_000_000).nullable().optional().openapi({
  description:
    "The most one run may cost. A fixed-price mode whose price is above it is 400; in `max` mode it is each run's `max_credits` (and required). Null or absent: the mode's price.",
  example: 60,
});

export const MonitorCreateSchema = ResearchRequestSchema.pick({
  question: true,
  mode: true,
  include_domains: true,
  exclude_domains: true,
  collections: true,
  web: true,
})
  .extend({ schedule: ScheduleSchema, webhook_url: WebhookUrl, max_credits_per_run: MaxCreditsPerRun })
  .strict()
  .openapi("MonitorCreate", {
    description: "A question to research again on a schedule, and where to say what changed. Unknown fields are rejected (400).",
  });
export type MonitorCreate = z.infer<typeof MonitorCreateSchema>;

export const MonitorUpdateSchema = z
  .strictObject({
    status: z.enum(MONITOR_STATUSES).optional().openapi({
      description:
        "`paused` stops its runs; `active` resumes them (a run missed while paused is made once, at the next sweep, then the schedule goes on from then).",
    }),
    schedule: ScheduleSchema.optional(),
    webhook_url: WebhookUrl,
    max_credits_per_run: MaxCreditsPerRun,
  })
  .openapi("MonitorUpdate", { description: "What to change; at least one field. Unknown fields are rejected (400)." });
export type MonitorUpdate = z.infer<typeof MonitorUpdateSchema>;

const Source = z.object({ url: z.string(), title: z.string() }).openapi("MonitorSource", { description: "A source of a run, by URL." });

export const MonitorDiffDto = z
  .object({
    previous_run_id: z.string().openapi({ description: "The run this one is compared with: the monitor's latest succeeded run before it." }),
    changed: z.boolean().openapi({ description: "True when anything below changed (then `monitor.changed` is sent)." }),
    sources_added: z.array(Source).openapi({ description: "Sources this run cites that the previous one did not (by URL)." }),
    sources_removed: z.array(Source).openapi({ description: "Sources the previous run cited that this one does not." }),
    answer: z
      .object({
        changed: z.boolean(),
        previous: z.string().nullable(),
        current: z.string().nullable(),
      })
      .openapi({ description: "The short answer before and now (`answer.text` of each result; null when a run stated none), and whether it changed." }),
    claims_added: z.array(z.string()).openapi({
      description: "Cited sentences of this run's brief that the previous brief did not state (compared in lower case, citations and end punctuation removed).",
    }),
    claims_withdrawn: z.array(z.string()).openapi({ description: "Cited sentences of the previous brief this run's brief no longer states." }),
  })
  .openapi("MonitorDiff", { description: "What changed between two succeeded runs of a monitor." });

export const MonitorDto = z
  .object({
    id: z.string(),
    question: z.string(),
    mode: z.string(),
    include_domains: z.array(z.string()).nullable(),
    exclude_domains: z.array(z.string()).nullable(),
    collections: z.array(z.string()).nullable(),
    web: z.boolean(),
    schedule: z.object({ every: z.string().nullable(), cron: z.string().nullable() }).openapi({ description: "The schedule: one of the two is set." }),
    webhook_url: z.string().nullable(),
    max_credits_per_run: z.int().nullable(),
    credits_per_run: z.int().openapi({ description: "What each run reserves (and at most costs): the mode's price, or `max_credits_per_run` in max mode." }),
    status: z.enum(MONITOR_STATUSES),
    paused_reason: z.string().nullable().openapi({
      description:
        "Why it is paused: `paused_by_owner`, or what refused its last run and paused it: `insufficient_credits` (the balance did not cover a run; nothing was charged), `email_not_verified`, `account_suspended`, `not_found` (a collection it searches is gone), `invalid_request`. Null while active.",
    }),
    next_run_at: z.string().nullable().openapi({ description: "When the next run is due (UTC; runs start within a minute of it). Null while paused." }),
    last_run_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Monitor", { description: "A question researched again on a schedule." });
export type MonitorDto = z.infer<typeof MonitorDto>;

export const MonitorRunDto = z
  .object({
    id: z.string(),
    monitor_id: z.string(),
    job_id: z.string().openapi({ description: "The research job of this run (`GET /v1/research/{id}` reads it)." }),
    trigger: z.enum(["schedule", "manual"]),
    status: z.enum(MONITOR_RUN_STATUSES).openapi({ description: "`running` until its job ends, then the job's status." }),
    credits_charged: z.int().nullable().openapi({ description: "What its job cost (null while running)." }),
    changed: z
      .boolean()
      .nullable()
      .openapi({ description: "Whether anything changed since the previous succeeded run (null: running, failed, or the first run)." }),
    diff: z
      .union([MonitorDiffDto, z.null()])
      .openapi({ description: "What changed (null: running, failed, or the monitor's first succeeded run, which is the baseline)." }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi("MonitorRun", { description: "One run of a monitor: a research job and what changed since the run before." });
export type MonitorRunDto = z.infer<typeof MonitorRunDto>;

export const MonitorChangedEventData = z.object({
  monitor_id: z.string(),
  run_id: z.string(),
  question: z.string(),
  diff: MonitorDiffDto,
});
