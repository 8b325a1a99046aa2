import { z } from "zod";

/**
 * The small interfaces every provider implements. The engine only sees these, so the local
 * corpus, a web search API or a hosted model can be swapped by configuration alone.
 */

export interface SearchQuery {
  query: string;
  /** Results wanted (providers may return fewer). */
  limit: number;
  /** Domains to search only (a domain matches itself and its subdomains). */
  includeDomains?: string[];
  excludeDomains?: string[];
  signal?: AbortSignal;
}

/**
 * Where a job searches when its request names collections: those collections of its caller (and,
 * with `web`, the default search space too). Carried by the job's task messages, so every
 * consumer that runs a task of the job searches and reads only there.
 */
export const SearchScope = z.object({
  userId: z.string(),
  collections: z.array(z.object({ id: z.string(), name: z.string() })),
  web: z.boolean(),
});
export type SearchScope = z.infer<typeof SearchScope>;

export interface SearchHit {
  url: string;
  title: string;
  /** A short extract shown by the provider, used for ranking before a page is read. */
  snippet: string;
  domain: string;
  /** Provider-side relevance, higher is better; only comparable within one result list. */
  score?: number;
}

export interface SearchProvider {
  readonly name: string;
  search(query: SearchQuery): Promise<SearchHit[]>;
}

export interface Page {
  url: string;
  title: string;
  /** Main text, boilerplate removed. */
  text: string;
  /** When the page says it was published (its metadata): ISO 8601, a date (2024-05-01) or a UTC time (2024-05-01T14:30:00Z). */
  published_at?: string;
  /** Who the page says wrote it (its metadata), e.g. "Jane Doe" or "Jane Doe, John Roe". */
  author?: string;
  /** True when served from the shared page cache (priced as a cached read). */
  cached: boolean;
}

export interface PageReader {
  /** Returns null when the page cannot be read (robots.txt, HTTP error, unsupported type). */
  read(url: string, signal?: AbortSignal): Promise<Page | null>;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  /** Ask for a JSON object answer where the API supports it. */
  json?: boolean;
  signal?: AbortSignal;
}

export interface ChatResponse {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * A hosted language model. The offline extractive engine is the absence of one. `complete`
 * throws a ProviderError carrying the HTTP status (429 and 5xx are retryable) and stops when the
 * request's signal aborts or its own per-call timeout passes.
 */
export interface ChatModel {
  readonly name: string;
  /**
   * The model's context window in tokens, when configured (`LLM_CONTEXT_TOKENS`): a stage sizes the
   * evidence of a call to it (a local model's window is often 4k to 8k). Unset: the stage's own budget.
   */
  readonly contextTokens?: number;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

export interface Providers {
  search: SearchProvider;
  reader: PageReader;
  /** null: the offline extractive engine writes the brief. */
  llm: ChatModel | null;
}

/** A provider answered with an error; `retryable` for 429 and 5xx. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly status?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = "ProviderError";
  }

  get retryable(): boolean {
    return this.status === undefined || this.status === 429 || this.status >= 500;
  }
}
