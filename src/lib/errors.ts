import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The closed set of error codes the API answers with, and the HTTP status of each.
 * Every failure, from a zod issue to an uncaught exception, leaves as one of these.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  impossible_budget: 400,
  document_limit_exceeded: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  insufficient_credits: 402,
  storage_limit_exceeded: 402,
  forbidden: 403,
  account_suspended: 403,
  email_not_verified: 403,
  not_found: 404,
  email_taken: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  payment_processor_not_configured: 500,
  internal: 500,
  payment_processor_error: 502,
  service_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message } };
    if (this.details !== undefined) body.error.details = this.details;
    return body;
  }

  static invalid(message: string, details?: unknown): ApiError {
    return new ApiError("invalid_request", message, details);
  }

  static unauthorized(message = "Missing or invalid credentials."): ApiError {
    return new ApiError("unauthorized", message);
  }

  static notFound(what = "Resource"): ApiError {
    return new ApiError("not_found", `${what} not found.`);
  }
}

/**
 * One log line for a failure: its class and message, plus the HTTP status, code and request id a
 * provider's error carries (Stripe's do). Never the whole object: a processor error holds its
 * response headers and raw body, which do not belong in logs.
 */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const fields = error as Error & { type?: unknown; statusCode?: unknown; code?: unknown; requestId?: unknown };
  const extra = [
    typeof fields.statusCode === "number" ? `status ${fields.statusCode}` : "",
    typeof fields.code === "string" ? `code ${fields.code}` : "",
    typeof fields.requestId === "string" ? `request ${fields.requestId}` : "",
  ].filter(Boolean);
  const name = typeof fields.type === "string" && fields.type.startsWith("Stripe") ? fields.type : error.name;
  return `${name}: ${error.message}${extra.length ? ` (${extra.join(", ")})` : ""}`;
}
