import { ApiError } from "../lib/errors";
import { type Actor, recordAudit } from "../services/audit";
import { applyStoredEvent } from "../services/billing/events";
import type { Deps } from "../services/deps";

export { listProcessorEvents } from "../services/billing/events";

/**
 * Applies a stored processor event again through its idempotent handler. The handler's writes
 * are its own batches, so the audit row (attempt and outcome) follows them.
 */
export async function replayProcessorEvent(deps: Deps, actor: Actor, id: string): Promise<void> {
  const outcome = await applyStoredEvent(deps, id);
  await recordAudit(deps.db, actor, {
    action: "processor_event.replay",
    targetType: "processor_event",
    targetId: id,
    details: { outcome: outcome.status, note: outcome.note ?? null },
  });
  // As on the webhook: the failure is stored on the event; the operator sees it here too.
  if (outcome.status === "failed" || outcome.status === "unsupported") throw new ApiError("internal", `The event could not be applied: ${outcome.note}`);
}
