import { and, asc, desc, eq, lt, lte, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import { type MonitorRow, type MonitorRunRow, monitorRuns, monitors } from "../db/schema/monitors";
import { callerColumns, type Caller, users } from "../db/schema/users";
import { ApiError } from "../lib/errors";
import type { Paging } from "../lib/paging";
import { nowIso } from "../lib/time";
import { getJob, quote, type ResearchRequest, ResearchRequestSchema, reservationCredits, submit } from "../research/service";
import { eventEnvelope, enqueueWebhook } from "../webhooks/delivery";
import { webhookDestinationRefusal } from "../webhooks/destination";
import { MONITOR_CHANGED } from "../webhooks/headers";
import type { Deps } from "../services/deps";
import { diffSnapshots, type MonitorDiff, type RunSnapshot, snapshotOf } from "./diff";
import { formatEvery, nextRunAfter, parseSchedule, type Schedule } from "./schedule";
import type { MonitorCreate, MonitorDto, MonitorRunDto, MonitorUpdate } from "./shapes";

type MonitorDeps = Pick<Deps, "db" | "config" | "env" | "defer">;

/** What a monitor's runs search besides the question and mode (kept in request_json). */
interface StoredRequest {
  question: string;
  mode: ResearchRequest["mode"];
  include_domains?: string[] | undefined;
  exclude_domains?: string[] | undefined;
  collections?: string[] | undefined;
  web?: boolean | undefined;
}

/** Refusals of a run that pause the monitor (the owner must act before it can run again). */
const PAUSING_CODES = new Set(["insufficient_credits", "email_not_verified", "account_suspended", "not_found", "invalid_request", "impossible_budget"]);
/** Where a run's AsyncAccepted would point; never shown (the run's job id is what the monitor keeps). */
const RUN_RESOURCE_BASE = "https://monitor.internal/v1/research";

const iso = (ms: number) => new Date(ms).toISOString();

function scheduleOf(row: MonitorRow): Schedule {
  return row.everySecs !== null ? { everySecs: row.everySecs, cron: null } : { everySecs: null, cron: row.cron as string };
}

/** The research request one run of this monitor submits: asynchronous, capped by max_credits_per_run. */
function runRequest(stored: StoredRequest, maxCreditsPerRun: number | null): ResearchRequest {
  return ResearchRequestSchema.parse({
    ...stored,
    async: true,
    ...(maxCreditsPerRun !== null ? { max_credits: maxCreditsPerRun } : {}),
  });
}

/**
 * The checks a run's submit makes (400s, a collection's 404), and the per-run cap: a fixed price
 * above max_credits_per_run is 400. Returns the credits each run reserves. Writes nothing.
 */
async function checkRunnable(deps: MonitorDeps, user: Caller, stored: StoredRequest, maxCreditsPerRun: number | null): Promise<number> {
  const priced = await quote(deps, user, runRequest(stored, maxCreditsPerRun));
  if (!priced.metered && maxCreditsPerRun !== null && priced.credits_reserved > maxCreditsPerRun) {
    throw ApiError.invalid(
      `Invalid request: a ${stored.mode} run costs ${priced.credits_reserved} credits, above max_credits_per_run (${maxCreditsPerRun}); raise it or choose a cheaper mode.`,
    );
  }
  return priced.credits_reserved;
}

async function checkWebhook(deps: MonitorDeps, url: string | null | undefined): Promise<void> {
  if (!url) return;
  const refusal = await webhookDestinationRefusal(url, deps.config);
  if (refusal) throw ApiError.invalid(`Invalid request: webhook_url: ${refusal.problem}.`);
}

function storedRequest(row: MonitorRow): StoredRequest {
  return JSON.parse(row.requestJson) as StoredRequest;
}

function monitorDto(row: MonitorRow): MonitorDto {
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
async function ownMonitor(db: Db, userId: string, id: string): Promise<MonitorRow> {
  const row = await db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, id), eq(monitors.userId, userId)))
    .get();
  if (!row) throw ApiError.notFound("Monitor");
  return row;
}

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

