import { and, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { payments } from "../../db/schema/billing";
import { ledgerEntries } from "../../db/schema/ledger";
import { users } from "../../db/schema/users";
import { nowIso } from "../../lib/time";
import { ledgerChangeStatements } from "../ledger";
import { releaseAutoTopupClaim } from "./auto-topup";
import { findPlan, FREE_PLAN_ID, listPlans, type PlanRow } from "./catalog";
import type { BillingDeps } from "./checkout";
import { completePayment, failPayment, findPayment, findPaymentBy, type PaymentRow } from "./payments";
import { priceIdFrom } from "./processor";
import { applySubscriptionChange, findSubscriptionByProcessorId } from "./subscriptions";

/** What applying an event did: `processed` changed something (or confirmed it was done), `ignored` had nothing to do. */
export type EventOutcome = { status: "processed" | "ignored"; note?: string };
type Handler = (deps: BillingDeps, event: Stripe.Event) => Promise<EventOutcome>;

const ignored = (note: string): EventOutcome => ({ status: "ignored", note });
const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));
const isoFromUnix = (secs: number | null | undefined) => (secs ? new Date(secs * 1000).toISOString() : null);

/** The payment a checkout session was for: by our metadata first, then by the session id. */
async function paymentForSession(deps: BillingDeps, session: Stripe.Checkout.Session): Promise<PaymentRow | undefined> {
  const byMetadata = session.metadata?.payment_id ? await findPayment(deps.db, session.metadata.payment_id) : undefined;
  return byMetadata ?? (await findPaymentBy(deps.db, { sessionId: session.id }));
}

async function checkoutPaid(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const session = event.data.object as Stripe.Checkout.Session;
  const payment = await paymentForSession(deps, session);
  if (!payment) return ignored(`no payment matches checkout session ${session.id}`);
  if (session.mode === "subscription") {
    // The plan's credits arrive with invoice.paid; this records the checkout as done.
    await completeWithoutCredits(deps, payment, session);
    return { status: "processed", note: "plan checkout completed" };
  }
  if (session.payment_status === "unpaid") return ignored("payment still processing; awaiting async_payment_succeeded");
  const { granted } = await completePayment(deps.db, payment, "purchase", { paymentIntentId: idOf(session.payment_intent) });
  return { status: "processed", note: granted ? `granted ${payment.packCredits} credits` : "already granted" };
}

async function completeWithoutCredits(deps: BillingDeps, payment: PaymentRow, session: Stripe.Checkout.Session) {
  await deps.db
    .update(payments)
    .set({ status: "completed", completedAt: nowIso() })
    .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
  await rememberCustomer(deps, payment.userId, idOf(session.customer));
}

/** Stores the processor customer on a user who has none yet (never replaces one). */
async function rememberCustomer(deps: BillingDeps, userId: string, customer: string | null) {
  if (!customer) return;
  await deps.db
    .update(users)
    .set({ processorCustomerId: customer })
    .where(and(eq(users.id, userId), sql`${users.processorCustomerId} is null`));
}

async function checkoutFailed(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const session = event.data.object as Stripe.Checkout.Session;
  const payment = await paymentForSession(deps, session);
  if (!payment) return ignored(`no payment matches checkout session ${session.id}`);
  await failPayment(deps.db, payment.id, "the payment failed after checkout");
  return { status: "processed", note: "payment marked failed" };
}

async function autoTopupPayment(deps: BillingDeps, intent: Stripe.PaymentIntent): Promise<PaymentRow | undefined> {
  if (intent.metadata?.kind !== "auto_topup") return undefined;
  const byMetadata = intent.metadata.payment_id ? await findPayment(deps.db, intent.metadata.payment_id) : undefined;
  return byMetadata ?? (await findPaymentBy(deps.db, { paymentIntentId: intent.id }));
}

async function paymentIntentSucceeded(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const intent = event.data.object as Stripe.PaymentIntent;
  const payment = await autoTopupPayment(deps, intent);
  if (!payment) return ignored("not an auto top-up (checkout payments are applied from checkout events)");
  const { granted } = await completePayment(deps.db, payment, "auto_topup", { paymentIntentId: intent.id });
  await releaseAutoTopupClaim(deps, payment.userId, payment.id);
  return { status: "processed", note: granted ? `granted ${payment.packCredits} credits` : "already granted" };
}

