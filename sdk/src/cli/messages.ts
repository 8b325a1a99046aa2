import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DeepResearchError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResearchCancelledError,
  TimeoutError,
} from "../errors.js";
import { credits } from "./format.js";
import { UsageError } from "./args.js";

/** The CLI's exit codes (also in --help). */
export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, credits: 4, rateLimited: 5, interrupted: 130 } as const;

export interface Outcome {
  message: string;
  exitCode: number;
}

const withRequestId = (error: DeepResearchError) => (error.requestId ? ` (request id ${error.requestId})` : "");

/** Where to go when the credits do not cover a job: after a 402, and after a --quote that is not covered. */
export function insufficientCreditsAdvice(baseUrl: string): string {
  return `Buy credits or a plan on the dashboard's Billing page (${baseUrl}/billing), or pick a cheaper mode with --mode (the prices: ${baseUrl}/api/billing/modes).`;
}

/** What to tell a person about a failure, and the exit code it means (by the error's kind). */
export function explain(error: unknown, baseUrl: string): Outcome {
  if (error instanceof UsageError) return { message: `${error.message}\nRun deep-research --help for the options.`, exitCode: EXIT.usage };
  if (error instanceof ResearchCancelledError) {
    const { job } = error;
    // Ctrl-C after the job ended (a short job ends in well under a second): the cancel stopped nothing.
    if (job.cancel_outcome === "already_finished") {
      return {
        message: `Job ${job.id} had already ${job.status === "cancelled" ? "been cancelled" : job.status} when the cancel arrived: it was charged ${credits(job.credits_charged)}. Nothing was cancelled.`,
        exitCode: EXIT.interrupted,
      };
    }
    return {
      message: `Cancelled job ${job.id}: charged ${credits(job.credits_charged)} for the work already done, the rest refunded.`,
      exitCode: EXIT.interrupted,
    };
  }
  if (!(error instanceof DeepResearchError))
    return { message: `Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, exitCode: EXIT.failed };
  if (error instanceof TimeoutError) {
    return { message: `${error.message}\nThe service may be overloaded; try again, or check DEEP_RESEARCH_BASE_URL.`, exitCode: EXIT.failed };
  }
  if (error instanceof ConnectionError) {
    return { message: `${error.message}\nIs the service running there? Set DEEP_RESEARCH_BASE_URL to its address.`, exitCode: EXIT.failed };
  }
  if (error instanceof PermissionDeniedError) {
    return {
      message:
        error.code === "account_suspended" ? `Your account is suspended: ${error.message} Contact support from the dashboard.` : `Refused: ${error.message}`,
      exitCode: EXIT.auth,
    };
  }
  if (error instanceof AuthenticationError) {
    return {
      message: `Your API key was refused: set DEEP_RESEARCH_API_KEY to a key from the dashboard (API keys page, ${baseUrl}/keys).`,
      exitCode: EXIT.auth,
    };
  }
  if (error instanceof InsufficientCreditsError) {
    return {
      message:
        error.code === "insufficient_credits"
          ? `Your credit balance is too low for this job: ${error.message}\n${insufficientCreditsAdvice(baseUrl)}`
          : error.code === "email_not_verified"
            ? `${error.message}\nThe dashboard's Settings page (${baseUrl}/settings) shows whether the address is verified.`
            : `${error.message}\nSee the dashboard's Billing page (${baseUrl}/billing).`,
      exitCode: EXIT.credits,
    };
  }
  if (error instanceof RateLimitError) {
    return {
      message: `Too many requests: ${error.retryAfter === null ? "wait a little" : `retry in ${Math.ceil(error.retryAfter)} s`} and run it again.`,
      exitCode: EXIT.rateLimited,
    };
  }
  if (error instanceof InvalidRequestError || error instanceof NotFoundError || error instanceof ConflictError) {
    return { message: `The service refused the request (${error.code}): ${error.message}`, exitCode: EXIT.usage };
  }
  return {
    message: `The service failed (HTTP ${error.status}, ${error.code}): ${error.message}${withRequestId(error)}; quote the request id to support if it persists.`,
    exitCode: EXIT.failed,
  };
}