/** POST /v1/monitors/{id}/run: a run now, charged as one job (402 and the monitor paused when the balance does not cover it). */
export async function runMonitorNow(deps: MonitorDeps, user: Caller, id: string): Promise<MonitorRunDto> {
  const monitor = await ownMonitor(deps.db, user.id, id);
  const outcome = await startRun(deps, monitor, user, "manual");
  if ("refused" in outcome) throw outcome.refused;
  await deps.db.update(monitors).set({ lastRunAt: outcome.run.createdAt, updatedAt: nowIso() }).where(eq(monitors.id, monitor.id));
  return runDto(outcome.run);
}

/**
 * Submits one run's research job through the submit path the API uses (its reservation: nothing
 * runs, nothing is charged when the balance does not cover it). A refusal the owner must act on
 * (credits, a collection gone, ...) pauses the monitor with that reason.
 */
async function startRun(
  deps: MonitorDeps,
  monitor: MonitorRow,
  user: Caller,
  trigger: "schedule" | "manual",
): Promise<{ run: MonitorRunRow } | { refused: ApiError }> {
  let jobId: string;
  try {
    const request = runRequest(storedRequest(monitor), monitor.maxCreditsPerRun);
    const answer = await submit(deps, { user, origin: "api", apiKeyId: monitor.apiKeyId, monitorId: monitor.id }, request, {
      idempotencyKey: undefined,
      resourceBase: RUN_RESOURCE_BASE,
    });
    jobId = answer.body.id;
  } catch (error) {
    if (error instanceof ApiError && PAUSING_CODES.has(error.code)) {
      await pauseMonitor(deps.db, monitor.id, error.code);
      return { refused: error };
    }
    throw error;
  }
  const run: MonitorRunRow = {
    id: crypto.randomUUID(),
    monitorId: monitor.id,
    userId: monitor.userId,
    jobId,
    trigger,
    status: "running",
    creditsCharged: null,
    snapshotJson: null,
    diffJson: null,
    changed: null,
    previousRunId: null,
    webhookUrl: null,
    createdAt: nowIso(),
    finishedAt: null,
  };
  await deps.db.insert(monitorRuns).values(run);
  return { run };
}

async function pauseMonitor(db: Db, id: string, reason: string): Promise<void> {
  await db.update(monitors).set({ status: "paused", pausedReason: reason, nextRunAt: null, updatedAt: nowIso() }).where(eq(monitors.id, id));
}

/**
 * Settles the runs whose job has ended (one monitor's, or any, oldest first): the run takes its
 * job's status and charge and, when it succeeded, its snapshot and what changed since the
 * monitor's latest succeeded run before it. A run is settled once (a conditional update), so
 * `monitor.changed` is enqueued once, and only when something changed.
 */