async function paymentIntentFailed(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const intent = event.data.object as Stripe.PaymentIntent;
  const payment = await autoTopupPayment(deps, intent);
  if (!payment) return ignored("not an auto top-up");
  await failPayment(deps.db, payment.id, intent.last_payment_error?.message ?? "the payment failed");
  await releaseAutoTopupClaim(deps, payment.userId, payment.id);
  return { status: "processed", note: "auto top-up marked failed" };
}

/** The plan a processor price id belongs to, through the STRIPE_PRICE_* variables. */
async function planForPrice(deps: BillingDeps, priceId: string | null | undefined): Promise<PlanRow | undefined> {
  if (!priceId) return undefined;
  return (await listPlans(deps.db)).find((plan) => priceIdFrom(deps.config, plan.processorPriceEnv) === priceId);
}

async function userForCustomer(deps: BillingDeps, metadataUserId: string | undefined, customer: string | null) {
  if (metadataUserId) {
    const user = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, metadataUserId)).get();
    if (user) return user.id;
  }
  if (!customer) return undefined;
  return (await deps.db.select({ id: users.id }).from(users).where(eq(users.processorCustomerId, customer)).get())?.id;
}

function invoiceSubscription(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return { subscriptionId: idOf(details?.subscription), metadata: details?.metadata ?? {} };
}

function invoicePriceIds(invoice: Stripe.Invoice): string[] {
  return invoice.lines.data.map((line) => idOf(line.pricing?.price_details?.price)).filter((id): id is string => Boolean(id));
}

const GRANTING_BILLING_REASONS = new Set(["subscription_create", "subscription_cycle"]);

/** A paid plan invoice: the plan's included credits for that period, once per invoice, and a payment row. */
async function invoicePaid(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const invoice = event.data.object as Stripe.Invoice;
  const { subscriptionId, metadata } = invoiceSubscription(invoice);
  if (!subscriptionId) return ignored("not a subscription invoice");
  // A period's credits come with the invoice that opens the period; proration and manual
  // invoices (plan changes mid-period) pay money but do not start a new month of credits.
  if (!GRANTING_BILLING_REASONS.has(invoice.billing_reason ?? "")) return ignored(`no credits for a ${invoice.billing_reason} invoice`);
  const stored = await findSubscriptionByProcessorId(deps.db, subscriptionId);
  let plan: PlanRow | undefined;
  for (const price of invoicePriceIds(invoice)) plan ??= await planForPrice(deps, price);
  plan ??= metadata.plan_id ? await findPlan(deps.db, metadata.plan_id) : undefined;
  plan ??= stored ? await findPlan(deps.db, stored.planId) : undefined;
  if (!plan || plan.id === FREE_PLAN_ID) return ignored(`no paid plan matches invoice ${invoice.id}`);
  const userId = stored?.userId ?? (await userForCustomer(deps, metadata.user_id, idOf(invoice.customer)));
  if (!userId) return ignored(`no user matches invoice ${invoice.id}`);

  const paymentId = crypto.randomUUID();
  await deps.db
    .insert(payments)
    .values({
      id: paymentId,
      userId,
      kind: "plan_invoice",
      status: "pending",
      planId: plan.id,
      packCredits: plan.includedCredits,
      packAmountCents: invoice.amount_paid,
      processorInvoiceId: invoice.id,
      createdAt: nowIso(),
    })
    .onConflictDoNothing();
  const payment = await findPaymentBy(deps.db, { invoiceId: invoice.id! });
  if (!payment) throw new Error(`payment row for invoice ${invoice.id} vanished`);
  const { granted } = await completePayment(deps.db, payment, "plan_grant");
  return { status: "processed", note: granted ? `granted ${plan.includedCredits} plan credits` : "already granted" };
}

