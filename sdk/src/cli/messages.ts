import { DeepResearchError, ResearchCancelledError } from "../errors.js";
import { credits } from "./format.js";
import { UsageError } from "./args.js";

/** The CLI's exit codes (also in --help). */
export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, credits: 4, rateLimited: 5, interrupted: 130 } as const;

export interface Outcome {
  message: string;
  exitCode: number;
}

const withRequestId = (error: DeepResearchError) => (error.requestId ? ` (request id ${error.requestId})` : "");

/** What to tell a person about a failure, and the exit code it means. */
export function explain(error: unknown, baseUrl: string): Outcome {
  if (error instanceof UsageError) return { message: `${error.message}\nRun deep-research --help for the options.`, exitCode: EXIT.usage };
  if (error instanceof ResearchCancelledError) {
    const { job } = error;
    if (job.status !== "cancelled") {
      return { message: `Job ${job.id} had already ${job.status} when it was interrupted; it was charged ${credits(job.credits_charged)}.`, exitCode: EXIT.interrupted };
    }
    return { message: `Cancelled job ${job.id}: charged ${credits(job.credits_charged)} for the work already done, the rest refunded.`, exitCode: EXIT.interrupted };
  }
  if (!(error instanceof DeepResearchError)) return { message: `Unexpected error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`, exitCode: EXIT.failed };
  if (error.code === "network_error") {
    return { message: `${error.message}\nIs the service running there? Set DEEP_RESEARCH_BASE_URL to its address.`, exitCode: EXIT.failed };
  }
  switch (error.status) {
    case 401:
      return { message: `Your API key was refused: set DEEP_RESEARCH_API_KEY to a key from the dashboard (API keys page, ${baseUrl}/keys).`, exitCode: EXIT.auth };
    case 403:
      return {
        message: error.code === "account_suspended" ? `Your account is suspended: ${error.message} Contact support from the dashboard.` : `Refused: ${error.message}`,
        exitCode: EXIT.auth,
      };
    case 402:
      return {
        message:
          error.code === "insufficient_credits"
            ? `Your credit balance is too low for this job: ${error.message}\nBuy credits or a plan on the dashboard's Billing page (${baseUrl}/billing), or pick a cheaper mode with --mode (the prices: ${baseUrl}/api/billing/modes).`
            : `${error.message}\nSee the dashboard's Billing page (${baseUrl}/billing).`,
        exitCode: EXIT.credits,
      };
    case 429:
      return {
        message: `Too many requests: ${error.retryAfter === null ? "wait a little" : `retry in ${Math.ceil(error.retryAfter)} s`} and run it again.`,
        exitCode: EXIT.rateLimited,
      };
  }
  if (error.status === 400 || error.status === 404 || error.status === 413 || error.status === 415 || error.status === 422) {
    return { message: `The service refused the request (${error.code}): ${error.message}`, exitCode: EXIT.usage };
  }
  return { message: `The service failed (HTTP ${error.status}, ${error.code}): ${error.message}${withRequestId(error)}; quote the request id to support if it persists.`, exitCode: EXIT.failed };
}
