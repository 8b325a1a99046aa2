import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** Why a monitor stopped running on its own (null while active, or paused by its owner). */
export const MONITOR_STATUSES = ["active", "paused"] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/**
 * A question researched again on a schedule (issue 45): every `every_secs` seconds, or at the
 * times of a cron expression. The sweep (src/monitors/sweep.ts) claims a due monitor by
 * moving `next_run_at` past now (a conditional update: one claimer), so runs missed while the
 * service was down run once, not once per missed time.
 */
export const monitors = sqliteTable(
  "monitors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The API key that created it; its runs are logged as that key's jobs (null: made elsewhere, or the key was deleted). */
    apiKeyId: text("api_key_id"),
    question: text("question").notNull(),
    mode: text("mode").notNull(),
    /** The research request each run submits (question, mode, collections, web; JSON). */
    requestJson: text("request_json").notNull(),
    /** Every N seconds (a multiple of an hour), or null when `cron` is set. */
    everySecs: integer("every_secs"),
    cron: text("cron"),
    webhookUrl: text("webhook_url"),
    maxCreditsPerRun: integer("max_credits_per_run"),
    status: text("status", { enum: MONITOR_STATUSES }).notNull(),
    /** Why it is paused: `paused_by_owner`, or the refusal that paused it (`insufficient_credits`, ...). */
    pausedReason: text("paused_reason"),
    /** When the next run is due; null while paused. */
    nextRunAt: text("next_run_at"),
    lastRunAt: text("last_run_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("monitors_user_created_idx").on(t.userId, t.createdAt, t.id), index("monitors_due_idx").on(t.status, t.nextRunAt)],
);

export type MonitorRow = typeof monitors.$inferSelect;

export const MONITOR_RUN_STATUSES = ["running", "succeeded", "failed", "cancelled"] as const;

/**
 * One run of a monitor: a research job, and once it finished what changed since the monitor's
 * previous succeeded run (`diff_json`). `snapshot_json` is what the next run compares with.
 */
export const monitorRuns = sqliteTable(
  "monitor_runs",
  {
    id: text("id").primaryKey(),
    monitorId: text("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    jobId: text("job_id").notNull(),
    /** `schedule` or `manual` (POST /v1/monitors/{id}/run). */
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    status: text("status", { enum: MONITOR_RUN_STATUSES }).notNull(),
    creditsCharged: integer("credits_charged"),
    snapshotJson: text("snapshot_json"),
    /** What changed since the previous succeeded run (null: still running, failed, or the first run). */
    diffJson: text("diff_json"),
    changed: integer("changed", { mode: "boolean" }),
    previousRunId: text("previous_run_id"),
    /** Where its `monitor.changed` event goes (the monitor's webhook_url when the run finished). */
    webhookUrl: text("webhook_url"),
    createdAt: text("created_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("monitor_runs_monitor_created_idx").on(t.monitorId, t.createdAt, t.id),
    uniqueIndex("monitor_runs_job_idx").on(t.jobId),
    index("monitor_runs_status_idx").on(t.status),
  ],
);

export type MonitorRunRow = typeof monitorRuns.$inferSelect;
