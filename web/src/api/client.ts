import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];

/**
 * The session's tokens: the access token lives in memory only; the refresh token is kept in
 * localStorage so a reload resumes the session (it is single use: each refresh replaces it).
 */
const REFRESH_KEY = "deep-research.refresh-token";
let accessToken: string | null = null;
let refreshing: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

export const session = {
  get accessToken() {
    return accessToken;
  },
  get hasRefreshToken() {
    return localStorage.getItem(REFRESH_KEY) !== null;
  },
  signedIn(tokens: { access_token: string; refresh_token: string }) {
    accessToken = tokens.access_token;
    localStorage.setItem(REFRESH_KEY, tokens.refresh_token);
    listeners.forEach((listener) => listener());
  },
  signedOut() {
    accessToken = null;
    localStorage.removeItem(REFRESH_KEY);
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Trades the refresh token for a new pair, once at a time; false when the session is over. */
  refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const refreshToken = localStorage.getItem(REFRESH_KEY);
      if (!refreshToken) return false;
      const response = await fetch("/api/auth/refresh", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      if (!response.ok) {
        session.signedOut();
        return false;
      }
      session.signedIn((await response.json()) as { access_token: string; refresh_token: string });
      return true;
    })().finally(() => (refreshing = null));
    return refreshing;
  },
};

/** fetch with the access token; on a 401 it refreshes the session once and tries again. */
export async function authedFetch(request: Request): Promise<Response> {
  const send = (req: Request) => {
    const headers = new Headers(req.headers);
    if (accessToken && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${accessToken}`);
    return fetch(new Request(req, { headers }));
  };
  const retry = request.clone();
  const response = await send(request);
  if (response.status !== 401 || new URL(request.url).pathname.startsWith("/api/auth/")) return response;
  // Only an expired or missing token is worth a refresh; a 401 such as a wrong current password is the answer.
  const code = (
    (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string } } | null
  )?.error?.code;
  if (code !== "unauthorized") return response;
  return (await session.refresh()) ? send(retry) : response;
}

/** The typed client of our own public API (types generated from /openapi.json: npm run web:client). */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: authedFetch });

/**
 * An API error as the dashboard shows it: the body's code and message, the status, how long to
 * wait for a 429 (Retry-After) and the request id (shown for a 5xx, so support can find it).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly requestId: string | null,
    readonly retryAfterSecs: number | null,
  ) {
    super(message);
  }

  static from(error: unknown, response: Response): ApiError {
    const body = error as { error?: { code?: string; message?: string } } | undefined;
    const retryAfter = Number(response.headers.get("Retry-After"));
    return new ApiError(
      body?.error?.message ?? `The service answered ${response.status}.`,
      response.status,
      body?.error?.code ?? "internal",
      response.headers.get("X-Request-Id"),
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
}

/** The data of an API call, or an ApiError (for TanStack Query and the mutations). */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.from(error, response);
  return data as T;
}

/** An API error as people read it in one line: the message, the wait for a 429, the request id for a 5xx. */
export function errorMessage(error: unknown, response?: Response): string {
  const apiError = error instanceof ApiError ? error : response ? ApiError.from(error, response) : null;
  if (!apiError) return error instanceof Error ? error.message : "Something went wrong.";
  if (apiError.status === 429 && apiError.retryAfterSecs) return `${apiError.message} Try again in ${apiError.retryAfterSecs} s.`;
  if (apiError.status >= 500 && apiError.requestId) return `${apiError.message} (request id ${apiError.requestId})`;
  // The message says what to do; Settings shows whether the address is verified yet.
  if (apiError.code === "email_not_verified") return `${apiError.message} Settings shows the address's status.`;
  return apiError.message;
}
