import type { LifecycleEvent } from "../../webhooks/headers";
import type { SearchScope } from "../providers/types";
import type { JobStatus } from "../../db/schema/jobs";
import { type ChargeOutcome, decideCharge, type ResearchMode, roundUsd } from "../pricing";
import type { FoundBeforeFailure, ResearchInput, ResearchOutput, ResearchProgress, WriteReport } from "../engine";
import type { ChargeBasis, ResearchResult, SourceDto } from "../shapes";
import { plainText } from "../../lib/plain-text";

/** Sources as callers see them: title and summary as plain text, whatever a page or an older row held (issue 26, defect 7). */
export function plainSources(sources: SourceDto[]): SourceDto[] {
  return sources.map((source) => ({
    ...source,
    title: plainText(source.title),
    ...(typeof source.summary === "string" ? { summary: plainText(source.summary) } : {}),
  }));
}

export type { ResearchResult };

/** Everything a job's Durable Object needs to run, fixed at submit. */
export interface JobSpec {
  id: string;
  userId: string;
  origin: "api" | "playground";
  mode: ResearchMode;
  question: string;
  input: ResearchInput;
  reservedCredits: number;
  maxCredits: number | null;
  /** Whether settling queues a webhook delivery; the URL itself lives only on the job row, where the delivery reads it. */
  notifiesWebhook: boolean;
  /**
   * The events the request asked for (`webhook_events`); absent: the default, one
   * `research.completed` delivery for any terminal status (jobs from before lifecycle events too).
   */
  webhookEvents?: LifecycleEvent[];
  createdAt: string;
  /** Hard wall-clock deadline, epoch ms. */
  deadlineAt: number;
  /** The collections the request named (absent: the default search space). */
  scope?: SearchScope;
  /** A follow-up (issue 45): the job it continues, whose evidence it starts from. */
  previousJobId?: string;
  /** The jobs before it in its thread, oldest first (previousJobId last). */
  thread?: string[];
}

/** The job's durable record, persisted before every announcement. */
export interface JobRecord {
  spec: JobSpec;
  status: JobStatus;
  startedAt: number | null;
  cancelRequested: boolean;
  progress: ResearchProgress | null;
  sources: SourceDto[];
  /** Set once terminal. */
  result: ResearchResult | null;
  /**
   * With a model, set with `result` when the job succeeded: the write stage's report, which the
   * final D1 row keeps for the operator (never part of `result`, what the customer reads).
   */
  writeReport?: WriteReport | null;
  /** Terminal and its ledger + D1 row written: nothing left to do. */
  settled: boolean;
  /** The last `research.progress` delivery enqueued (its wave, epoch ms): the throttle's memory. */
  progressHook?: { wave: number; at: number };
  /** A follow-up, once its prior evidence is loaded: each page it starts from and the job of its thread that read it. */
  priorPages?: Record<string, string>;
}

export type Outcome =
  | { status: "succeeded"; output: ResearchOutput }
  | { status: "cancelled"; costUsd: number; waves: number; found?: FoundBeforeFailure | null }
  | { status: "failed"; error: string; costUsd: number; waves: number };

/**
 * What the caller pays and why: the job's spec and outcome read as the inputs of the one charge
 * rule (`decideCharge` in research/pricing/charge.ts). Settling releases the reservation minus
 * its credits.
 */
export function chargeOf(spec: JobSpec, outcome: Outcome, priorSources = 0): { credits: number; basis: ChargeBasis } {
  const followUp = spec.previousJobId ? { followUp: { previousJobId: spec.previousJobId, priorSources } } : {};
  const job = { mode: spec.mode, maxCredits: spec.maxCredits, reservedCredits: spec.reservedCredits, ...followUp };
  if (outcome.status === "succeeded") return decideCharge(job, succeededCharge(outcome.output));
  if (outcome.status === "cancelled") return decideCharge(job, { status: "cancelled", costUsd: outcome.costUsd });
  return decideCharge(job, { status: "failed" });
}

