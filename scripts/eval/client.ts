/**
 * The public HTTP API as a customer (and the evaluation's admin) calls it: JSON in and out,
 * bearer tokens, 429s waited out per Retry-After.
 */

export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path} answered ${status}: ${typeof body === "string" ? body : JSON.stringify(body)}`.slice(0, 2_000));
  }

  /** The error code of the service's error body, when there is one. */
  get code(): string | undefined {
    const error = (this.body as { error?: { code?: string } } | null)?.error;
    return typeof error?.code === "string" ? error.code : undefined;
  }
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  constructor(readonly baseUrl: string) {}

  /** Any status below 400 resolves; 429 is retried (up to `retries` times) after Retry-After. */
  async request<T>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; retries?: number; timeoutMs?: number } = {},
  ): Promise<ApiResponse<T>> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(this.baseUrl + path, {
        method,
        headers: {
          Accept: "application/json",
          ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      if (response.status === 429 && attempt < (options.retries ?? 5)) {
        const retryAfter = Number(response.headers.get("retry-after"));
        await sleep(Math.min(60, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 2 ** attempt) * 1000);
        continue;
      }
      if (response.status >= 400) throw new HttpError(method, path, response.status, body);
      return { status: response.status, body: body as T };
    }
  }

  get<T>(path: string, token?: string) {
    return this.request<T>("GET", path, { token });
  }

  post<T>(path: string, body: unknown, token?: string) {
    return this.request<T>("POST", path, { body, token });
  }
}
