import { and, asc, desc, eq, lte, ne } from "drizzle-orm";
import { type MonitorRunRow, monitorRuns, monitors } from "../db/schema/monitors";
import { ApiError } from "../lib/errors";
import { nowIso } from "../lib/time";
import { getJob } from "../research/service";
import { enqueueWebhook, eventEnvelope } from "../webhooks/delivery";
import { MONITOR_CHANGED } from "../webhooks/headers";
import { diffSnapshots, type MonitorDiff, type RunSnapshot, snapshotOf } from "./diff";
import type { MonitorDeps } from "./monitor-row";

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
