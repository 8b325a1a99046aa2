import { desc, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { processorEvents } from "../../db/schema/billing";
import { ApiError, errorSummary } from "../../lib/errors";
import type { Paging } from "../../lib/paging";
import { nowIso } from "../../lib/time";
import type { BillingDeps } from "./checkout";
import { EVENT_HANDLERS } from "./event-handlers";
import { verifyProcessorSignature } from "./signature";

export type StoredEventStatus = "processed" | "ignored" | "failed";

/**
 * POST /api/billing/webhook: verify the signature, store the event with its raw body (before
 * anything is applied, so nothing is lost if applying fails), then apply it.
 */
export async function receiveProcessorEvent(deps: BillingDeps, rawBody: string, signature: string | undefined) {
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    throw new ApiError("payment_processor_not_configured", "Processor webhooks are not configured (STRIPE_WEBHOOK_SECRET is unset).");
  }
  const check = await verifyProcessorSignature(rawBody, signature, secret);
  if (!check.ok) throw ApiError.invalid(`Invalid Stripe-Signature: ${check.reason}.`);
  let event: { id?: unknown; type?: unknown };
  try {
    event = JSON.parse(rawBody) as typeof event;
  } catch {
    throw ApiError.invalid("The event body is not JSON.");
  }
  if (typeof event.id !== "string" || typeof event.type !== "string") throw ApiError.invalid("The event has no id or type.");
  await deps.db.insert(processorEvents).values({ id: event.id, type: event.type, receivedAt: nowIso(), body: rawBody }).onConflictDoNothing();
  return applyStoredEvent(deps, event.id);
}

/**
 * Applies a stored event through its handler and records the outcome on the row. Safe to call
 * any number of times, concurrently too: every handler writes money through idempotency keys.
 * Used by the webhook and by the admin replay.
 */
export async function applyStoredEvent(deps: BillingDeps, eventId: string): Promise<{ status: StoredEventStatus; note?: string }> {
  const row = await deps.db.select().from(processorEvents).where(eq(processorEvents.id, eventId)).get();
  if (!row?.body) throw ApiError.notFound("Processor event with a stored body");
  await deps.db
    .update(processorEvents)
    .set({ attempts: sql`${processorEvents.attempts} + 1` })
    .where(eq(processorEvents.id, eventId));
  const handler = EVENT_HANDLERS[row.type];
  let outcome: { status: StoredEventStatus; note?: string };
  try {
    outcome = handler ? await handler(deps, JSON.parse(row.body) as Stripe.Event) : { status: "ignored", note: `unhandled type ${row.type}` };
  } catch (error) {
    console.error(`processor event ${eventId} (${row.type}) failed: ${errorSummary(error)}`);
    outcome = { status: "failed", note: error instanceof Error ? error.message : String(error) };
  }
  await deps.db
    .update(processorEvents)
    .set({ status: outcome.status, error: outcome.status === "failed" ? (outcome.note ?? null) : null, processedAt: nowIso() })
    .where(eq(processorEvents.id, eventId));
  return outcome;
}

export async function listProcessorEvents(deps: BillingDeps, page: Paging) {
  return deps.db.select().from(processorEvents).orderBy(desc(processorEvents.receivedAt), desc(sql`rowid`)).limit(page.limit).offset(page.offset);
}
