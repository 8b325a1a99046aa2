import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { jwtAuth } from "../../middleware/jwt-auth";
import { getAutoTopup, saveAutoTopup } from "../../services/billing/auto-topup";
import { listPacks, listPlans, packDto, planDto } from "../../services/billing/catalog";
import { createCheckout, createPortal } from "../../services/billing/checkout";
import { receiveProcessorEvent } from "../../services/billing/events";
import { paymentDto, paymentHistory } from "../../services/billing/payments";
import { currentPlan, overageThisPeriod } from "../../services/billing/subscriptions";
import { modePrices, OP_PRICES, RESEARCH_MODES } from "../../research/service";
import { ApiError } from "../../lib/errors";
import { PAYMENT_KINDS, PAYMENT_STATUSES } from "../../db/schema/billing";

const tags = ["Billing"];
export const billingRoutes = createRouter();


const PackDto = z
  .object({ id: z.string(), name: z.string(), credits: z.int(), price_cents: z.int(), blurb: z.string() })
  .openapi("PackDto");
const PlanDto = z
  .object({
    id: z.string(),
    name: z.string(),
    monthly_price_cents: z.int(),
    included_credits: z.int(),
    overage_micros: z.int().openapi({ description: "Per-credit overage rate in micro-USD" }),
    breakeven_credits: z.int().openapi({ description: "Monthly usage above which the plan costs less than packs" }),
    blurb: z.string(),
    features: z.array(z.string()),
  })
  .openapi("PlanDto");
const OpPriceDto = z.object({ op: z.string(), credits: z.number(), note: z.string() }).openapi("OpPrice");
const ModePriceDto = z
  .object({
    mode: z.enum(RESEARCH_MODES),
    credits: z.int().nullable().openapi({ description: "Fixed price in credits; null for max, which is metered up to max_credits." }),
    max_cost_usd: z.number().nullable().openapi({ description: "The cost envelope in USD; null for max (max_credits / 100)." }),
    max_wallclock_secs: z.int(),
    max_sources: z.int(),
    max_searches: z.int(),
    max_waves: z.int(),
    critic: z.boolean().openapi({ description: "Whether a critic stage checks the brief." }),
    async_by_default: z.boolean().openapi({ description: "A job of this mode answers 202 unless max_wallclock_secs brings it to 60 s or less." }),
  })
  .openapi("ModePrice");
const CheckoutBody = z
  .union([
    z.strictObject({ pack_id: z.string().min(1).max(64) }),
    z.strictObject({ plan_id: z.string().min(1).max(64) }),
  ])
  .openapi("CheckoutBody", { description: "A pack (one-off payment) or, instead, a plan (subscription)." });
const CheckoutResponse = z.object({ url: z.url() }).openapi("CheckoutResponse");
const PaymentRowDto = z
  .object({
    id: z.uuid(),
    created_at: z.iso.datetime(),
    status: z.enum(PAYMENT_STATUSES),
    pack_credits: z.int(),
    pack_amount_cents: z.int(),
    completed_at: z.iso.datetime().nullable(),
    kind: z.enum(PAYMENT_KINDS),
    pack_id: z.string().nullable(),
    plan_id: z.string().nullable(),
    error: z.string().nullable(),
  })
  .openapi("PaymentRow");
const autoTopupFields = {
  enabled: z.boolean(),
  threshold_credits: z.int().min(0).max(10_000_000),
  pack_id: z.string().min(1).max(64),
};
const AutoTopupBody = z.strictObject(autoTopupFields).openapi("AutoTopupBody");
// Its own object, not AutoTopupBody.extend(): that publishes an allOf of two closed objects no response satisfies.
const AutoTopupSettings = z
  .object({ ...autoTopupFields, in_flight: z.boolean().openapi({ description: "A top-up payment is under way" }) })
  .openapi("AutoTopupSettings");
