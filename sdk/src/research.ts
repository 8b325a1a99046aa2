import { DeepResearchError, ResearchCancelledError } from "./errors.js";
import type { RequestOptions } from "./http.js";
import { sleep } from "./retry.js";
import type { StreamOptions } from "./stream.js";
import { isTerminal } from "./job-statuses.js";
import type { AsyncAccepted, CancelResult, Progress, ResearchEvent, ResearchMode, ResearchRequest, ResearchResult, WebhookEventName } from "./types.js";

/** What a research request may say (the REST fields, in camelCase). */
export interface ResearchInput {
  /** How much research to do (`standard` by default); prices and limits at `client.modes()`. A metered mode (`credits` null there) needs `maxCredits`. */
  mode?: ResearchMode;
  maxCredits?: number;
  maxWallclockSecs?: number;
  includeDomains?: string[];
  excludeDomains?: string[];
  /** Search these collections of yours instead of the default search space. */
  collections?: string[];
  /** With `collections`: search the default space as well. */
  web?: boolean;
  /**
   * A follow-up: the id of one of your succeeded jobs. The job starts from that job's sources and
   * passages (never read again), searches only for what the question adds, and is priced by what it
   * adds (`quote()` says so); its result's `thread` lists the jobs before it.
   */
  previousJobId?: string;
  /** A JSON Schema: the result's `typed` is an object that follows it. */
  responseSchema?: Record<string, unknown>;
  /** Where the service POSTs the signed final result (the job is then asynchronous). */
  webhookUrl?: string;
  /** Which events to POST to `webhookUrl` (default: one `research.completed` for any terminal status). */
  webhookEvents?: WebhookEventName[];
  includeSources?: boolean;
  /** Run a reviewed plan (`plan()`'s `plan_id`, made for the same question and mode): its first wave searches exactly its queries. */
  planId?: string;
  /** With `planId`: the plan's first-wave searches as you edited them (1 to the mode's `max_queries`). */
  queries?: string[];
  /** With `planId`: the plan's sub-questions as you edited them (at most 8). */
  subQuestions?: string[];
  /** Force a 202 (follow the job) even for a short job. */
  async?: boolean;
}

/** What quote() takes: the request's fields (nothing is submitted, so no idempotency key). */
export interface QuoteOptions extends ResearchInput, RequestOptions {}

export interface SubmitOptions extends ResearchInput, RequestOptions {
  /** Default: a random UUID, sent on every retry of this submit, so it never starts or pays twice. */
  idempotencyKey?: string;
}

export interface ResearchOptions extends SubmitOptions {
  /** Called once the service accepted an asynchronous job (202): its id and where to follow it. */
  onAccepted?: (job: AsyncAccepted) => void;
  /** Every event of the job, as it happens (an asynchronous job only). */
  onEvent?: (event: ResearchEvent) => void;
  /** Each `progress` event: stage, wave, searches, pages, cost so far. */
  onProgress?: (progress: Progress) => void;
  /** How often to poll when the event stream cannot be followed (default 2 s). */
  pollIntervalMs?: number;
}

export type Submitted = { status: 200; result: ResearchResult; idempotencyKey: string } | { status: 202; job: AsyncAccepted; idempotencyKey: string };

/** The REST body of a request. */
export function researchBody(question: string, input: ResearchInput): ResearchRequest {
  return {
    question,
    mode: input.mode ?? "standard",
    include_sources: input.includeSources ?? true,
    ...(input.maxCredits !== undefined && { max_credits: input.maxCredits }),
    ...(input.maxWallclockSecs !== undefined && { max_wallclock_secs: input.maxWallclockSecs }),
    ...(input.includeDomains && { include_domains: input.includeDomains }),
    ...(input.excludeDomains && { exclude_domains: input.excludeDomains }),
    ...(input.collections && { collections: input.collections }),
    ...(input.web !== undefined && { web: input.web }),
    ...(input.previousJobId && { previous_job_id: input.previousJobId }),
    ...(input.responseSchema && { response_schema: input.responseSchema }),
    ...(input.webhookUrl && { webhook_url: input.webhookUrl }),
    ...(input.webhookEvents && { webhook_events: input.webhookEvents }),
    ...(input.async !== undefined && { async: input.async }),
    ...(input.planId && { plan_id: input.planId }),
    ...(input.queries && { queries: input.queries }),
    ...(input.subQuestions && { sub_questions: input.subQuestions }),
  };
}

/** What research() needs of the research resource. */
export interface ResearchClient {
  create(question: string, options: SubmitOptions): PromiseLike<Submitted>;
  get(id: string, options?: RequestOptions): PromiseLike<ResearchResult>;
  cancel(id: string, options?: RequestOptions): PromiseLike<CancelResult>;
  stream(id: string, options?: StreamOptions): AsyncIterable<ResearchEvent>;
}

/** A 4xx other than 429 is the answer; anything else (network, 5xx) means the stream, not the job, is in trouble. */
const streamUnavailable = (error: unknown) => !(error instanceof DeepResearchError) || error.status === 0 || error.status === 429 || error.status >= 500;

/**
 * Submits and resolves with the job's final ResearchResult, whatever its terminal status (a
 * failed job has `error` set and was not charged). A 200 is the result; a 202 is followed over
 * its event stream (or, when the stream cannot be followed, by polling) to its result.
 * With a `signal` or an event callback the job is submitted with `async: true` (unless `async`
 * says otherwise), so it has an id to follow and to cancel: aborting cancels it on the service
 * and rejects with a ResearchCancelledError carrying the cancelled job (what was charged).
 */
export async function research(client: ResearchClient, question: string, options: ResearchOptions = {}): Promise<ResearchResult> {
  const { signal, timeout, onEvent, onProgress } = options;
  signal?.throwIfAborted();
  const followed = Boolean(signal || onEvent || onProgress);
  const async = options.async ?? (followed ? true : undefined);
  // An asynchronous submit answers at once: it is not aborted half-way (the job might exist
  // without our knowing its id); an abort during it cancels the job right after.
  const submitted = await client.create(question, { ...options, async, signal: async ? undefined : signal });
  if (submitted.status === 200) return submitted.result;
  const { id } = submitted.job;
  options.onAccepted?.(submitted.job);
  const cancelled = async (reason: unknown): Promise<never> => {
    throw new ResearchCancelledError(await client.cancel(id, { timeout }), reason);
  };
  try {
    for await (const event of client.stream(id, { signal, timeout })) {
      onEvent?.(event);
      if (event.event === "progress") onProgress?.(event.data);
      if (event.event === "result") return event.data;
    }
  } catch (error) {
    if (signal?.aborted) return cancelled(signal.reason);
    if (!streamUnavailable(error)) throw error;
  }
  // The stream could not be followed (a proxy that cuts event streams, say): poll the job.
  for (;;) {
    try {
      if (signal?.aborted) return cancelled(signal.reason);
      const job = await client.get(id, { signal, timeout });
      if (isTerminal(job.status)) return job;
      await sleep(options.pollIntervalMs ?? 2000, signal);
    } catch (error) {
      if (signal?.aborted) return cancelled(signal.reason);
      throw error;
    }
  }
}
