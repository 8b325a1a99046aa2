import type { Schemas } from "../../api/client";

type MonitorRun = Schemas["MonitorRun"];

/** A run is unsettled while its job runs (`running`); every other status is final. */
export const isUnsettled = (run: MonitorRun) => run.status === "running";

/** The first wait before the runs list is asked again while a run is unsettled. */
export const FOLLOW_FIRST_MS = 2_000;
/** The longest wait between two asks: a run takes minutes (a `pro` run up to six). */
export const FOLLOW_MAX_MS = 30_000;

/**
 * How long to wait before asking again, after `polls` answers in a row showed a run still going
 * (1 after the first): 2 s, 3 s, 4.5 s, … growing by half each time, never above 30 s. A run that
 * settles in seconds is seen at once; one that takes minutes costs a few requests a minute.
 */
export function followDelay(polls: number): number {
  return Math.min(FOLLOW_MAX_MS, Math.round(FOLLOW_FIRST_MS * 1.5 ** Math.max(0, polls - 1)));
}
