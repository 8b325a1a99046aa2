import type { Deps } from "../deps";
import { eq } from "drizzle-orm";
import { payments } from "../../db/schema/billing";
import { type Caller, users } from "../../db/schema/users";
import { ApiError, errorSummary } from "../../lib/errors";
import { requireLinkOrigin } from "../link-origin";
import { nowIso } from "../../lib/time";
import { findPack, findPlan, FREE_PLAN_ID } from "./catalog";
import { failPayment } from "./payments";
import { type PaymentProcessor, priceIdFrom, requireProcessor } from "./processor";

export type BillingDeps = Pick<Deps, "db" | "config">;
/** Checkout and portal also send the customer back to the dashboard. */
type ReturningDeps = Pick<Deps, "db" | "config" | "dashboardUrl">;

/** The user's processor customer, created on first use and remembered on the user. */
async function ensureCustomer(deps: BillingDeps, processor: PaymentProcessor, user: Caller): Promise<string> {
  if (user.processorCustomerId) return user.processorCustomerId;
  const customer = await processor.createCustomer(
    { email: user.email, name: `${user.firstName} ${user.lastName}`.trim() || undefined, userId: user.id },
    // Two concurrent first checkouts create one customer.
    `customer:${user.id}`,
  );
  await deps.db.update(users).set({ processorCustomerId: customer.id, updatedAt: nowIso() }).where(eq(users.id, user.id));
  user.processorCustomerId = customer.id;
  return customer.id;
}

function missingPrice(variable: string | null): ApiError {
  return new ApiError("payment_processor_not_configured", `The processor price id is not configured (${variable ?? "no variable"} is unset).`);
}

/**
 * A hosted checkout for a pack (payment mode) or a plan (subscription mode). The pending payment
 * row is written first and its id travels in the session metadata, so the completion event can
 * always find what was bought.
 */
export async function createCheckout(deps: ReturningDeps, user: Caller, item: { packId: string } | { planId: string }): Promise<{ url: string }> {
  const { db, config } = deps;
  // Before the processor or the payments table is touched: no return page, no checkout.
  const returnUrl = `${requireLinkOrigin(deps.dashboardUrl)}/billing`;
  const pack = "packId" in item ? await findPack(db, item.packId) : undefined;
  const plan = "planId" in item ? await findPlan(db, item.planId) : undefined;
  if ("packId" in item && !pack) throw ApiError.invalid(`Unknown pack "${item.packId}".`);
  if ("planId" in item && (!plan || plan.id === FREE_PLAN_ID)) throw ApiError.invalid(`Unknown or free plan "${item.planId}".`);

  const processor = requireProcessor(config);
  const priceId = priceIdFrom(config, pack ? pack.processorPriceEnv : plan!.processorPriceEnv);
  if (!priceId) throw missingPrice(pack ? pack.processorPriceEnv : plan!.processorPriceEnv);
  // A processor refusal here is a 502 like any other processor failure, not an internal error.
  const customer = await ensureCustomer(deps, processor, user).catch((error: unknown) => {
    throw processorFailure(error);
  });

  const paymentId = crypto.randomUUID();
  await db.insert(payments).values({
    id: paymentId,
    userId: user.id,
    kind: pack ? "pack" : "plan_checkout",
    status: "pending",
    packId: pack?.id ?? null,
    planId: plan?.id ?? null,
    packCredits: pack ? pack.credits : plan!.includedCredits,
    packAmountCents: pack ? pack.priceCents : plan!.monthlyPriceCents,
    createdAt: nowIso(),
  });
  const metadata = { payment_id: paymentId, user_id: user.id, ...(pack ? { pack_id: pack.id } : { plan_id: plan!.id }) };
  try {
    const lineItems: { price: string; quantity?: number }[] = [{ price: priceId, quantity: 1 }];
    const overagePrice = plan ? priceIdFrom(config, plan.processorOveragePriceEnv) : null;
    if (overagePrice) lineItems.push({ price: overagePrice }); // metered: no quantity
    const session = await processor.createCheckout(
      {
        mode: pack ? "payment" : "subscription",
        customer,
        clientReferenceId: user.id,
        lineItems,
        metadata,
        successUrl: `${returnUrl}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${returnUrl}?checkout=cancelled`,
      },
      `checkout:${paymentId}`,
    );
    if (!session.url) throw new Error("the processor returned a session without a url");
    await db.update(payments).set({ processorSessionId: session.id }).where(eq(payments.id, paymentId));
    return { url: session.url };
  } catch (error) {
    await failPayment(db, paymentId, `checkout could not be created: ${String(error)}`);
    throw processorFailure(error);
  }
}

/** A processor-side failure, as the client sees it (502, with the processor's message). */
function processorFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  console.error(`payment processor call failed: ${errorSummary(error)}`);
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError("payment_processor_error", `The payment processor refused the request: ${message}`);
}

/** The processor's customer portal (cards, invoices, plan changes). */
export async function createPortal(deps: ReturningDeps, user: Caller): Promise<{ url: string }> {
  const processor = requireProcessor(deps.config);
  if (!user.processorCustomerId) throw ApiError.invalid("No billing account yet: buy a pack or a plan first.");
  const returnUrl = `${requireLinkOrigin(deps.dashboardUrl)}/billing`;
  try {
    return await processor.createPortal(user.processorCustomerId, returnUrl);
  } catch (error) {
    throw processorFailure(error);
  }
}
