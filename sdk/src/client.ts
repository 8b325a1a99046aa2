import { Collections, type Paging } from "./collections.js";
import { DeepResearchError } from "./errors.js";
import { Http, type HttpOptions } from "./http.js";
import { research, researchBody, type ResearchOptions, type SubmitOptions, type Submitted } from "./research.js";
import { followEvents, type StreamOptions } from "./stream.js";
import type { AsyncAccepted, Balance, JobStatus, ModePrice, ResearchEvent, ResearchLogRow, ResearchResult, WebhookDelivery } from "./types.js";

export type DeepResearchOptions = HttpOptions;

interface RequestOptions {
  signal?: AbortSignal;
}

/**
 * The client of the Deep Research API.
 *
 *     const client = new DeepResearch({ apiKey: "dr_live_…", baseUrl: "https://…" });
 *     const result = await client.research("How did presidents describe tariffs?", { mode: "lite" });
 *
 * Every call retries 429s, 5xx and network errors (honouring Retry-After; a POST only when it
 * carries an Idempotency-Key) and throws a DeepResearchError carrying `code`, `status` and `requestId`.
 */
export class DeepResearch {
  readonly collections: Collections;
  private readonly http: Http;

  constructor(options: DeepResearchOptions) {
    this.http = new Http(options);
    this.collections = new Collections(this.http);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /**
   * Researches a question and resolves with the final result (see research.ts): a short job
   * answers at once, a longer one is followed over its event stream. Abort `signal` to cancel it.
   */
  research<Typed = unknown>(question: string, options: ResearchOptions = {}): Promise<ResearchResult<Typed>> {
    return research(this, question, options) as Promise<ResearchResult<Typed>>;
  }

  /**
   * Submits a job and returns the service's answer: 200 with the result, or 202 with where to
   * follow it. An `Idempotency-Key` is always sent (a random UUID unless given) and reused by
   * the retries: the same key and body return the original job, never a second charge.
   */
  async submit(question: string, options: SubmitOptions = {}): Promise<Submitted> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const { data, response } = await this.http.call(options.signal, () =>
      this.http.api.POST("/v1/research", {
        body: researchBody(question, options),
        params: { header: { "idempotency-key": idempotencyKey } },
        signal: options.signal,
      }),
    );
    return response.status === 202
      ? { status: 202, job: data as AsyncAccepted, idempotencyKey }
      : { status: 200, result: data as ResearchResult, idempotencyKey };
  }

  /** A job as it is now: status, and once finished its brief, sources, cost and charge. */
  async get(id: string, options: RequestOptions = {}): Promise<ResearchResult> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/research/{id}", { params: { path: { id } }, signal: options.signal }))).data;
  }

  /** Cancels a job: it is charged for the work already done, the rest is refunded. A finished job comes back unchanged. */
  async cancel(id: string, options: RequestOptions = {}): Promise<ResearchResult> {
    return (await this.http.call(options.signal, () => this.http.api.DELETE("/v1/research/{id}", { params: { path: { id } }, signal: options.signal }))).data;
  }

  /** Your API jobs, newest first. */
  async list(query: Paging & { status?: JobStatus } = {}, options: RequestOptions = {}): Promise<ResearchLogRow[]> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/research", { params: { query }, signal: options.signal }))).data;
  }

  /** Every webhook delivery attempt of a job, oldest first. */
  async deliveries(id: string, options: RequestOptions = {}): Promise<WebhookDelivery[]> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/research/{id}/deliveries", { params: { path: { id } }, signal: options.signal }))).data;
  }

  /** Your credit balance. */
  async credits(options: RequestOptions = {}): Promise<Balance> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/credits", { signal: options.signal }))).data;
  }

  /** The research modes with their price and limits (public: no key needed, but it is sent). */
  async modes(options: RequestOptions = {}): Promise<ModePrice[]> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/api/billing/modes", { signal: options.signal }))).data;
  }

  /**
   * A job's events (`status`, `progress`, `source`, `error`, then `result`, the last), resumed
   * with `Last-Event-ID` whenever the connection drops: no event is lost or repeated.
   *
   *     for await (const event of client.stream(id)) if (event.event === "progress") console.log(event.data.stage);
   */
  stream(id: string, options: StreamOptions = {}): AsyncGenerator<ResearchEvent, void, undefined> {
    return followEvents(async (lastEventId, signal) => {
      const { data } = await this.http.call(signal, () =>
        this.http.api.GET("/v1/research/{id}/events", {
          params: { path: { id } },
          headers: { Accept: "text/event-stream", ...(lastEventId > 0 && { "Last-Event-ID": String(lastEventId) }) },
          parseAs: "stream",
          signal,
        }),
      );
      if (!data) throw new DeepResearchError({ status: 200, code: "invalid_response", message: "The event stream answered without a body." });
      return data;
    }, options);
  }
}
