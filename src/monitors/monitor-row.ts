import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import type { MonitorRow, MonitorRunRow } from "../db/schema/monitors";
import { monitors } from "../db/schema/monitors";
import { ApiError } from "../lib/errors";
import { type ResearchRequest, ResearchRequestSchema, reservationCredits } from "../research/service";
import type { Deps } from "../services/deps";
import type { MonitorDiff } from "./diff";
import { formatEvery, type Schedule } from "./schedule";
import type { MonitorDto, MonitorRunDto } from "./shapes";

// A monitor's and a run's D1 rows read back: the caller's own row (else 404), the research its
// runs submit (kept as JSON in the row), its schedule, and how each row is shown by the API.

/** What the monitor functions need of the service's dependencies. */
export type MonitorDeps = Pick<Deps, "db" | "config" | "env" | "defer">;

export /** What a monitor's runs search besides the question and mode (kept in request_json). */
interface StoredRequest {
  question: string;
  mode: ResearchRequest["mode"];
  include_domains?: string[] | undefined;
  exclude_domains?: string[] | undefined;
  collections?: string[] | undefined;
  web?: boolean | undefined;
}

export function scheduleOf(row: MonitorRow): Schedule {
  return row.everySecs !== null ? { everySecs: row.everySecs, cron: null } : { everySecs: null, cron: row.cron as string };
}

export function storedRequest(row: MonitorRow): StoredRequest {
  return JSON.parse(row.requestJson) as StoredRequest;
}

export function monitorDto(row: MonitorRow): MonitorDto {
  const stored = storedRequest(row);
  const mode = ResearchRequestSchema.shape.mode.parse(stored.mode);
  return {
    id: row.id,
    question: row.question,
    mode: row.mode,
    include_domains: stored.include_domains ?? null,
    exclude_domains: stored.exclude_domains ?? null,
    collections: stored.collections ?? null,
    web: stored.web ?? false,
    schedule: { every: row.everySecs !== null ? formatEvery(row.everySecs) : null, cron: row.cron },
    webhook_url: row.webhookUrl,
    max_credits_per_run: row.maxCreditsPerRun,
    credits_per_run: reservationCredits(mode, row.maxCreditsPerRun),
    status: row.status,
    paused_reason: row.pausedReason,
    next_run_at: row.nextRunAt,
    last_run_at: row.lastRunAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function runDto(row: MonitorRunRow): MonitorRunDto {
  return {
    id: row.id,
    monitor_id: row.monitorId,
    job_id: row.jobId,
    trigger: row.trigger,
    status: row.status,
    credits_charged: row.creditsCharged,
    changed: row.changed,
    diff: row.diffJson ? (JSON.parse(row.diffJson) as MonitorDiff) : null,
    created_at: row.createdAt,
    finished_at: row.finishedAt,
  };
}

/** The caller's monitor, else 404 (an unknown id and another account's look the same). */
export async function ownMonitor(db: Db, userId: string, id: string): Promise<MonitorRow> {
  const row = await db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, id), eq(monitors.userId, userId)))
    .get();
  if (!row) throw ApiError.notFound("Monitor");
  return row;
}
