import { z } from "@hono/zod-openapi";
import { ResearchRequestSchema } from "../research/service";
import { MONITOR_RUN_STATUSES, MONITOR_STATUSES } from "../db/schema/monitors";

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

const Source = z
  .object({
    url: z.string().openapi({ description: "The source's URL (what runs are compared by)." }),
    title: z.string().openapi({ description: "Its title." }),
  })
  .openapi("MonitorSource", { description: "A source of a run, by URL." });

export const MonitorDiffDto = z
  .object({
    previous_run_id: z.string().openapi({ description: "The run this one is compared with: the monitor's latest succeeded run before it." }),
    changed: z.boolean().openapi({ description: "True when anything below changed (then `monitor.changed` is sent)." }),
    sources_added: z.array(Source).openapi({ description: "Sources this run cites that the previous one did not (by URL)." }),
    sources_removed: z.array(Source).openapi({ description: "Sources the previous run cited that this one does not." }),
    answer: z
      .object({
        changed: z.boolean().openapi({ description: "True when the short answer differs (compared trimmed, in lower case)." }),
        previous: z.string().nullable().openapi({ description: "The previous run's short answer (null: it stated none)." }),
        current: z.string().nullable().openapi({ description: "This run's short answer (null: it states none)." }),
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
    id: z.string().openapi({ description: "The monitor's id (a UUID)." }),
    question: z.string().openapi({ description: "The question each run researches." }),
    mode: z.string().openapi({ description: "The mode of each run's research job (it fixes the price)." }),
    include_domains: z.array(z.string()).nullable().openapi({ description: "Each run searches only these domains (null: no restriction)." }),
    exclude_domains: z.array(z.string()).nullable().openapi({ description: "Each run never uses these domains (null: none)." }),
    collections: z.array(z.string()).nullable().openapi({ description: "Each run searches these collections of yours (null: the default search space)." }),
    web: z.boolean().openapi({ description: "With `collections`: whether runs also search the default search space." }),
    schedule: z
      .object({
        every: z.string().nullable().openapi({ description: "`6h`, `2d`: every N hours or days (null when `cron` is set)." }),
        cron: z.string().nullable().openapi({ description: "A five-field cron expression, UTC (null when `every` is set)." }),
      })
      .openapi("MonitorScheduleSet", { description: "The schedule: one of the two is set, the other null." }),
    webhook_url: z.string().nullable().openapi({ description: "Where `monitor.changed` is POSTed (null: no webhook)." }),
    max_credits_per_run: z.int().nullable().openapi({ description: "The most one run may cost (null: the mode's price)." }),
    credits_per_run: z.int().openapi({ description: "What each run reserves (and at most costs): the mode's price, or `max_credits_per_run` in max mode." }),
    status: z.enum(MONITOR_STATUSES).openapi({ description: "`active` (runs on its schedule) or `paused` (see `paused_reason`)." }),
    paused_reason: z.string().nullable().openapi({
      description:
        "Why it is paused: `paused_by_owner`, or what refused its last run and paused it: `insufficient_credits` (the balance did not cover a run; nothing was charged), `email_not_verified`, `account_suspended`, `not_found` (a collection it searches is gone), `invalid_request`. Null while active.",
    }),
    next_run_at: z.string().nullable().openapi({ description: "When the next run is due (UTC; runs start within a minute of it). Null while paused." }),
    last_run_at: z.string().nullable().openapi({ description: "When its last run started (UTC; null: never run)." }),
    created_at: z.string().openapi({ description: "When it was created (UTC)." }),
    updated_at: z.string().openapi({ description: "When it was last changed (UTC)." }),
  })
  .openapi("Monitor", { description: "A question researched again on a schedule." });
export type MonitorDto = z.infer<typeof MonitorDto>;

export const MonitorRunDto = z
  .object({
    id: z.string().openapi({ description: "The run's id (a UUID)." }),
    monitor_id: z.string().openapi({ description: "The monitor it belongs to." }),
    job_id: z.string().openapi({ description: "The research job of this run (`GET /v1/research/{id}` reads it)." }),
    trigger: z.enum(["schedule", "manual"]).openapi({ description: "`schedule`, or `manual` (`POST /v1/monitors/{id}/run`)." }),
    status: z.enum(MONITOR_RUN_STATUSES).openapi({ description: "`running` until its job ends, then the job's status." }),
    credits_charged: z.int().nullable().openapi({ description: "What its job cost (null while running)." }),
    changed: z
      .boolean()
      .nullable()
      .openapi({ description: "Whether anything changed since the previous succeeded run (null: running, failed, or the first run)." }),
    diff: z
      .union([MonitorDiffDto, z.null()])
      .openapi({ description: "What changed (null: running, failed, or the monitor's first succeeded run, which is the baseline)." }),
    created_at: z.string().openapi({ description: "When it started (UTC)." }),
    finished_at: z.string().nullable().openapi({ description: "When its job ended and the run was settled (UTC; null while running)." }),
  })
  .openapi("MonitorRun", { description: "One run of a monitor: a research job and what changed since the run before." });
export type MonitorRunDto = z.infer<typeof MonitorRunDto>;

export const MonitorChangedEventData = z.object({
  monitor_id: z.string().openapi({ description: "The monitor." }),
  run_id: z.string().openapi({ description: "The run that found the change (`GET /v1/monitors/{id}/runs` lists it)." }),
  question: z.string().openapi({ description: "The monitor's question." }),
  diff: MonitorDiffDto,
});
