import type { ErrorCode, ResearchResult } from "./types.js";

/**
 * Any failed call: the service's error (its `code` and `message`, the HTTP `status`, the
 * `X-Request-Id` to quote to support, and for a 429 how many seconds `Retry-After` asks for),
 * or, with status 0 and code `network_error`, a service that could not be reached.
 */
export class DeepResearchError extends Error {
  override readonly name = "DeepResearchError";
  readonly status: number;
  /** The service's error code (`insufficient_credits`, `rate_limited`, ...), or `network_error`. */
  readonly code: ErrorCode | "network_error" | (string & {});
  readonly requestId: string | null;
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | null;
  /** Validation issues of a 400, when the service lists them. */
  readonly details: unknown;

  constructor(init: { status: number; code: string; message: string; requestId?: string | null; retryAfter?: number | null; details?: unknown; cause?: unknown }) {
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

  /** The error of a response whose body was already read (`body`: its JSON, or its text). */
  static fromBody(response: Response, body: unknown): DeepResearchError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    const text = typeof body === "string" ? body.slice(0, 200) : "";
    return new DeepResearchError({
      status: response.status,
      code: typeof error?.code === "string" ? error.code : `http_${response.status}`,
      message: typeof error?.message === "string" ? error.message : `HTTP ${response.status} ${response.statusText}${text ? `: ${text}` : ""}`.trim(),
      requestId: response.headers.get("X-Request-Id"),
      retryAfter: retryAfterSecs(response.headers.get("Retry-After")),
      details: error?.details,
    });
  }

  static network(baseUrl: string, cause: unknown): DeepResearchError {
    const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    return new DeepResearchError({ status: 0, code: "network_error", message: `Could not reach ${baseUrl}: ${reason}`, cause });
  }
}

/** research() was aborted through its signal: the job was cancelled; `job` is it as the cancel left it (what was charged). */
export class ResearchCancelledError extends Error {
  override readonly name = "ResearchCancelledError";
  constructor(
    readonly job: ResearchResult,
    cause?: unknown,
  ) {
    super(`Research job ${job.id} was cancelled; ${job.credits_charged} credits were charged for the work already done.`, cause === undefined ? undefined : { cause });
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
