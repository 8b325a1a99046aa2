import { SECOND } from "../../lib/time";

/** After the hard deadline, how long a run may still take to wind down before it is failed. */
export const DEADLINE_GRACE_MS = 15 * SECOND;
/**
 * While a run is in progress its alarm stays armed this soon. The runtime never starts an alarm
 * while another alarm() of the object is running, so the alarm fires only once the run's own
 * alarm() is over: when the run ended in this instance (then it is deleted, see alarm()), or when
 * the runtime died mid-run, and then it fires at the restart and resumes the job from storage.
 * Not 0: a run that crashes its runtime again is restarted at most every few seconds.
 */
export const RESUME_AFTER_MS = 2 * SECOND;
/** Retry delay of settlement when D1 was unreachable. */
export const SETTLE_RETRY_MS = 5 * SECOND;
/** Settlement is tried this many times in a row (this far apart, times the attempt) before the alarm takes over. */
export const SETTLE_ATTEMPTS_IN_PLACE = 3;
export const SETTLE_RETRY_IN_PLACE_MS = 200;

/** Why a job that ran out of wall-clock time failed (its message is the result's error). */
export class DeadlineExceeded extends Error {
  constructor() {
    super("The job did not finish before its wall-clock deadline.");
  }
}
