import { desc, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { processorEvents } from "../../db/schema/billing";
import { ApiError, errorSummary } from "../../lib/errors";
import type { Paging } from "../../lib/paging";
import { nowIso } from "../../lib/time";
import type { BillingDeps } from "./checkout";
import { EVENT_HANDLERS } from "./event-handlers";
import { verifyProcessorSignature } from "./signature";
import { ACCEPTED_EVENT_API_VERSIONS, STRIPE_API_VERSION } from "./stripe-version";

/** `unsupported`: an event of another API version than the one the handlers read (stripe-version.ts); stored, not applied. */
export type StoredEventStatus = "processed" | "ignored" | "failed" | "unsupported";

/** Why an event body cannot be applied here, or null when its API version is one the handlers read. */
export function unsupportedVersion(apiVersion: unknown): string | null {
  if (typeof apiVersion === "string" && ACCEPTED_EVENT_API_VERSIONS.has(apiVersion)) return null;
  return `The event is of Stripe API version ${typeof apiVersion === "string" ? apiVersion : "(none)"}, but this server reads ${STRIPE_API_VERSION}: set the webhook endpoint's API version to ${STRIPE_API_VERSION} (README "Billing"). The event was stored as unsupported, not applied.`;
}

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
  let event: { id?: unknown; type?: unknown; api_version?: unknown };
  try {
    event = JSON.parse(rawBody) as typeof event;
  } catch {
    throw ApiError.invalid("The event body is not JSON.");
  }
  if (typeof event.id !== "string" || typeof event.type !== "string") throw ApiError.invalid("The event has no id or type.");
  // A copy in the pinned version replaces a stored copy that was refused for its version: while
  // an endpoint is upgraded, Stripe sends the same event (same id) to the old and the new endpoint.
  const insert = deps.db.insert(processorEvents).values({ id: event.id, type: event.type, receivedAt: nowIso(), body: rawBody });
  await (unsupportedVersion(event.api_version) === null
    ? insert.onConflictDoUpdate({
        target: processorEvents.id,
        set: { body: rawBody, status: "received", error: null },
        where: eq(processorEvents.status, "unsupported"),
      })
    : insert.onConflictDoNothing());
  const outcome = await applyStoredEvent(deps, event.id);
  // Not a 2xx: Stripe counts the delivery failed, shows it on the endpoint, warns the account by
  // email and retries for up to 3 days, time to set the endpoint's version; a 2xx would hide it.
  if (outcome.status === "unsupported") throw ApiError.invalid(outcome.note ?? "Unsupported API version.");
  return outcome;
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
    const event = JSON.parse(row.body) as Stripe.Event;
    // Checked before the handler: on another version the shapes it reads may be absent, and it would "ignore" a paid invoice.
    const refused = unsupportedVersion(event.api_version);
    if (refused) outcome = { status: "unsupported", note: refused };
    else outcome = handler ? await handler(deps, event) : { status: "ignored", note: `unhandled type ${row.type}` };
  } catch (error) {
    console.error(`processor event ${eventId} (${row.type}) failed: ${errorSummary(error)}`);
    outcome = { status: "failed", note: error instanceof Error ? error.message : String(error) };
  }
  await deps.db
    .update(processorEvents)
    .set({
      status: outcome.status,
      error: outcome.status === "failed" || outcome.status === "unsupported" ? (outcome.note ?? null) : null,
      processedAt: nowIso(),
    })
    .where(eq(processorEvents.id, eventId));
  return outcome;
}

export async function listProcessorEvents(deps: BillingDeps, page: Paging) {
  return deps.db.select().from(processorEvents).orderBy(desc(processorEvents.receivedAt), desc(sql`rowid`)).limit(page.limit).offset(page.offset);
}
