import type { ApiPromise } from "./api-promise.js";
import { Collections } from "./collections.js";
import { Monitors } from "./monitors.js";
import { Http, type HttpOptions, type RequestOptions } from "./http.js";
import { Jobs } from "./jobs.js";
import type { PagePromise } from "./pagination.js";
import type { QuoteOptions, SubmitOptions, Submitted } from "./research.js";
import { type JobListQuery, type ResearchResource, researchResource } from "./research-resource.js";
import { type AccountResources, accountResources } from "./account.js";
import type { StreamOptions } from "./stream.js";
import type { CancelResult, ResearchEvent, ResearchLogRow, ResearchPlan, ResearchQuote, ResearchResult, WebhookDelivery, WebhookSendResult } from "./types.js";

export type DeepResearchOptions = HttpOptions;

/**
 * The client of the Deep Research API: one resource per kind of thing.
 *
 *     const client = new DeepResearch(); // DEEP_RESEARCH_API_KEY (and DEEP_RESEARCH_BASE_URL) from the environment
 *     const result = await client.research("How did presidents describe tariffs?", { mode: "lite" });
 *     const job = await client.research.get(result.id);
 *
 * - `client.research`: jobs (`run`, or call it; `create`, `quote`, `plan`, `get`, `cancel`, `list`, `stream`, `deliveries`, `resendDelivery`);
 * - `client.collections`, `client.monitors`;
 * - `client.credits` (`get`, or call it), `client.modes` (`list`, or call it), `client.webhooks` (`test`).
 *
 * Every call retries 429s, 5xx, network errors and timeouts (honouring Retry-After; a POST only
 * when it carries an Idempotency-Key) and throws a DeepResearchError of its kind (RateLimitError,
 * NotFoundError, ...) carrying `code`, `status` and `requestId`. Each single-request call's
 * promise also has `withResponse()`: the data with its HTTP response and request id.
 *
 * The job calls on the client itself (`submit`, `quote`, `plan`, `get`, `cancel`, `list`,
 * `deliveries`, `resendDelivery`, `stream`, `testWebhook`, `jobs.list`) are the same calls under
 * their names of the previous release, kept for this one.
 */
export class DeepResearch {
  readonly research: ResearchResource;
  readonly collections: Collections;
  readonly monitors: Monitors;
  readonly credits: AccountResources["credits"];
  readonly modes: AccountResources["modes"];
  readonly webhooks: AccountResources["webhooks"];
  /** @deprecated Use `client.research.list()`. */
  readonly jobs: Jobs;
  private readonly http: Http;

  constructor(options: DeepResearchOptions = {}) {
    this.http = new Http(options);
    this.research = researchResource(this.http);
    this.collections = new Collections(this.http);
    this.monitors = new Monitors(this.http);
    ({ credits: this.credits, modes: this.modes, webhooks: this.webhooks } = accountResources(this.http));
    this.jobs = new Jobs(this.research);
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** @deprecated Use `client.research.create()`. */
  submit(question: string, options: SubmitOptions = {}): ApiPromise<Submitted> {
    return this.research.create(question, options);
  }

  /** @deprecated Use `client.research.quote()`. */
  quote(question: string, options: QuoteOptions = {}): ApiPromise<ResearchQuote> {
    return this.research.quote(question, options);
  }

  /** @deprecated Use `client.research.plan()`. */
  plan(question: string, options: QuoteOptions = {}): ApiPromise<ResearchPlan> {
    return this.research.plan(question, options);
  }

  /** @deprecated Use `client.research.get()`. */
  get(id: string, options: RequestOptions = {}): ApiPromise<ResearchResult> {
    return this.research.get(id, options);
  }

  /** @deprecated Use `client.research.cancel()`. */
  cancel(id: string, options: RequestOptions = {}): ApiPromise<CancelResult> {
    return this.research.cancel(id, options);
  }

  /** @deprecated Use `client.research.list()`. */
  list(query: JobListQuery = {}, options: RequestOptions = {}): PagePromise<ResearchLogRow> {
    return this.research.list(query, options);
  }

  /** @deprecated Use `client.research.deliveries()`. */
  deliveries(id: string, options: RequestOptions = {}): ApiPromise<WebhookDelivery[]> {
    return this.research.deliveries(id, options);
  }

  /** @deprecated Use `client.research.resendDelivery()`. */
  resendDelivery(id: string, deliveryId: string, options: RequestOptions = {}): ApiPromise<WebhookSendResult> {
    return this.research.resendDelivery(id, deliveryId, options);
  }

  /** @deprecated Use `client.webhooks.test()`. */
  testWebhook(url: string, options: RequestOptions = {}): ApiPromise<WebhookSendResult> {
    return this.webhooks.test(url, options);
  }

  /** @deprecated Use `client.research.stream()`. */
  stream(id: string, options: StreamOptions = {}): AsyncGenerator<ResearchEvent, void, undefined> {
    return this.research.stream(id, options);
  }
}