const SubscriptionDto = z
  .object({
    plan: PlanDto,
    status: z.string(),
    current_period_end: z.iso.datetime().nullable(),
    overage_credits_this_period: z.int(),
    overage_usd_micros_this_period: z.int(),
  })
  .openapi("SubscriptionDto");

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/packs",
    tags,
    summary: "Credit packs (pay as you go)",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    responses: { 200: jsonResponse(z.array(PackDto), "Packs, smallest first"), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listPacks(c.var.deps.db)).map(packDto), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/plans",
    tags,
    summary: "Monthly plans",
    responses: { 200: jsonResponse(z.array(PlanDto), "Plans, Free first") },
  }),
  async (c) => c.json((await listPlans(c.var.deps.db)).map(planDto), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/op-prices",
    tags,
    summary: "The metered price of each research operation (every job is metered with this list)",
    responses: { 200: jsonResponse(z.array(OpPriceDto), "Operation prices") },
  }),
  (c) => c.json(OP_PRICES.map(({ op, credits, note }) => ({ op, credits, note })), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/modes",
    tags,
    summary: "The research modes: the credit price and limits of each",
    responses: { 200: jsonResponse(z.array(ModePriceDto), "Modes, cheapest first") },
  }),
  (c) => c.json(modePrices(), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "post",
    path: "/checkout",
    tags,
    summary: "Start a hosted checkout for a pack or a plan",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    request: { body: jsonBody(CheckoutBody) },
    responses: {
      200: jsonResponse(CheckoutResponse, "The hosted checkout URL"),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const item = "pack_id" in body ? { packId: body.pack_id } : { planId: body.plan_id };
    return c.json(await createCheckout(c.var.deps, c.var.user, item), 200);
  },
);

billingRoutes.openapi(
  createRoute({
    method: "post",
    path: "/portal",
    tags,
    summary: "Open the processor's customer portal (cards, invoices, plan changes)",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    responses: {
      200: jsonResponse(CheckoutResponse, "The portal URL"),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error"),
    },
  }),
  async (c) => c.json(await createPortal(c.var.deps, c.var.user), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/payment-history",
    tags,
    summary: "Your payments, newest first",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    request: { query: PagingQuery },
    responses: { 200: jsonResponse(z.array(PaymentRowDto), "Payments"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => c.json((await paymentHistory(c.var.deps.db, c.var.user.id, c.req.valid("query"))).map(paymentDto), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "put",
    path: "/auto-topup",
    tags,
    summary: "Configure auto top-up: buy a pack automatically when the balance drops below a threshold",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    request: { body: jsonBody(AutoTopupBody) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await saveAutoTopup(c.var.deps, c.var.user.id, { enabled: body.enabled, thresholdCredits: body.threshold_credits, packId: body.pack_id });
    return c.body(null, 200);
  },
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auto-topup",
    tags,
    summary: "Your auto top-up settings",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    responses: {
      200: jsonResponse(AutoTopupSettings, "Settings (disabled when never set)"),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => {
    const row = await getAutoTopup(c.var.deps, c.var.user.id);
    return c.json(
      { enabled: row?.enabled ?? false, threshold_credits: row?.thresholdCredits ?? 0, pack_id: row?.packId ?? "starter", in_flight: Boolean(row?.inFlightPaymentId) },
      200,
    );
  },
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription",
    tags,
    summary: "Your current plan, its period and the overage used in it",
    security: JWT_SECURITY,
    middleware: [jwtAuth] as const,
    responses: { 200: jsonResponse(SubscriptionDto, "The current plan"), ...errorResponses("unauthorized") },
  }),
  async (c) => {
    const current = await currentPlan(c.var.deps.db, c.var.user.id);
    const overage = current.paid ? await overageThisPeriod(c.var.deps.db, c.var.user.id, current.currentPeriodStart) : 0;
    return c.json(
      {
        plan: planDto(current.plan),
        status: current.status,
        current_period_end: current.currentPeriodEnd,
        overage_credits_this_period: overage,
        overage_usd_micros_this_period: overage * current.plan.overageMicros,
      },
      200,
    );
  },
);

billingRoutes.openapi(
  createRoute({
    method: "post",
    path: "/webhook",
    tags,
    summary: "The payment processor's events (Stripe-Signature verified)",
    request: { headers: z.object({ "stripe-signature": z.string().optional() }) },
    responses: {
      200: jsonResponse(z.object({ received: z.literal(true), status: z.string() }), "Stored and applied (or ignored)"),
      ...errorResponses("invalid_request", "payment_processor_not_configured", "internal"),
    },
  }),
  async (c) => {
    const outcome = await receiveProcessorEvent(c.var.deps, await c.req.text(), c.req.header("Stripe-Signature"));
    // A failure is stored with the event; 500 asks the processor to deliver it again later.
    if (outcome.status === "failed") throw new ApiError("internal", `The event was stored but could not be applied: ${outcome.note}`);
    return c.json({ received: true as const, status: outcome.status }, 200);
  },
);
