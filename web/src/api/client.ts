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
async function authedFetch(request: Request): Promise<Response> {
  const send = (req: Request) => {
    const headers = new Headers(req.headers);
    if (accessToken && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${accessToken}`);
    return fetch(new Request(req, { headers }));
  };
  const retry = request.clone();
  const response = await send(request);
  if (response.status !== 401 || new URL(request.url).pathname.startsWith("/api/auth/")) return response;
  return (await session.refresh()) ? send(retry) : response;
}

/** The typed client of our own public API (types generated from /openapi.json: npm run web:client). */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: authedFetch });

/** The data of an API call, or an Error carrying the message people read (for TanStack Query). */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(errorMessage(error, response));
  return data;
}

/** An API error as people read it: the message, and the request id for a 5xx. */
export function errorMessage(error: unknown, response?: Response): string {
  const body = error as { error?: { code?: string; message?: string } } | undefined;
  const message = body?.error?.message ?? "Something went wrong.";
  const requestId = response?.headers.get("X-Request-Id");
  return response && response.status >= 500 && requestId ? `${message} (request id ${requestId})` : message;
}
