import createClient from "openapi-fetch";
import { DeepResearchError } from "./errors.js";
import { type FetchLike, retryingFetch, type RetryOptions } from "./retry.js";
import type { paths } from "./schema.js";

/** Where the service is when no `baseUrl` is given: a local `npm start`. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export interface HttpOptions extends RetryOptions {
  /** An API key from the dashboard (API keys page). */
  apiKey: string;
  /** The service's origin (default http://127.0.0.1:8787, a local `npm start`). */
  baseUrl?: string;
  /** The fetch to send requests with (default the global one): a proxy, a test double, a platform's own. */
  fetch?: FetchLike;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

/** An openapi-fetch answer: its data, or its error body, and the response. */
type Outcome<T> = { data?: T; error?: unknown; response: Response };

function aborted(error: unknown, signal: AbortSignal | undefined): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return Boolean(signal?.aborted) || name === "AbortError" || name === "TimeoutError";
}

/**
 * The typed HTTP layer: openapi-fetch over the generated `paths`, the API key on every request,
 * retries (retry.ts) under it, and every failure turned into a DeepResearchError.
 */
export class Http {
  readonly api: ReturnType<typeof createClient<paths>>;
  readonly baseUrl: string;

  constructor(options: HttpOptions) {
    if (!options.apiKey) throw new TypeError("DeepResearch needs an apiKey (an API key from the dashboard's API keys page).");
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const send: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: retryingFetch(send, options),
      headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    });
  }

  /** Runs one openapi-fetch call: its data and response, or a thrown DeepResearchError (an abort is rethrown as it is). */
  async call<T>(signal: AbortSignal | undefined, send: () => Promise<Outcome<T>>): Promise<{ data: T; response: Response }> {
    let outcome: Outcome<T>;
    try {
      outcome = await send();
    } catch (error) {
      if (aborted(error, signal)) throw error;
      throw DeepResearchError.network(this.baseUrl, error);
    }
    if (!outcome.response.ok) throw DeepResearchError.fromBody(outcome.response, outcome.error);
    return { data: outcome.data as T, response: outcome.response };
  }
}
