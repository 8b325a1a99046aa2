import { ApiError } from "../../lib/errors";
import { jobEvents, type ResearchResult } from "../../research/service";
import type { Deps } from "../../services/deps";
import { type JobStreamEvent, sseEvents } from "./sse-reader";

/** How often a wait between events wakes to check the deadline and whether the caller stopped. */
const TICK_MS = 500;
const TICK = Symbol("tick");

export type FollowOutcome = { kind: "result"; result: ResearchResult } | { kind: "stopped" } | { kind: "deadline" };

export interface FollowOptions {
  deps: Pick<Deps, "db" | "config" | "env">;
  userId: string;
  jobId: string;
  /** Epoch ms after which following gives up (the job itself keeps its own deadline). */
  deadline: number;
  /** Polled between events: true once the caller no longer wants the job followed. */
  stopped: () => boolean;
  /** Each event of the job's stream, in order, once. */
  onEvent: (event: JobStreamEvent) => void | Promise<void>;
}

/** Resolves with the promise's value, or TICK if it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TICK> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = new Promise<typeof TICK>((resolve) => (timer = setTimeout(() => resolve(TICK), ms)));
  try {
    return await Promise.race([promise, tick]);
  } finally {
    clearTimeout(timer);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows a job through its event stream (the same one GET /v1/research/{id}/events serves) until
 * its `result` event, the deadline, or the caller stopping. A stream that ends or breaks early is
 * resumed with Last-Event-ID, so no event is seen twice.
 */
export async function followJob(options: FollowOptions): Promise<FollowOutcome> {
  const { deps, userId, jobId, deadline, stopped, onEvent } = options;
  let lastEventId = 0;
  for (;;) {
    if (stopped()) return { kind: "stopped" };
    if (Date.now() >= deadline) return { kind: "deadline" };
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      const response = await jobEvents(deps, userId, jobId, lastEventId > 0 ? String(lastEventId) : undefined);
      if (!response.body) throw new Error(`the event stream of job ${jobId} has no body`);
      reader = response.body.getReader();
    } catch (error) {
      // Not found or the like will not get better by asking again; a broken call to the job's object may.
      if (error instanceof ApiError && error.status < 500) throw error;
      console.error(`mcp: following job ${jobId}: ${error instanceof Error ? error.message : String(error)}`);
      await pause(TICK_MS);
      continue;
    }
    const events = sseEvents(reader);
    let pending = events.next();
    try {
      for (;;) {
        const step = await within(pending, TICK_MS);
        if (step === TICK) {
          if (stopped()) return { kind: "stopped" };
          if (Date.now() >= deadline) return { kind: "deadline" };
          continue;
        }
        if (step.done) break;
        const event = step.value;
        lastEventId = Math.max(lastEventId, event.id);
        await onEvent(event);
        if (event.event === "result") return { kind: "result", result: event.data as ResearchResult };
        pending = events.next();
      }
    } catch (error) {
      console.error(`mcp: the event stream of job ${jobId} broke: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      // A read still pending when we stop ends with the cancel; its outcome no longer matters.
      pending.catch(() => {});
      await reader.cancel().catch(() => {});
    }
    // The stream ended before the result (the job's object restarted): resume after a pause.
    await pause(TICK_MS);
  }
}