export async function settleRuns(deps: MonitorDeps, monitorId?: string, limit = 50): Promise<number> {
  const open = await deps.db
    .select()
    .from(monitorRuns)
    .where(monitorId ? and(eq(monitorRuns.monitorId, monitorId), eq(monitorRuns.status, "running")) : eq(monitorRuns.status, "running"))
    .orderBy(asc(monitorRuns.createdAt))
    .limit(limit);
  let settled = 0;
  for (const run of open) {
    const result = await getJob(deps, run.userId, run.jobId).catch((error) => {
      // The job is gone (its account deleted): the run can never finish.
      if (error instanceof ApiError && error.code === "not_found") return null;
      throw error;
    });
    if (result && !["succeeded", "failed", "cancelled"].includes(result.status)) continue;
    const status = (result?.status ?? "failed") as MonitorRunRow["status"];
    let snapshot: RunSnapshot | null = null;
    let diff: MonitorDiff | null = null;
    let previousRunId: string | null = null;
    if (result && status === "succeeded") {
      snapshot = snapshotOf(result);
      const previous = await deps.db
        .select({ id: monitorRuns.id, snapshotJson: monitorRuns.snapshotJson })
        .from(monitorRuns)
        .where(
          and(
            eq(monitorRuns.monitorId, run.monitorId),
            eq(monitorRuns.status, "succeeded"),
            ne(monitorRuns.id, run.id),
            lte(monitorRuns.createdAt, run.createdAt),
          ),
        )
        .orderBy(desc(monitorRuns.createdAt), desc(monitorRuns.id))
        .get();
      if (previous?.snapshotJson) {
        previousRunId = previous.id;
        diff = diffSnapshots(previous.id, JSON.parse(previous.snapshotJson) as RunSnapshot, snapshot);
      }
    }
    const monitor = await deps.db
      .select({ webhookUrl: monitors.webhookUrl, question: monitors.question })
      .from(monitors)
      .where(eq(monitors.id, run.monitorId))
      .get();
    const notify = Boolean(diff?.changed && monitor?.webhookUrl);
    const finishedAt = nowIso();
    const won = await deps.db
      .update(monitorRuns)
      .set({
        status,
        creditsCharged: result?.credits_charged ?? 0,
        snapshotJson: snapshot ? JSON.stringify(snapshot) : null,
        diffJson: diff ? JSON.stringify(diff) : null,
        changed: diff ? diff.changed : null,
        previousRunId,
        webhookUrl: notify ? (monitor?.webhookUrl ?? null) : null,
        finishedAt,
      })
      .where(and(eq(monitorRuns.id, run.id), eq(monitorRuns.status, "running")))
      .returning({ id: monitorRuns.id });
    if (won.length === 0) continue;
    settled++;
    if (notify && diff && monitor) {
      const body = eventEnvelope(MONITOR_CHANGED, run.jobId, { monitor_id: run.monitorId, run_id: run.id, question: monitor.question, diff });
      await enqueueWebhook(deps.env, { jobId: run.jobId, deliveryId: `${run.jobId}:${MONITOR_CHANGED}`, event: MONITOR_CHANGED, body });
    }
  }
  return settled;
}

/**
 * The cron sweep's part for monitors: settle finished runs, then start every active monitor that
 * is due. A due monitor is claimed by moving its next_run_at from now (a conditional update: of
 * two sweeps one wins), so however many runs an outage missed, one is made. A monitor whose
 * previous run is still going skips this turn.
 */
export async function sweepMonitors(deps: MonitorDeps, now = Date.now(), limit = 25): Promise<{ settled: number; started: number; paused: number }> {
  const settled = await settleRuns(deps);
  const due = await deps.db
    .select()
    .from(monitors)
    .where(and(eq(monitors.status, "active"), lte(monitors.nextRunAt, iso(now))))
    .orderBy(asc(monitors.nextRunAt))
    .limit(limit);
  let started = 0;
  let paused = 0;
  for (const monitor of due) {
    const claimed = await deps.db
      .update(monitors)
      .set({ nextRunAt: iso(nextRunAfter(scheduleOf(monitor), now)), updatedAt: iso(now) })
      .where(and(eq(monitors.id, monitor.id), eq(monitors.status, "active"), eq(monitors.nextRunAt, monitor.nextRunAt as string)))
      .returning({ id: monitors.id });
    if (claimed.length === 0) continue;
    const running = await deps.db
      .select({ id: monitorRuns.id })
      .from(monitorRuns)
      .where(and(eq(monitorRuns.monitorId, monitor.id), eq(monitorRuns.status, "running"), lt(monitorRuns.createdAt, iso(now))))
      .get();
    if (running) continue;
    const user = await deps.db.select(callerColumns).from(users).where(eq(users.id, monitor.userId)).get();
    if (!user) continue;
    if (user.suspendedAt) {
      await pauseMonitor(deps.db, monitor.id, "account_suspended");
      paused++;
      continue;
    }
    try {
      const outcome = await startRun(deps, monitor, user, "schedule");
      if ("refused" in outcome) paused++;
      else {
        started++;
        await deps.db.update(monitors).set({ lastRunAt: outcome.run.createdAt }).where(eq(monitors.id, monitor.id));
      }
    } catch (error) {
      // Not the owner's to fix (a 5xx): the monitor stays active and is due again on its schedule.
      console.error(`monitor ${monitor.id}: run could not start`, error);
    }
  }
  return { settled, started, paused };
}
