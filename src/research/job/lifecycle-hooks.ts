import type { JobStatus } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { SECOND } from "../../lib/time";
import { enqueueWebhook, eventEnvelope } from "../../webhooks/delivery";
import { type LifecycleEvent, WEBHOOK_EVENT } from "../../webhooks/headers";
import type { ResearchProgress } from "../engine";
import type { JobRecord, JobSpec } from "./job-state";

/** `research.progress` deliveries: at most one per wave, and at most one in this long. */
export const PROGRESS_HOOK_INTERVAL_MS = 10 * SECOND;

/**
 * The terminal delivery a job sends, if any: without `webhook_events`, `research.completed` for
 * any terminal status (as before lifecycle events); with it, the status's own event, if listed.
 */
export function terminalEvent(spec: JobSpec, status: JobStatus): LifecycleEvent | null {
  if (!spec.notifiesWebhook) return null;
  if (!spec.webhookEvents) return WEBHOOK_EVENT;
  const event = status === "succeeded" ? "research.completed" : status === "failed" ? "research.failed" : "research.cancelled";
  return spec.webhookEvents.includes(event) ? event : null;
}

/**
 * A job's non-terminal deliveries (`webhook_events`), queued without holding the run: each is
 * written to the outbox and queued in the background, one after the other. Settlement waits for
 * `enqueued` before the terminal one, so every lifecycle delivery is in the outbox before it.
 */
export class LifecycleHooks {
  /** Lifecycle deliveries being written to the outbox (the run does not wait for them; settlement does). */
  enqueued: Promise<void> = Promise.resolve();

  constructor(private readonly env: Env) {}

  /** Queues `event` if the request asked for it. */
  notify(spec: JobSpec, event: LifecycleEvent, deliveryId: string, data: unknown): void {
    if (!spec.notifiesWebhook || !spec.webhookEvents?.includes(event)) return;
    const body = eventEnvelope(event, spec.id, data);
    this.enqueued = this.enqueued.then(() =>
      enqueueWebhook(this.env, { jobId: spec.id, deliveryId, event, body }).catch((error: unknown) =>
        console.error(`queueing ${event} for job ${spec.id} failed`, error),
      ),
    );
  }

  /**
   * `research.progress`: when a new wave is under way (wave ≥ 1, above the last one delivered) and
   * PROGRESS_HOOK_INTERVAL_MS have passed since the last one; at most one per wave and per 10 s.
   * Marks the record (`progressHook`), which the caller persists.
   */
  progress(record: JobRecord, progress: ResearchProgress): void {
    if (!record.spec.webhookEvents?.includes("research.progress")) return;
    const last = record.progressHook;
    const now = Date.now();
    if (progress.wave < 1 || (last && (progress.wave <= last.wave || now - last.at < PROGRESS_HOOK_INTERVAL_MS))) return;
    record.progressHook = { wave: progress.wave, at: now };
    this.notify(record.spec, "research.progress", `${record.spec.id}:research.progress:${progress.wave}`, progress);
  }
}
