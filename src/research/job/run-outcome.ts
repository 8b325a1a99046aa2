import { NoEvidenceError, ResearchCancelledError, TypedOutputError } from "../engine";
import { DeadlineExceeded } from "./deadlines";
import type { JobRecord, Outcome } from "./job-state";

/** Maps how a run ended to a terminal outcome; anything unexpected is a failed, refunded job. */
export function outcomeOf(error: unknown, record: JobRecord): Outcome {
  const waves = record.progress?.wave ?? 0;
  const spent = record.progress?.cost_usd ?? 0;
  if (error instanceof ResearchCancelledError) {
    if (record.cancelRequested) return { status: "cancelled", costUsd: error.costUsd, waves: error.waves, found: error.found };
    return { status: "failed", error: new DeadlineExceeded().message, costUsd: error.costUsd, waves: error.waves };
  }
  // The typed output failed (no source supports a required field, or it does not conform): refunded,
  // so the result carries the error naming the fields and none of the research (issue 39).
  if (error instanceof TypedOutputError) return { status: "failed", error: error.message, costUsd: error.costUsd, waves };
  if (error instanceof NoEvidenceError) return { status: "failed", error: error.message, costUsd: error.costUsd, waves };
  console.error(`research job ${record.spec.id} failed unexpectedly`, error);
  return { status: "failed", error: "Internal error while researching; the credits were refunded.", costUsd: spent, waves };
}
