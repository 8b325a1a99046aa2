import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { autoTopups, payments } from "../../db/schema/billing";
import { type Caller, users } from "../../db/schema/users";
import { ApiError, errorSummary } from "../../lib/errors";
import { HOUR, nowIso } from "../../lib/time";
import { getBalance } from "../ledger";
import { findPack } from "./catalog";
import type { BillingDeps } from "./checkout";
import { completePayment, failPayment } from "./payments";
import { processorClient } from "./processor";

/** A claim older than this is presumed lost (the worker died mid-payment) and may be retaken. */
const STALE_CLAIM_MS = HOUR;

export interface AutoTopupSettings {
  enabled: boolean;
  thresholdCredits: number;
  packId: string;
}

/** An account that never set auto top-up: off, threshold 0, the smallest pack. */
export const AUTO_TOPUP_DEFAULTS: AutoTopupSettings = { enabled: false, thresholdCredits: 0, packId: "starter" };

export async function saveAutoTopup(deps: BillingDeps, userId: string, settings: AutoTopupSettings): Promise<void> {
  if (!(await findPack(deps.db, settings.packId))) throw ApiError.invalid(`Unknown pack "${settings.packId}".`);
  const values = { ...settings, updatedAt: nowIso() };
  await deps.db
    .insert(autoTopups)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: autoTopups.userId, set: values });
}

export async function getAutoTopup(deps: BillingDeps, userId: string) {
  return deps.db.select().from(autoTopups).where(eq(autoTopups.userId, userId)).get();
}

/**
 * The account's auto top-up as GET /api/billing/auto-topup answers it: its settings (the defaults
 * when never set), whether a top-up payment is under way, and whether there is a card to charge.
 */
export async function autoTopupStatus(deps: BillingDeps, user: Pick<Caller, "id" | "processorCustomerId">) {
  const [row, cardOnFile] = await Promise.all([getAutoTopup(deps, user.id), hasCardOnFile(deps, user)]);
  return {
    enabled: row?.enabled ?? AUTO_TOPUP_DEFAULTS.enabled,
    threshold_credits: row?.thresholdCredits ?? AUTO_TOPUP_DEFAULTS.thresholdCredits,
    pack_id: row?.packId ?? AUTO_TOPUP_DEFAULTS.packId,
    in_flight: Boolean(row?.inFlightPaymentId),
    card_on_file: cardOnFile,
  };
}

/**
 * Whether a top-up has a card to charge, from what the service knows without asking the processor:
 * a processor customer and a payment of theirs that completed (a pack checkout saves its card for
 * off-session use; a plan's card stays with the customer). Before the first purchase there is none,
 * and a top-up would only record a failed payment ("no saved payment method").
 */
export async function hasCardOnFile(deps: BillingDeps, user: Pick<Caller, "id" | "processorCustomerId">): Promise<boolean> {
  if (!user.processorCustomerId) return false;
  const paid = await deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.userId, user.id), inArray(payments.status, ["completed", "refunded"])))
    .limit(1)
    .get();
  return paid !== undefined;
}

/** Frees the user's in-flight slot if `paymentId` holds it. */
export async function releaseAutoTopupClaim(deps: BillingDeps, userId: string, paymentId: string): Promise<void> {
  await deps.db
    .update(autoTopups)
    .set({ inFlightPaymentId: null, inFlightSince: null })
    .where(and(eq(autoTopups.userId, userId), eq(autoTopups.inFlightPaymentId, paymentId)));
}

/**
 * Called after a debit (in the background): when auto top-up is on and the balance is below the
 * threshold, charges the chosen pack off-session on the customer's saved card. A conditional claim
 * on the settings row keeps at most one top-up in flight per user. Never throws: a failure is a
 * failed payment in the user's history, not a broken request.
 */
export async function maybeStartAutoTopup(deps: BillingDeps, userId: string): Promise<"started" | "skipped"> {
  const settings = await getAutoTopup(deps, userId);
  if (!settings?.enabled) return "skipped";
  if ((await getBalance(deps.db, userId)) >= settings.thresholdCredits) return "skipped";
  const processor = processorClient(deps.config);
  if (!processor) return "skipped";

  const paymentId = crypto.randomUUID();
  const claimed = await deps.db
    .update(autoTopups)
    .set({ inFlightPaymentId: paymentId, inFlightSince: nowIso() })
    .where(
      and(
        eq(autoTopups.userId, userId),
        eq(autoTopups.enabled, true),
        or(isNull(autoTopups.inFlightPaymentId), lt(autoTopups.inFlightSince, new Date(Date.now() - STALE_CLAIM_MS).toISOString())),
      ),
    )
    .returning({ packId: autoTopups.packId });
  const packId = claimed[0]?.packId;
  if (!packId) return "skipped";

  const pack = await findPack(deps.db, packId);
  const user = await deps.db.select().from(users).where(eq(users.id, userId)).get();
  if (!pack || !user) {
    await releaseAutoTopupClaim(deps, userId, paymentId);
    return "skipped";
  }
  await deps.db.insert(payments).values({
    id: paymentId,
    userId,
    kind: "auto_topup",
    status: "pending",
    packId: pack.id,
    packCredits: pack.credits,
    packAmountCents: pack.priceCents,
    createdAt: nowIso(),
  });
  try {
    if (!user.processorCustomerId) throw new Error("no saved payment method: buy a pack once to save a card");
    const paymentMethod = await processor.savedCard(user.processorCustomerId);
    if (!paymentMethod) throw new Error("no saved payment method on the billing account");
    const intent = await processor.chargeSavedCard(
      {
        amountCents: pack.priceCents,
        customer: user.processorCustomerId,
        paymentMethod,
        description: `Auto top-up: ${pack.name} (${pack.credits} credits)`,
        metadata: { kind: "auto_topup", payment_id: paymentId, user_id: userId, pack_id: pack.id },
      },
      `auto_topup:${paymentId}`,
    );
    await deps.db.update(payments).set({ processorPaymentIntentId: intent.id }).where(eq(payments.id, paymentId));
    if (intent.status === "succeeded") {
      const payment = (await deps.db.select().from(payments).where(eq(payments.id, paymentId)).get())!;
      await completePayment(deps.db, payment, "auto_topup", { paymentIntentId: intent.id });
      await releaseAutoTopupClaim(deps, userId, paymentId);
    } else if (intent.status !== "processing") {
      throw new Error(`payment ${intent.status}`);
    } // processing: the payment_intent.succeeded / payment_failed event finishes it
    return "started";
  } catch (error) {
    console.error(`auto top-up ${paymentId} failed: ${errorSummary(error)}`);
    await failPayment(deps.db, paymentId, `auto top-up failed: ${error instanceof Error ? error.message : String(error)}`);
    await releaseAutoTopupClaim(deps, userId, paymentId);
    return "started";
  }
}
