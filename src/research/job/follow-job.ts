import type { ResearchJobRow } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { SECOND } from "../../lib/time";
import type { JobEvent } from "../event-shapes";
import type { JobEventBatch } from "./job-events";
import { jobObject } from "./job-object";
import { isTerminal } from "../../db/schema/jobs";
import type { ResearchResult } from "./job-state";
import { resultFromRow } from "./job-store";

/** How long one call to the job's object waits for the next events before it answers none. */
const POLL_WAIT_MS = 10 * SECOND;
/** The pause before asking again when the object did not answer (it restarted) or the row has nothing new. */
const RETRY_PAUSE_MS = 500;

/**
 * The events a job's row tells when its object never received the job (the sweep settles such a
 * job from its row): its status and, once terminal, its result. What the SSE route streams for it too.
 */
export function rowEvents(result: ResearchResult): JobEvent[] {
  const events: JobEvent[] = [{ id: 1, event: "status", data: { status: result.status } }];
  if (isTerminal(result.status)) events.push({ id: 2, event: "result", data: result });
  return events;
}

export interface FollowOptions {
  /** Follow after this event id (the last one seen); default: from the first event. */
  after?: number;
  /**
   * Stops following: the caller left, or its deadline passed (`AbortSignal.timeout`). Following
   * then ends quietly; the events yielded so far stand. The job itself runs on.
   */
  signal: AbortSignal;
}

/** Settles like `promise`, or rejects as soon as `signal` aborts (the promise is then left to itself). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const pause = (ms: number, signal: AbortSignal) => untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms)), signal).catch(() => {});

/**
 * A job's events as typed objects, in order and each once, until its `result` event (the last),
 * the end of its log, or `signal`. They are read from the job's Durable Object over RPC (its event
 * log, no SSE bytes to parse), a long poll at a time; a call that fails (the object restarted
 * mid-job) is made again after the last event yielded. `readRow` reads the job's row, the only
 * source for a job its object never received.
 */
export async function* followJobEvents(
  env: Pick<Env, "RESEARCH_JOB">,
  jobId: string,
  readRow: () => Promise<ResearchJobRow>,
  options: FollowOptions,
): AsyncGenerator<JobEvent, void, undefined> {
  const { signal } = options;
  let last = options.after ?? 0;
  while (!signal.aborted) {
    let batch: JobEventBatch | null;
    try {
      // A fresh stub each call: a stub whose object was reset stays broken.
      batch = await untilAborted(jobObject(env, jobId).eventsAfter(last, POLL_WAIT_MS), signal);
    } catch (error) {
      if (signal.aborted) return;
      console.error(`following job ${jobId}: ${error instanceof Error ? error.message : String(error)}`);
      await pause(RETRY_PAUSE_MS, signal);
      continue;
    }
    let fromRow = false;
    if (!batch) {
      const result = resultFromRow(await readRow());
      batch = { events: rowEvents(result).filter((event) => event.id > last), ended: isTerminal(result.status) };
      fromRow = true;
    }
    for (const event of batch.events) {
      last = event.id;
      yield event;
      if (event.event === "result") return;
    }
    if (batch.ended) return;
    // A row still open changes only when the sweep settles it: ask again after a pause, not in a busy loop.
    if (fromRow) await pause(RETRY_PAUSE_MS, signal);
  }
}
