import type { CancelResult, ErrorCode } from "./types.js";

interface ErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | null;
  retryAfter?: number | null;
  details?: unknown;
  cause?: unknown;
}

/**
 * Any failed call: the service's error (its `code` and `message`, the HTTP `status`, the
 * `X-Request-Id` to quote to support, and for a 429 how many seconds `Retry-After` asks for),
 * or, with status 0, a service that could not be reached or did not answer in time
 * (ConnectionError, TimeoutError). Each kind of failure is a subclass (errorFor below), so
 * `catch (e) { if (e instanceof RateLimitError) … }` reads as what happened.
 */
export class DeepResearchError extends Error {
  override readonly name: string = "DeepResearchError";
  readonly status: number;
  /** The service's error code (`insufficient_credits`, `rate_limited`, ...), or `network_error` / `timeout` (status 0). */
  readonly code: ErrorCode | "network_error" | "timeout" | (string & {});
  readonly requestId: string | null;
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  /** Validation issues of a 400, when the service lists them. */
  readonly details: unknown;

  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.details = init.details;
  }

  /** The error a non-2xx response stands for; a body that is not the service's error JSON still gives a useful message. */
  static async fromResponse(response: Response): Promise<DeepResearchError> {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: a proxy's or load balancer's page.
    }
    return DeepResearchError.fromBody(response, body);
  }

  /** The error of a response whose body was already read (`body`: its JSON, or its text), as the subclass of its kind. */
  static fromBody(response: Response, body: unknown): DeepResearchError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    const text = typeof body === "string" ? body.slice(0, 200) : "";
    return errorFor({
      status: response.status,
      code: typeof error?.code === "string" ? error.code : `http_${response.status}`,
      message: typeof error?.message === "string" ? error.message : `HTTP ${response.status} ${response.statusText}${text ? `: ${text}` : ""}`.trim(),
      requestId: response.headers.get("X-Request-Id"),
      retryAfter: retryAfterSecs(response.headers.get("Retry-After")),
      details: error?.details,
    });
  }

  static network(baseUrl: string, cause: unknown): ConnectionError {
    const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    return new ConnectionError({ status: 0, code: "network_error", message: `Could not reach ${baseUrl}: ${reason}`, cause });
  }
}

/** 400, 413, 415, 422: the request itself is wrong (its `details` list a 400's issues); sending it again changes nothing. */
export class InvalidRequestError extends DeepResearchError {
  override readonly name: string = "InvalidRequestError";
}

/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends DeepResearchError {
  override readonly name: string = "AuthenticationError";
}

/**
 * 403: the key is known but may not do this (`account_suspended`). A kind of AuthenticationError,
 * since for a caller both mean "this key will not work" (the CLI exits 3 for either).
 */
export class PermissionDeniedError extends AuthenticationError {
  override readonly name: string = "PermissionDeniedError";
}

/** 402 `insufficient_credits`: the balance (or plan) cannot pay for the reservation; nothing was started. */
export class InsufficientCreditsError extends DeepResearchError {
  override readonly name: string = "InsufficientCreditsError";
}

/**
 * 403 `email_not_verified`: the account's email is not verified and the job would spend more than
 * an unverified account may; nothing was started. A kind of InsufficientCreditsError: the key
 * works, the credits cannot pay for this until the address is verified (the link emailed at sign-up).
 */
export class EmailNotVerifiedError extends InsufficientCreditsError {
  override readonly name: string = "EmailNotVerifiedError";
}

/** 404: no such job, collection or document for this account (another account's looks the same). */
export class NotFoundError extends DeepResearchError {
  override readonly name: string = "NotFoundError";
}

/**
 * An Idempotency-Key in conflict: 409 `idempotency_conflict` (its first request is still being
 * processed: retried by the client) or 422 `idempotency_key_reused` (the key went with another body).
 */
export class ConflictError extends DeepResearchError {
  override readonly name: string = "ConflictError";
}

/** 429 after the retries, or at once when `retryAfter` is longer than the client waits. */
export class RateLimitError extends DeepResearchError {
  override readonly name: string = "RateLimitError";
}

/** 5xx: the service failed; quote `requestId` to support. */
export class ServerError extends DeepResearchError {
  override readonly name: string = "ServerError";
}

/** Status 0, code `network_error`: the service could not be reached (DNS, refused, reset). */
export class ConnectionError extends DeepResearchError {
  override readonly name: string = "ConnectionError";
}

/** Status 0, code `timeout`: no response within the `timeout` (per attempt; retried like a network error where that is safe). */
export class TimeoutError extends ConnectionError {
  override readonly name: string = "TimeoutError";

  static after(request: Request, timeoutMs: number): TimeoutError {
    const url = new URL(request.url);
    return new TimeoutError({ status: 0, code: "timeout", message: `${request.method} ${url.origin}${url.pathname} did not answer within ${timeoutMs} ms.` });
  }
}

/** The codes whose kind is not their status's: an Idempotency-Key used with another body is a conflict, not a bad request. */
const KIND_OF_CODE: Record<string, typeof DeepResearchError> = {
  idempotency_key_reused: ConflictError,
  idempotency_conflict: ConflictError,
  email_not_verified: EmailNotVerifiedError,
};

const KIND_OF_STATUS: Record<number, typeof DeepResearchError> = {
  0: ConnectionError,
  400: InvalidRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: InvalidRequestError,
  415: InvalidRequestError,
  422: InvalidRequestError,
  429: RateLimitError,
};

/** The error of its kind (by code, then by status); a status no kind names is a plain DeepResearchError. */
export function errorFor(init: ErrorInit): DeepResearchError {
  const Kind = KIND_OF_CODE[init.code] ?? KIND_OF_STATUS[init.status] ?? (init.status >= 500 ? ServerError : DeepResearchError);
  return new Kind(init);
}

/**
 * research() was aborted through its signal and the job was cancelled; `job` is the cancel's
 * answer: the job as the cancel left it (what was charged), and `cancel_outcome`, which is
 * `already_finished` when the job ended before the cancel arrived (it was then not stopped).
 */
export class ResearchCancelledError extends Error {
  override readonly name = "ResearchCancelledError";
  constructor(
    readonly job: CancelResult,
    cause?: unknown,
  ) {
    super(`Research job ${job.id}: ${job.cancel_message}`, cause === undefined ? undefined : { cause });
  }
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSecs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
