import { and, asc, eq, lt, lte } from "drizzle-orm";
import { monitorRuns, monitors } from "../db/schema/monitors";
import { callerColumns, users } from "../db/schema/users";
import { type MonitorDeps, scheduleOf } from "./monitor-row";
import { nextRunAfter } from "./schedule";
import { settleRuns } from "./settle-runs";
import { pauseMonitor, startRun } from "./start-run";

const iso = (ms: number) => new Date(ms).toISOString();

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