async function subscriptionChanged(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const subscription = event.data.object as Stripe.Subscription;
  const deleted = event.type === "customer.subscription.deleted";
  const stored = await findSubscriptionByProcessorId(deps.db, subscription.id);
  const userId = stored?.userId ?? (await userForCustomer(deps, subscription.metadata?.user_id, idOf(subscription.customer)));
  if (!userId) return ignored(`no user matches subscription ${subscription.id}`);
  const item = subscription.items.data.find((i) => i.price.recurring?.usage_type !== "metered") ?? subscription.items.data[0];
  const plan =
    (await planForPrice(deps, item?.price.id)) ?? (subscription.metadata?.plan_id ? await findPlan(deps.db, subscription.metadata.plan_id) : undefined);
  if (!plan && !deleted) return ignored(`no plan matches subscription ${subscription.id}`);
  // A subscription made outside our checkout (the processor's dashboard) still links its customer.
  await rememberCustomer(deps, userId, idOf(subscription.customer));
  const applied = await applySubscriptionChange(deps.db, {
    userId,
    planId: deleted ? FREE_PLAN_ID : plan!.id,
    status: deleted ? "canceled" : subscription.status,
    processorSubscriptionId: subscription.id,
    currentPeriodStart: isoFromUnix(item?.current_period_start),
    currentPeriodEnd: isoFromUnix(item?.current_period_end),
    eventCreated: event.created,
  });
  return applied
    ? { status: "processed", note: deleted ? "back to Free" : `plan ${plan!.id} (${subscription.status})` }
    : ignored("a newer subscription event was already applied");
}

/**
 * A refund takes back the credits it paid for, in proportion to the amount refunded (refunds
 * can be partial and repeated; `amount_refunded` is cumulative). Credits already spent cannot be
 * taken: the debit stops at zero and the shortfall is recorded on the payment. The ledger entry
 * and the payment's refund counters move in one batch.
 *
 * The debit's idempotency key is the payment's refund state it was computed from
 * (`refund:<payment>:<credits refunded before>`), not the event: two different refund events of
 * one charge handled at once both compute from the same state, so only one debit can land; the
 * other re-reads the payment and takes only what is still owed. (Keying by event let both land
 * and took more credits than were refunded.)
 */
async function chargeRefunded(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  const charge = event.data.object as Stripe.Charge;
  for (let attempt = 0; attempt < 5; attempt++) {
    const payment = await findPaymentBy(deps.db, { paymentIntentId: idOf(charge.payment_intent) });
    if (!payment || payment.kind === "plan_invoice" || payment.kind === "plan_checkout") {
      return ignored(payment ? "plan payments are refunded through the subscription" : `no payment matches charge ${charge.id}`);
    }
    const target = charge.amount > 0 ? Math.floor((payment.packCredits * charge.amount_refunded) / charge.amount) : payment.packCredits;
    const toTake = target - payment.refundedCredits;
    // Already taken (a redelivery, or a later cumulative refund got here first): the refund is applied.
    if (toTake <= 0) return { status: "processed", note: "refund already applied" };
    const debit = ledgerChangeStatements(deps.db, payment.userId, {
      kind: "admin_adjustment",
      delta: -toTake,
      clampAtZero: true,
      idempotencyKey: `refund:${payment.id}:${payment.refundedCredits}`,
      relatedId: payment.id,
      note: `Processor refund of ${charge.amount_refunded} cents on charge ${charge.id}`,
    });
    const taken = sql`coalesce((select -${ledgerEntries.delta} from ${ledgerEntries} where ${ledgerEntries.id} = ${debit.id}), 0)`;
    const [, , , written] = await deps.db.batch([
      debit.insert,
      debit.update,
      deps.db
        .update(payments)
        .set({
          refundedCredits: target,
          refundShortfallCredits: sql`${payments.refundShortfallCredits} + ${toTake} - ${taken}`,
          status: charge.refunded ? "refunded" : payments.status,
        })
        .where(
          and(
            eq(payments.id, payment.id),
            eq(payments.refundedCredits, payment.refundedCredits),
            sql`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.id} = ${debit.id})`,
          ),
        ),
      deps.db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.id, debit.id)),
    ]);
    if (written.length > 0) return { status: "processed", note: `took back up to ${toTake} credits` };
    // Another refund of this payment landed first: recompute from the new state.
  }
  throw new Error(`refund of charge ${charge.id} kept racing with other refunds; will be retried`);
}

export const EVENT_HANDLERS: Record<string, Handler> = {
  "checkout.session.completed": checkoutPaid,
  "checkout.session.async_payment_succeeded": checkoutPaid,
  "checkout.session.async_payment_failed": checkoutFailed,
  "payment_intent.succeeded": paymentIntentSucceeded,
  "payment_intent.payment_failed": paymentIntentFailed,
  "invoice.paid": invoicePaid,
  "customer.subscription.created": subscriptionChanged,
  "customer.subscription.updated": subscriptionChanged,
  "customer.subscription.deleted": subscriptionChanged,
  "charge.refunded": chargeRefunded,
};
