import { TimeoutError } from "./errors.js";

/** Anything that sends a Request: the platform's fetch, or a test's fake. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Sends one attempt and rejects with a TimeoutError when its response has not arrived within
 * `timeoutMs`. The attempt is aborted too (the connection is released), but the answer does not
 * wait on that: a fetch that ignores its signal still times out. Only the wait for the response
 * (its status and headers) is bounded, as openai-node does: a body may take as long as it takes
 * (a job's event stream runs for minutes), and the caller's own signal still stops it.
 */
export function fetchWithin(fetchImpl: FetchLike, request: Request, timeoutMs: number | undefined): Promise<Response> {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs)) return fetchImpl(request);
  const timer = new AbortController();
  const attempt = new Request(request, { signal: AbortSignal.any([request.signal, timer.signal]) });
  return new Promise<Response>((resolve, reject) => {
    const timeout = setTimeout(() => {
      reject(TimeoutError.after(request, timeoutMs));
      timer.abort();
    }, timeoutMs);
    fetchImpl(attempt)
      .then(resolve, reject)
      .finally(() => clearTimeout(timeout));
  });
}
