import { ApiPromise, mapData } from "./api-promise.js";
import { DeepResearchError } from "./errors.js";
import type { Http, RequestOptions } from "./http.js";
import type { PagePromise, Paging } from "./pagination.js";
import { research, researchBody, type QuoteOptions, type ResearchOptions, type SubmitOptions, type Submitted } from "./research.js";
import { followEvents, type StreamOptions } from "./stream.js";
import type {
  AsyncAccepted,
  CancelResult,
  JobStatus,
  ResearchEvent,
  ResearchLogRow,
  ResearchPlan,
  ResearchQuote,
  ResearchResult,
  WebhookDelivery,
  WebhookSendResult,
} from "./types.js";

export interface JobListQuery extends Paging {
  /** Only jobs in this status. */
  status?: JobStatus;
}

/** What `client.research` does with research jobs (see ResearchResource). */
export interface ResearchCalls {
  /**
   * Researches a question and resolves with the final result (see research.ts): a short job
   * answers at once, a longer one is followed over its event stream. Abort `signal` to cancel it.
   * Several requests make it, so it has no `withResponse()`; `create()` and `stream()` do its parts.
   */
  run<Typed = unknown>(question: string, options?: ResearchOptions): Promise<ResearchResult<Typed>>;
  /**
   * Submits a job and returns the service's answer: 200 with the result, or 202 with where to
   * follow it. An `Idempotency-Key` is always sent (a random UUID unless given) and reused by
   * the retries: the same key and body return the original job, never a second charge.
   */
  create(question: string, options?: SubmitOptions): ApiPromise<Submitted>;
  /**
   * What submitting the same question and options would reserve, charge at most and run within,
   * and whether the balance (or plan) covers it now; nothing is reserved, written or charged.
   */
  quote(question: string, options?: QuoteOptions): ApiPromise<ResearchQuote>;
  /**
   * The plan submitting the same question and options would run (sub-questions, first-wave
   * queries, envelope, quote) and its `plan_id`; free, nothing runs. Edit it and run it with
   * `{ planId, queries, subQuestions }` on create() or run(); a plan runs once and expires in an hour.
   */
  plan(question: string, options?: QuoteOptions): ApiPromise<ResearchPlan>;
  /** A job as it is now: status, and once finished its brief, sources, cost and charge. */
  get(id: string, options?: RequestOptions): ApiPromise<ResearchResult>;
  /**
   * Cancels a job: it is charged for the work already done, the rest is refunded. A job that
   * finished before the cancel arrived comes back unchanged, with `cancel_outcome: "already_finished"`.
   */
  cancel(id: string, options?: RequestOptions): ApiPromise<CancelResult>;
  /**
   * Your API jobs, newest first: awaited, one page (`limit`, default 20); with `for await`, every
   * job, the next page fetched as the last one runs out.
   *
   *     for await (const job of client.research.list({ status: "failed" })) console.log(job.id, job.question);
   */
  list(query?: JobListQuery, options?: RequestOptions): PagePromise<ResearchLogRow>;
  /**
   * A job's events (`status`, `progress`, `source`, `error`, then `result`, the last), resumed
   * with `Last-Event-ID` whenever the connection drops: no event is lost or repeated. A stream
   * spans connections, so it has no single response; `timeout` bounds the wait for each one's headers.
   *
   *     for await (const event of client.research.stream(id)) if (event.event === "progress") console.log(event.data.stage);
   */
  stream(id: string, options?: StreamOptions): AsyncGenerator<ResearchEvent, void, undefined>;
  /** Every webhook delivery attempt of a job, oldest first. */
  deliveries(id: string, options?: RequestOptions): ApiPromise<WebhookDelivery[]>;
  /** Sends a recorded delivery of a job (its `delivery_id` from deliveries()) again, now: same id and body, signed afresh. */
  resendDelivery(id: string, deliveryId: string, options?: RequestOptions): ApiPromise<WebhookSendResult>;
}

/**
 * `client.research`: research jobs, one resource. It is also a call: `client.research(question)`
 * is `client.research.run(question)`, the way most callers start.
 */
export type ResearchResource = ResearchCalls & (<Typed = unknown>(question: string, options?: ResearchOptions) => Promise<ResearchResult<Typed>>);

export function researchResource(http: Http): ResearchResource {
  const calls: ResearchCalls = {
    run: <Typed = unknown>(question: string, options: ResearchOptions = {}) => research(calls, question, options) as Promise<ResearchResult<Typed>>,
    create(question, options = {}) {
      const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
      const answer = http.answer(options, (init) =>
        http.api.POST("/v1/research", { body: researchBody(question, options), params: { header: { "idempotency-key": idempotencyKey } }, ...init }),
      );
      return new ApiPromise(
        mapData(
          answer,
          (data, response): Submitted =>
            response.status === 202
              ? { status: 202, job: data as AsyncAccepted, idempotencyKey }
              : { status: 200, result: data as ResearchResult, idempotencyKey },
        ),
      );
    },
    quote: (question, options = {}) => http.request(options, (init) => http.api.POST("/v1/research/quote", { body: researchBody(question, options), ...init })),
    plan: (question, options = {}) => http.request(options, (init) => http.api.POST("/v1/research/plan", { body: researchBody(question, options), ...init })),
    get: (id, options = {}) => http.request(options, (init) => http.api.GET("/v1/research/{id}", { params: { path: { id } }, ...init })),
    cancel: (id, options = {}) => http.request(options, (init) => http.api.DELETE("/v1/research/{id}", { params: { path: { id } }, ...init })),
    list: (query = {}, options = {}) => http.page(options, (next, init) => http.api.GET("/v1/research", { params: { query: { ...query, ...next } }, ...init })),
    stream: (id, options = {}) =>
      followEvents(async (lastEventId, signal) => {
        const { data } = await http.answer({ signal, timeout: options.timeout }, (init) =>
          http.api.GET("/v1/research/{id}/events", {
            params: { path: { id } },
            headers: { Accept: "text/event-stream", ...(lastEventId > 0 && { "Last-Event-ID": String(lastEventId) }) },
            parseAs: "stream",
            ...init,
          }),
        );
        if (!data) throw new DeepResearchError({ status: 200, code: "invalid_response", message: "The event stream answered without a body." });
        return data;
      }, options),
    deliveries: (id, options = {}) => http.request(options, (init) => http.api.GET("/v1/research/{id}/deliveries", { params: { path: { id } }, ...init })),
    resendDelivery: (id, deliveryId, options = {}) =>
      http.request(options, (init) =>
        http.api.POST("/v1/research/{id}/deliveries/{delivery_id}/resend", { params: { path: { id, delivery_id: deliveryId } }, ...init }),
      ),
  };
  const call = <Typed = unknown>(question: string, options: ResearchOptions = {}) => calls.run<Typed>(question, options);
  return Object.assign(call, calls);
}
