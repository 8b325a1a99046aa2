import { retryAfterSecs } from "./errors.js";
import { type FetchLike, fetchWithin } from "./timeout.js";

export type { FetchLike };

export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  maxRetries?: number;
  /** The first backoff delay; each retry doubles it, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /**
   * The longest wait the client accepts, backoff or `Retry-After` (default 60 s). A 429 asking
   * for longer is returned as it is, so the caller sees it (its error carries `retryAfter`).
   */
  maxDelayMs?: number;
  /** Told before each wait: why (a status, or the network error) and for how long. */
  onRetry?: (retry: { attempt: number; delayMs: number; status: number | null; error: unknown }) => void;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Whether sending the request again cannot do the work twice: a method that is idempotent, or a
 * request carrying an `Idempotency-Key` (the service answers a repeat with the first answer).
 */
function repeatable(request: Request): boolean {
  return SAFE_METHODS.has(request.method.toUpperCase()) || request.headers.has("Idempotency-Key");
}

/**
 * Whether a response is worth another attempt, and when. A 429 always is (the service refused
 * before doing anything); a 5xx, or a 409 `idempotency_conflict` (the first attempt of this key
 * is still running), only when the request is repeatable. Every other status is the answer.
 */
async function retryable(request: Request, response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (!repeatable(request)) return false;
  if (response.status >= 500) return true;
  if (response.status === 409 && request.headers.has("Idempotency-Key")) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string } } | null;
    return body?.error?.code === "idempotency_conflict";
  }
  return false;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Exponential backoff with "equal jitter": half the step fixed, half random, so clients spread out. */
export function backoffMs(retry: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
  return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * A fetch that retries 429s, 5xx, network errors and timeouts with exponential backoff, honouring
 * `Retry-After`. Each attempt sends a clone of the request, so its body and headers (the
 * `Idempotency-Key` included) are the same every time: a retried submit never starts or pays twice.
 * `timeoutMs` bounds each attempt's wait for its response (timeout.ts).
 */
export function retryingFetch(fetchImpl: FetchLike, options: RetryOptions & { timeoutMs?: number } = {}): FetchLike {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  return async (request) => {
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      let response: Response;
      try {
        response = await fetchWithin(fetchImpl, last ? request : request.clone(), options.timeoutMs);
      } catch (error) {
        // An abort is the caller's decision; a network error or a timeout is retried only when repeating is safe.
        if (request.signal.aborted || last || !repeatable(request)) throw error;
        const delayMs = backoffMs(retry, baseDelayMs, maxDelayMs);
        options.onRetry?.({ attempt: retry + 1, delayMs, status: null, error });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || !(await retryable(request, response))) return response;
      const asked = retryAfterSecs(response.headers.get("Retry-After"));
      const delay = asked === null ? backoffMs(retry, baseDelayMs, maxDelayMs) : asked * 1000;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel().catch(() => {});
      options.onRetry?.({ attempt: retry + 1, delayMs: delay, status: response.status, error: null });
      await sleep(delay, request.signal);
    }
  };
}
