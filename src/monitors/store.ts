import { and, desc, eq } from "drizzle-orm";
import { type MonitorRow, monitorRuns, monitors } from "../db/schema/monitors";
import type { Caller } from "../db/schema/users";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";
import { type MonitorDeps, monitorDto, ownMonitor, runDto, scheduleOf, type StoredRequest, storedRequest } from "./monitor-row";
import { checkRunnable, checkWebhook } from "./run-request";
import { nextRunAfter, parseSchedule, type Schedule } from "./schedule";
import type { MonitorCreate, MonitorDto, MonitorRunDto, MonitorUpdate } from "./shapes";
import { settleRuns } from "./settle-runs";
import { startRun } from "./start-run";

// The /v1/monitors operations on a caller's own monitors (a run's start and settlement:
// start-run.ts, settle-runs.ts; the cron's part: sweep.ts).

const iso = (ms: number) => new Date(ms).toISOString();

/** POST /v1/monitors: checked like a submit of its runs, then written; its first run is due at once (the baseline). */
export async function createMonitor(deps: MonitorDeps, user: Caller, apiKeyId: string | null, body: MonitorCreate): Promise<MonitorDto> {
  const schedule = parseSchedule(body.schedule);
  const stored: StoredRequest = {
    question: body.question,
    mode: body.mode,
    include_domains: body.include_domains,
    exclude_domains: body.exclude_domains,
    collections: body.collections,
    web: body.web,
  };
  const maxCredits = body.max_credits_per_run ?? null;
  await checkRunnable(deps, user, stored, maxCredits);
  await checkWebhook(deps, body.webhook_url);
  const now = nowIso();
  const row: MonitorRow = {
    id: crypto.randomUUID(),
    userId: user.id,
    apiKeyId,
    question: body.question,
    mode: body.mode,
    requestJson: JSON.stringify(stored),
    everySecs: schedule.everySecs,
    cron: schedule.cron,
    webhookUrl: body.webhook_url ?? null,
    maxCreditsPerRun: maxCredits,
    status: "active",
    pausedReason: null,
    nextRunAt: now,
    lastRunAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(monitors).values(row);
  return monitorDto(row);
}

export async function getMonitor(deps: MonitorDeps, userId: string, id: string): Promise<MonitorDto> {
  return monitorDto(await ownMonitor(deps.db, userId, id));
}

/** GET /v1/monitors: newest first, paged (the route asks for one more row than the page). */
export async function listMonitors(deps: MonitorDeps, userId: string, page: Paging): Promise<MonitorDto[]> {
  const rows = await deps.db
    .select()
    .from(monitors)
    .where(eq(monitors.userId, userId))
    .orderBy(desc(monitors.createdAt), desc(monitors.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(monitorDto);
}

/** When a monitor that runs again (resumed, or rescheduled) is next due: the schedule from its last run, or now if that time has passed (missed runs are made once). */
function nextDue(schedule: Schedule, lastRunAt: string | null, now: number): string {
  if (!lastRunAt) return iso(now);
  return iso(Math.max(now, nextRunAfter(schedule, Date.parse(lastRunAt))));
}

/** PATCH /v1/monitors/{id}: pause, resume, reschedule, webhook_url, max_credits_per_run. Checked whole before anything is written. */
export async function updateMonitor(deps: MonitorDeps, user: Caller, id: string, body: MonitorUpdate): Promise<MonitorDto> {
  if (Object.values(body).every((value) => value === undefined)) {
    throw ApiError.invalid("Invalid request: give at least one of status, schedule, webhook_url or max_credits_per_run.");
  }
  const row = await ownMonitor(deps.db, user.id, id);
  const schedule = body.schedule ? parseSchedule(body.schedule) : scheduleOf(row);
  const maxCredits = body.max_credits_per_run === undefined ? row.maxCreditsPerRun : body.max_credits_per_run;
  if (body.max_credits_per_run !== undefined) await checkRunnable(deps, user, storedRequest(row), maxCredits);
  if (body.webhook_url !== undefined) await checkWebhook(deps, body.webhook_url);
  const status = body.status ?? row.status;
  const resumed = status === "active" && row.status === "paused";
  const now = Date.now();
  const changes: Partial<MonitorRow> = {
    everySecs: schedule.everySecs,
    cron: schedule.cron,
    maxCreditsPerRun: maxCredits,
    webhookUrl: body.webhook_url === undefined ? row.webhookUrl : body.webhook_url,
    status,
    pausedReason: status === "paused" ? (body.status === "paused" ? "paused_by_owner" : row.pausedReason) : null,
    nextRunAt: status === "paused" ? null : resumed || body.schedule ? nextDue(schedule, row.lastRunAt, now) : row.nextRunAt,
    updatedAt: iso(now),
  };
  await deps.db
    .update(monitors)
    .set(changes)
    .where(and(eq(monitors.id, row.id), eq(monitors.userId, user.id)));
  return monitorDto({ ...row, ...changes });
}

/** DELETE /v1/monitors/{id}: the monitor and its runs' records go; a run still going finishes as the research job it is. */
export async function deleteMonitor(deps: MonitorDeps, userId: string, id: string): Promise<void> {
  const row = await ownMonitor(deps.db, userId, id);
  await deps.db.delete(monitors).where(and(eq(monitors.id, row.id), eq(monitors.userId, userId)));
}

/** GET /v1/monitors/{id}/runs: newest first, each finished run with its diff (runs whose job has ended are settled first). */
export async function listRuns(deps: MonitorDeps, userId: string, id: string, page: Paging): Promise<MonitorRunDto[]> {
  const monitor = await ownMonitor(deps.db, userId, id);
  await settleRuns(deps, monitor.id);
  const rows = await deps.db
    .select()
    .from(monitorRuns)
    .where(and(eq(monitorRuns.monitorId, monitor.id), eq(monitorRuns.userId, userId)))
    .orderBy(desc(monitorRuns.createdAt), desc(monitorRuns.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(runDto);
}

/**
 * POST /v1/monitors/{id}/run: a run now, charged as one job (402 and the monitor paused when the
 * balance does not cover it). Made while the monitor is due (a new monitor's first run), it is
 * that run: its next time moves on as the sweep's claim would move it (a conditional update, so a
 * sweep that claimed it first keeps its claim), and the sweep does not start a second, charged
 * run right after it.
 */
export async function runMonitorNow(deps: MonitorDeps, user: Caller, id: string): Promise<MonitorRunDto> {
  const monitor = await ownMonitor(deps.db, user.id, id);
  const outcome = await startRun(deps, monitor, user, "manual");
  if ("refused" in outcome) throw outcome.refused;
  const now = Date.now();
  await deps.db.update(monitors).set({ lastRunAt: outcome.run.createdAt, updatedAt: nowIso() }).where(eq(monitors.id, monitor.id));
  const due = monitor.status === "active" && monitor.nextRunAt !== null && Date.parse(monitor.nextRunAt) <= now;
  if (due) {
    await deps.db
      .update(monitors)
      .set({ nextRunAt: new Date(nextRunAfter(scheduleOf(monitor), now)).toISOString() })
      .where(and(eq(monitors.id, monitor.id), eq(monitors.status, "active"), eq(monitors.nextRunAt, monitor.nextRunAt as string)));
  }
  return runDto(outcome.run);
}
