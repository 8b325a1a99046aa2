import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type MonitorRow, type MonitorRunRow, monitorRuns, monitors } from "../db/schema/monitors";
import type { Caller } from "../db/schema/users";
import { ApiError } from "../lib/errors";
import { nowIso } from "../lib/time";
import { submit } from "../research/service";
import { type MonitorDeps, storedRequest } from "./monitor-row";
import { runRequest } from "./run-request";

/** Refusals of a run that pause the monitor (the owner must act before it can run again). */
const PAUSING_CODES = new Set(["insufficient_credits", "email_not_verified", "account_suspended", "not_found", "invalid_request", "impossible_budget"]);
/** Where a run's AsyncAccepted would point; never shown (the run's job id is what the monitor keeps). */
const RUN_RESOURCE_BASE = "https://monitor.internal/v1/research";

/**
 * Submits one run's research job through the submit path the API uses (its reservation: nothing
 * runs, nothing is charged when the balance does not cover it). A refusal the owner must act on
 * (credits, a collection gone, ...) pauses the monitor with that reason.
 */
export async function startRun(
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

/** Pauses a monitor with the reason its owner must act on (it is not due until resumed). */
export async function pauseMonitor(db: Db, id: string, reason: string): Promise<void> {
  await db.update(monitors).set({ status: "paused", pausedReason: reason, nextRunAt: null, updatedAt: nowIso() }).where(eq(monitors.id, id));
}
