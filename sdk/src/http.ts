import createClient from "openapi-fetch";
import { ApiPromise, type WithResponse } from "./api-promise.js";
import { DeepResearchError } from "./errors.js";
import { PagePromise, type Paging } from "./pagination.js";
import { type FetchLike, retryingFetch, type RetryOptions } from "./retry.js";
import type { paths } from "./schema.js";

/** Where the service is when neither `baseUrl` nor DEEP_RESEARCH_BASE_URL says: a local `npm start`. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/** How long an attempt waits for its response when no `timeout` is given: 10 minutes, as openai-node. */
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export interface HttpOptions extends RetryOptions {
  /** An API key from the dashboard (API keys page). Default: the DEEP_RESEARCH_API_KEY environment variable. */
  apiKey?: string;
  /** The service's origin. Default: DEEP_RESEARCH_BASE_URL, else http://127.0.0.1:8787 (a local `npm start`). */
  baseUrl?: string;
  /** The fetch to send requests with (default the global one): a proxy, a test double, a platform's own. */
  fetch?: FetchLike;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /**
   * How long each attempt waits for its response, in ms (default 10 minutes); past it the attempt
   * is aborted and, where repeating is safe, retried; the last one throws a TimeoutError.
   */
  timeout?: number;
}

/** What each call may add: a signal to stop it, and a timeout of its own (instead of the client's). */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's `timeout` for this call (ms, per attempt). */
  timeout?: number;
}

/** What a call spreads into its openapi-fetch request: the caller's signal and the fetch that applies this call's timeout and retries. */
export type SendInit = {
  signal?: AbortSignal;
  fetch: FetchLike;
};

/** An openapi-fetch answer: its data, or its error body, and the response. */
type Outcome<T> = { data?: T; error?: unknown; response: Response };

/**
 * The environment of the process, where there is one (Node, Bun, Deno's compatibility layer);
 * undefined in browsers and Workers, where configuration is passed explicitly.
 */
function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name] || undefined;
}

function aborted(error: unknown, signal: AbortSignal | undefined): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return Boolean(signal?.aborted) || name === "AbortError" || name === "TimeoutError";
}

/**
 * The typed HTTP layer: openapi-fetch over the generated `paths`, the API key on every request,
 * a per-attempt timeout and retries (retry.ts) under it, and every failure turned into a
 * DeepResearchError of its kind.
 */
export class Http {
  readonly api: ReturnType<typeof createClient<paths>>;
  readonly baseUrl: string;
  private readonly send: FetchLike;
  private readonly retry: RetryOptions;
  private readonly timeout: number;

  constructor(options: HttpOptions) {
    const apiKey = options.apiKey ?? environment("DEEP_RESEARCH_API_KEY");
    if (!apiKey) throw new TypeError("DeepResearch needs an API key: pass apiKey, or set DEEP_RESEARCH_API_KEY (a key from the dashboard's API keys page).");
    this.baseUrl = (options.baseUrl ?? environment("DEEP_RESEARCH_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.send = options.fetch ?? ((request) => globalThis.fetch(request));
    this.retry = { maxRetries: options.maxRetries, baseDelayMs: options.baseDelayMs, maxDelayMs: options.maxDelayMs, onRetry: options.onRetry };
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: this.fetchFor(undefined),
      headers: { ...options.headers, Authorization: `Bearer ${apiKey}` },
    });
  }

  /** One call: its data (awaited) or its data with the response (`withResponse()`), or a thrown DeepResearchError. */
  request<T>(options: RequestOptions, send: (init: SendInit) => Promise<Outcome<T>>): ApiPromise<T> {
    return new ApiPromise(this.answer(options, send));
  }

  /** A list call: the first page (awaited) or every item of every page (`for await`), each page asked with `paging`. */
  page<Item>(options: RequestOptions, send: (paging: Paging | null, init: SendInit) => Promise<Outcome<Item[]>>): PagePromise<Item> {
    return new PagePromise((paging) => this.answer(options, (init) => send(paging, init)));
  }

  /** Runs one openapi-fetch call: its data and response, or a thrown DeepResearchError (an abort of the caller's signal is rethrown as it is). */
  async answer<T>(options: RequestOptions, send: (init: SendInit) => Promise<Outcome<T>>): Promise<WithResponse<T>> {
    const { signal } = options;
    let outcome: Outcome<T>;
    try {
      outcome = await send({ signal, fetch: this.fetchFor(options.timeout) });
    } catch (error) {
      if (error instanceof DeepResearchError || aborted(error, signal)) throw error;
      throw DeepResearchError.network(this.baseUrl, error);
    }
    if (!outcome.response.ok) throw DeepResearchError.fromBody(outcome.response, outcome.error);
    return { data: outcome.data as T, response: outcome.response, requestId: outcome.response.headers.get("X-Request-Id") };
  }

  private fetchFor(timeout: number | undefined): FetchLike {
    return retryingFetch(this.send, { ...this.retry, timeoutMs: timeout ?? this.timeout });
  }
}
