import { ApiPromise, mapData } from "./api-promise.js";
import { Collections } from "./collections.js";
import { Monitors } from "./monitors.js";
import { DeepResearchError } from "./errors.js";
import { Http, type HttpOptions, type RequestOptions } from "./http.js";
import { type JobListQuery, Jobs } from "./jobs.js";
import type { PagePromise } from "./pagination.js";
import { research, researchBody, type QuoteOptions, type ResearchOptions, type SubmitOptions, type Submitted } from "./research.js";
import { followEvents, type StreamOptions } from "./stream.js";
import type {
  AsyncAccepted,
  Balance,
  ModePrice,
  ResearchEvent,
  ResearchLogRow,
  ResearchQuote,
  ResearchPlan,
  ResearchResult,
  CancelResult,
  WebhookDelivery,
  WebhookSendResult,
} from "./types.js";

export type DeepResearchOptions = HttpOptions;

/**
 * The client of the Deep Research API.
 *
 *     const client = new DeepResearch(); // DEEP_RESEARCH_API_KEY (and DEEP_RESEARCH_BASE_URL) from the environment
 *     const result = await client.research("How did presidents describe tariffs?", { mode: "lite" });
 *
 * Every call retries 429s, 5xx, network errors and timeouts (honouring Retry-After; a POST only
 * when it carries an Idempotency-Key) and throws a DeepResearchError of its kind (RateLimitError,
 * NotFoundError, ...) carrying `code`, `status` and `requestId`. Each single-request call's
 * promise also has `withResponse()`: the data with its HTTP response and request id.
 */
export class DeepResearch {
  readonly collections: Collections;
  readonly monitors: Monitors;
  readonly jobs: Jobs;
  private readonly http: Http;

  constructor(options: DeepResearchOptions = {}) {
    this.http = new Http(options);
    this.collections = new Collections(this.http);
    this.monitors = new Monitors(this.http);
    this.jobs = new Jobs(this.http);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /**
   * Researches a question and resolves with the final result (see research.ts): a short job
   * answers at once, a longer one is followed over its event stream. Abort `signal` to cancel it.
   * Several requests make it, so it has no `withResponse()`; `submit()` and `stream()` do its parts.
   */
  research<Typed = unknown>(question: string, options: ResearchOptions = {}): Promise<ResearchResult<Typed>> {
    return research(this, question, options) as Promise<ResearchResult<Typed>>;
  }

  /**
   * Submits a job and returns the service's answer: 200 with the result, or 202 with where to
   * follow it. An `Idempotency-Key` is always sent (a random UUID unless given) and reused by
   * the retries: the same key and body return the original job, never a second charge.
   */
  submit(question: string, options: SubmitOptions = {}): ApiPromise<Submitted> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const answer = this.http.answer(options, (init) =>
      this.http.api.POST("/v1/research", { body: researchBody(question, options), params: { header: { "idempotency-key": idempotencyKey } }, ...init }),
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
  }

  /**
   * What submitting the same question and options would reserve, charge at most and run within,
   * and whether the balance (or plan) covers it now; nothing is reserved, written or charged.
   */
  quote(question: string, options: QuoteOptions = {}): ApiPromise<ResearchQuote> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/research/quote", { body: researchBody(question, options), ...init }));
  }

  /**
   * The plan submitting the same question and options would run (sub-questions, first-wave
   * queries, envelope, quote) and its `plan_id`; free, nothing runs. Edit it and run it with
   * `{ planId, queries, subQuestions }` on submit() or research(); a plan runs once and expires in an hour.
   */
  plan(question: string, options: QuoteOptions = {}): ApiPromise<ResearchPlan> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/research/plan", { body: researchBody(question, options), ...init }));
  }

  /** A job as it is now: status, and once finished its brief, sources, cost and charge. */
  get(id: string, options: RequestOptions = {}): ApiPromise<ResearchResult> {
    return this.http.request(options, (init) => this.http.api.GET("/v1/research/{id}", { params: { path: { id } }, ...init }));
  }

  /**
   * Cancels a job: it is charged for the work already done, the rest is refunded. A job that
   * finished before the cancel arrived comes back unchanged, with `cancel_outcome: "already_finished"`.
   */
  cancel(id: string, options: RequestOptions = {}): ApiPromise<CancelResult> {
    return this.http.request(options, (init) => this.http.api.DELETE("/v1/research/{id}", { params: { path: { id } }, ...init }));
  }

  /** Your API jobs, newest first: the same as `client.jobs.list()` (awaited, one page; with `for await`, all of them). */
  list(query: JobListQuery = {}, options: RequestOptions = {}): PagePromise<ResearchLogRow> {
    return this.jobs.list(query, options);
  }

  /** Every webhook delivery attempt of a job, oldest first. */
  deliveries(id: string, options: RequestOptions = {}): ApiPromise<WebhookDelivery[]> {
    return this.http.request(options, (init) => this.http.api.GET("/v1/research/{id}/deliveries", { params: { path: { id } }, ...init }));
  }

  /** Sends a recorded delivery of a job (its `delivery_id` from deliveries()) again, now: same id and body, signed afresh. */
  resendDelivery(id: string, deliveryId: string, options: RequestOptions = {}): ApiPromise<WebhookSendResult> {
    return this.http.request(options, (init) =>
      this.http.api.POST("/v1/research/{id}/deliveries/{delivery_id}/resend", { params: { path: { id, delivery_id: deliveryId } }, ...init }),
    );
  }

  /** Sends a signed `webhook.test` event to `url` now and returns what your endpoint answered. */
  testWebhook(url: string, options: RequestOptions = {}): ApiPromise<WebhookSendResult> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/webhooks/test", { body: { url }, ...init }));
  }

  /** Your credit balance. */
  credits(options: RequestOptions = {}): ApiPromise<Balance> {
    return this.http.request(options, (init) => this.http.api.GET("/v1/credits", init));
  }

  /** The research modes with their price and limits (public: no key needed, but it is sent). */
  modes(options: RequestOptions = {}): ApiPromise<ModePrice[]> {
    return this.http.request(options, (init) => this.http.api.GET("/api/billing/modes", init));
  }

  /**
   * A job's events (`status`, `progress`, `source`, `error`, then `result`, the last), resumed
   * with `Last-Event-ID` whenever the connection drops: no event is lost or repeated. A stream
   * spans connections, so it has no single response; `timeout` bounds the wait for each one's headers.
   *
   *     for await (const event of client.stream(id)) if (event.event === "progress") console.log(event.data.stage);
   */
  stream(id: string, options: StreamOptions = {}): AsyncGenerator<ResearchEvent, void, undefined> {
    return followEvents(async (lastEventId, signal) => {
      const { data } = await this.http.answer({ signal, timeout: options.timeout }, (init) =>
        this.http.api.GET("/v1/research/{id}/events", {
          params: { path: { id } },
          headers: { Accept: "text/event-stream", ...(lastEventId > 0 && { "Last-Event-ID": String(lastEventId) }) },
          parseAs: "stream",
          ...init,
        }),
      );
      if (!data) throw new DeepResearchError({ status: 200, code: "invalid_response", message: "The event stream answered without a body." });
      return data;
    }, options);
  }
}