/** What a succeeded engine output means for the charge: whether it addressed the question, and what its brief cites. */
function succeededCharge(output: Pick<ResearchOutput, "cost_usd" | "addressed" | "sources" | "answer">): ChargeOutcome {
  return { status: "succeeded", costUsd: output.cost_usd, addressed: output.addressed, citedSources: output.sources.length, answered: output.answer !== null };
}

/** The final ResearchResult of an outcome. `cost_usd` never exceeds the envelope. */
export function finalResult(record: JobRecord, outcome: Outcome, completedAt: number): ResearchResult {
  const { spec } = record;
  const started = record.startedAt ?? Date.parse(spec.createdAt);
  const cap = spec.input.budgets.max_cost_usd;
  const cost = roundUsd(Math.min(cap, outcome.status === "succeeded" ? outcome.output.cost_usd : outcome.costUsd));
  const succeeded = outcome.status === "succeeded" ? outcome.output : null;
  // A cancelled job pays its metered work and keeps what it had: the pages read and, when the
  // cancel stopped its gathering, an extractive brief of them (marked partial). A failed job is
  // refunded and hands over none of the research, only its error: otherwise a schema no source
  // can satisfy, or a deadline too short to meet, would be a free brief (issue 39).
  const cancelled = outcome.status === "cancelled" ? outcome : null;
  const found = cancelled?.found ?? undefined;
  const priorPages = record.priorPages ?? {};
  const charge = chargeOf(spec, outcome, Object.keys(priorPages).length);
  return {
    id: spec.id,
    status: outcome.status,
    question: spec.question,
    brief: succeeded?.brief ?? found?.brief ?? null,
    answer: succeeded?.answer ?? null,
    typed: succeeded?.typed ?? null,
    sources: threadSources(plainSources(succeeded?.sources ?? found?.sources ?? (cancelled ? record.sources : [])), priorPages),
    citations: succeeded?.citations ?? found?.citations ?? [],
    credits_charged: charge.credits,
    charge_basis: charge.basis,
    cost_usd: cost,
    created_at: spec.createdAt,
    completed_at: new Date(completedAt).toISOString(),
    error: outcome.status === "failed" ? outcome.error : null,
    latency_ms: Math.max(0, completedAt - started),
    wave_count: outcome.status === "succeeded" ? outcome.output.wave_count : outcome.waves,
    ...threadOf(spec),
    partial: cancelled !== null,
  };
}

/** A follow-up's place in its thread (issue 45): the job it continues and the chain before it, oldest first. */
export function threadOf(spec: Pick<JobSpec, "previousJobId" | "thread">): { previous_job_id: string | null; thread: string[] } {
  return { previous_job_id: spec.previousJobId ?? null, thread: spec.thread ?? [] };
}

/** Sources an earlier job of the thread read carry its id (`from_job_id`); one numbering for old and new. */
function threadSources(sources: SourceDto[], priorPages: Record<string, string>): SourceDto[] {
  return sources.map((source) => {
    const jobId = priorPages[source.url];
    return jobId ? { ...source, from_job_id: jobId } : source;
  });
}

/** The result as seen while the job is still pending or running. */
export function liveResult(record: JobRecord): ResearchResult {
  if (record.result) return record.result;
  const { spec } = record;
  return {
    id: spec.id,
    status: record.status,
    question: spec.question,
    brief: null,
    answer: null,
    typed: null,
    sources: threadSources(plainSources(record.sources), record.priorPages ?? {}),
    citations: [],
    credits_charged: 0,
    charge_basis: decideCharge(
      { mode: spec.mode, maxCredits: spec.maxCredits, reservedCredits: spec.reservedCredits },
      { status: record.status === "pending" ? "pending" : "running", costUsd: record.progress?.cost_usd ?? 0 },
    ).basis,
    cost_usd: roundUsd(record.progress?.cost_usd ?? 0),
    created_at: spec.createdAt,
    completed_at: null,
    error: null,
    latency_ms: null,
    wave_count: record.progress?.wave ?? null,
    ...threadOf(spec),
    partial: false,
  };
}
