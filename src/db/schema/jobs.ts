import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * The job statuses, in the order of a job's life, and whether each is terminal (the job changes no
 * more): the one registry of the vocabulary. The column, the published zod enum, the filters and
 * every list below derive from it; here in the ground because the table, the admin surface and
 * the research feature all read it.
 */
const IS_TERMINAL = { pending: false, running: false, succeeded: true, failed: true, cancelled: true } as const;
export type JobStatus = keyof typeof IS_TERMINAL;
export const JOB_STATUSES = Object.keys(IS_TERMINAL) as [JobStatus, ...JobStatus[]];
export const isTerminal = (status: JobStatus): boolean => IS_TERMINAL[status];
/** Not yet terminal: the job's object may still change it. */
export const OPEN_STATUSES: JobStatus[] = JOB_STATUSES.filter((status) => !isTerminal(status));

/**
 * Research jobs as every list sees them. The job's Durable Object owns the live state and writes
 * the final row here once; lists, usage and admin views read only this table.
 */
export const researchJobs = sqliteTable(
  "research_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "api" (/v1, API key) or "playground" (dashboard, JWT). */
    origin: text("origin", { enum: ["api", "playground"] }).notNull(),
    apiKeyId: text("api_key_id"),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    mode: text("mode").notNull(),
    question: text("question").notNull(),
    /** The raw body that was posted. */
    requestJson: text("request_json").notNull(),
    /** The final ResearchResult, once terminal. */
    resultJson: text("result_json"),
    /**
     * With a model: what the write stage kept of the model's claims and answer, and why not the
     * rest (engine/write-report.ts), as JSON. The operator's, never the customer's: the admin
     * job detail shows it, the ResearchResult in result_json does not hold it. Null offline.
     */
    writeReport: text("write_report"),
    creditsReserved: integer("credits_reserved").notNull(),
    creditsCharged: integer("credits_charged").notNull().default(0),
    costUsdMicros: integer("cost_usd_micros").notNull().default(0),
    error: text("error"),
    latencyMs: integer("latency_ms"),
    sourceCount: integer("source_count"),
    waveCount: integer("wave_count"),
    webhookUrl: text("webhook_url"),
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    idempotencyExpiresAt: text("idempotency_expires_at"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    /** Hard wall-clock deadline; the sweep settles jobs still open well past it. */
    deadlineAt: text("deadline_at").notNull(),
    /**
     * Where the job came from (issue 45), set once when its row is written at submit: the job it
     * follows up (the request's `previous_job_id`), the reviewed plan it ran (`plan_id`), the
     * monitor whose run it is. Null otherwise, and on rows written before these existed. No
     * foreign keys: a job's history outlives the plan or monitor it came from.
     */
    previousJobId: text("previous_job_id"),
    planId: text("plan_id"),
    monitorId: text("monitor_id"),
  },
  (t) => [
    // Lists and usage read these without touching the row: the figures sit after result_json
    // (tens of KB on overflow pages), which a row read would have to walk through. The lineage
    // columns too: added by ALTER TABLE, they sit at the row's very end (null costs the index a
    // header byte; docs/decisions.md, "Job lineage in logs and usage").
    index("research_jobs_user_list_idx").on(
      t.userId,
      t.createdAt,
      t.id,
      t.creditsCharged,
      t.costUsdMicros,
      t.latencyMs,
      t.sourceCount,
      t.waveCount,
      t.completedAt,
      t.previousJobId,
      t.planId,
      t.monitorId,
    ),
    index("research_jobs_status_deadline_idx").on(t.status, t.deadlineAt),
    index("research_jobs_list_idx").on(t.createdAt, t.id, t.creditsCharged, t.costUsdMicros, t.latencyMs, t.sourceCount, t.waveCount, t.completedAt),
    uniqueIndex("research_jobs_user_idem_idx").on(t.userId, t.idempotencyKey),
  ],
);

export type ResearchJobRow = typeof researchJobs.$inferSelect;

/**
 * Each account's jobs summed per UTC day of their created_at, what the usage chart reads: one row
 * a day instead of one a job (a busy account has 100k jobs a month). Kept by SQLite triggers on
 * research_jobs (migration 0008), so every write of a job, by any path, moves its day in the
 * same statement.
 */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD (UTC). */
    day: text("day").notNull(),
    jobs: integer("jobs").notNull().default(0),
    credits: integer("credits").notNull().default(0),
    costUsdMicros: integer("cost_usd_micros").notNull().default(0),
    /**
     * Reviewable plans made that day (research_plans) and monitor runs started (monitor_runs),
     * counted by insert triggers on those tables (migration job_lineage): a history, so a plan or monitor
     * deleted later leaves its day's count as it was.
     */
    plans: integer("plans").notNull().default(0),
    monitorRuns: integer("monitor_runs").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Each attempt to deliver a finished job to its webhook_url. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => researchJobs.id, { onDelete: "cascade" }),
    /** Same for every attempt of one delivery (the X-Service-Delivery and webhook-id headers). */
    deliveryId: text("delivery_id").notNull(),
    /** The delivery's event (X-Service-Event): research.completed, research.started, ... */
    event: text("event").notNull().default("research.completed"),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_deliveries_job_idx").on(t.jobId, t.attempt)],
);

export const WEBHOOK_STATES = ["pending", "delivered", "given_up"] as const;

/**
 * Each webhook delivery of a job, one row a delivery (the terminal one, whose id is the job id,
 * and the lifecycle events a request asked for): written before its queue message is sent (the
 * terminal one when the job settles) and moved by every attempt. The queue is the fast path; the cron sweep
 * re-sends a pending delivery whose next attempt is overdue (its queue message was lost), so a
 * delivery survives any restart. `attempts` is the number of attempts started so far.
 */
export const webhookOutbox = sqliteTable(
  "webhook_outbox",
  {
    /** The webhook-id / X-Service-Delivery: the job id for the terminal delivery, `<job id>:<event>[:<n>]` for the others. */
    deliveryId: text("delivery_id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => researchJobs.id, { onDelete: "cascade" }),
    event: text("event").notNull().default("research.completed"),
    /** The body to send; null: the job's final result (read from its row at each attempt). */
    body: text("body"),
    state: text("state", { enum: WEBHOOK_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due (while pending). */
    nextAttemptAt: text("next_attempt_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("webhook_outbox_due_idx").on(t.state, t.nextAttemptAt), index("webhook_outbox_job_idx").on(t.jobId)],
);

/** The account's webhook signing secret (kept readable: the account needs it to verify signatures). */
export const webhookSecrets = sqliteTable("webhook_secrets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: text("created_at").notNull(),
});
