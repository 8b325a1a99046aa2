import type { Caller } from "../db/schema/users";
import { ApiError } from "../lib/errors";
import { quote, type ResearchRequest, ResearchRequestSchema } from "../research/service";
import { webhookDestinationRefusal } from "../webhooks/destination";
import type { MonitorDeps, StoredRequest } from "./monitor-row";

// What a monitor's runs are held to: each run is one research request (built here), checked at
// create and update as its submit would check it, so a monitor that is accepted can run.

export /** The research request one run of this monitor submits: asynchronous, capped by max_credits_per_run. */
function runRequest(stored: StoredRequest, maxCreditsPerRun: number | null): ResearchRequest {
  return ResearchRequestSchema.parse({
    ...stored,
    async: true,
    ...(maxCreditsPerRun !== null ? { max_credits: maxCreditsPerRun } : {}),
  });
}

/**
 * The checks a run's submit makes (400s, a collection's 404), and the per-run cap: a fixed price
 * above max_credits_per_run is 400. Returns the credits each run reserves. Writes nothing.
 */
export async function checkRunnable(deps: MonitorDeps, user: Caller, stored: StoredRequest, maxCreditsPerRun: number | null): Promise<number> {
  const priced = await quote(deps, user, runRequest(stored, maxCreditsPerRun));
  if (!priced.metered && maxCreditsPerRun !== null && priced.credits_reserved > maxCreditsPerRun) {
    throw ApiError.invalid(
      `Invalid request: a ${stored.mode} run costs ${priced.credits_reserved} credits, above max_credits_per_run (${maxCreditsPerRun}); raise it or choose a cheaper mode.`,
    );
  }
  return priced.credits_reserved;
}

/** A monitor's webhook_url: refused as a job's webhook_url is (400 naming the problem). */
export async function checkWebhook(deps: MonitorDeps, url: string | null | undefined): Promise<void> {
  if (!url) return;
  const refusal = await webhookDestinationRefusal(url, deps.config);
  if (refusal) throw ApiError.invalid(`Invalid request: webhook_url: ${refusal.problem}.`);
}
