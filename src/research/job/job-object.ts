import type { Env } from "../../env";
import type { PriorEvidence } from "../engine";
import type { TaskAnswer, TaskOutcome } from "../tasks/queued-fan-out";
import type { JobEventBatch } from "./job-events";
import type { JobSpec, ResearchResult } from "./job-state";

/**
 * What the rest of the service may ask of a job's Durable Object (`ResearchJob` in job.ts
 * implements it). Declared here, on the callers' side, so that this file names no class above it
 * and job.ts, which reaches a previous job's object through `jobObject`, imports only this side.
 */
export interface ResearchJobRpc extends Rpc.DurableObjectBranded {
  /** Accepts the job (idempotent: a second start of the same job changes nothing). */
  start(spec: JobSpec): Promise<void>;
  /** Has this object been handed its job (a submit's replays wait for it before answering)? */
  accepted(): Promise<boolean>;
  /** The job as a ResearchResult (live while running). */
  result(): Promise<ResearchResult | null>;
  /** Resolves with the result once terminal, or with the live result after `timeoutMs`. */
  waitForResult(timeoutMs: number): Promise<ResearchResult | null>;
  /** Cancels a pending or running job; `endedBefore`: it was terminal already. */
  cancel(): Promise<{ result: ResearchResult; endedBefore: boolean } | null>;
  /** A fan-out task finished. */
  taskDone(key: string, outcome: TaskOutcome): Promise<void>;
  /** The answers of a queue batch's tasks for this job, in one call. */
  tasksDone(answers: TaskAnswer[]): Promise<void>;
  /** The cron sweep: settle a job stuck past its deadline, or nudge an orphaned one to resume. */
  sweep(): Promise<"settled" | "resumed" | "ok" | "missing">;
  /** The events after `lastEventId` as objects, for a follower inside the worker. */
  eventsAfter(lastEventId: number, waitMs: number): Promise<JobEventBatch | null>;
  /** What a follow-up of this job starts from (null unless it succeeded). */
  followUpEvidence(): Promise<PriorEvidence | null>;
}

/** The Durable Object that runs job `id` (one object per job, named by its id): the only place that names it. */
export function jobObject(env: Pick<Env, "RESEARCH_JOB">, id: string): DurableObjectStub<ResearchJobRpc> {
  const namespace = env.RESEARCH_JOB as unknown as DurableObjectNamespace<ResearchJobRpc>;
  return namespace.get(namespace.idFromName(id));
}
