import { peek, pageWithLink } from "../../http/next-page";
import { accountLimitNote, withLimitState } from "../../http/account-limit-docs";
import { limitPerAccount } from "../../middleware/account-rate-limit";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse, NO_SECURITY, noBody, pageResponse } from "../../http/openapi";
import { PagingQuery } from "../../lib/paging";
import { getAutoTopup, hasCardOnFile, saveAutoTopup } from "../../services/billing/auto-topup";
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
  .object({
    id: z.string().openapi({ description: "The pack's id, for checkout and auto top-up (`starter`, `handful`, `workshop`, `warehouse`)." }),
    name: z.string().openapi({ description: "The pack's display name." }),
    credits: z.int().openapi({ description: "Credits the pack adds to the balance; they never expire." }),
    price_cents: z.int().openapi({ description: "The price in US cents (pay as you go is 1 cent a credit)." }),
    blurb: z.string().openapi({ description: "A line on who the pack is for." }),
  })
  .openapi("PackDto", { description: "A credit pack: a one-off purchase of credits." });
const PlanDto = z
  .object({
    id: z.string().openapi({ description: "The plan's id, for checkout (`free`, `developer`, `startup`, `growth`)." }),
    name: z.string().openapi({ description: "The plan's display name." }),
    monthly_price_cents: z.int().openapi({ description: "The monthly price in US cents (0 for Free)." }),
    included_credits: z.int().openapi({ description: "Credits added every month (Free: the balance is topped up to this once a month)." }),
    overage_micros: z.int().openapi({ description: "Per-credit overage rate in micro-USD" }),
    breakeven_credits: z.int().openapi({ description: "Monthly usage above which the plan costs less than packs" }),
    blurb: z.string().openapi({ description: "A line on who the plan is for." }),
    features: z.array(z.string()).openapi({ description: "What the plan includes, one line each." }),
  })
  .openapi("PlanDto", { description: "A monthly subscription plan." });
const OpPriceDto = z
  .object({
    op: z.string().openapi({
      description:
        "The metered operation: `search`, `page_read`, `page_read_cached`, `llm_input_1k_tokens`, `llm_output_1k_tokens`, `extractive_synthesis` or `ingest_mb`.",
    }),
    credits: z.number().openapi({ description: "The price of one unit, in credits (fractional; 1 credit = 0.01 USD)." }),
    note: z.string().openapi({ description: "What one unit is." }),
  })
  .openapi("OpPrice", { description: "The price of one metered operation. A job's `cost_usd` is the sum of its operations at these prices." });
const ModePriceDto = z
  .object({
    mode: z.enum(RESEARCH_MODES).openapi({ description: "The mode, as a research request names it." }),
    credits: z.int().nullable().openapi({ description: "Fixed price in credits; null for max, which is metered up to max_credits." }),
    max_cost_usd: z.number().nullable().openapi({ description: "The cost envelope in USD; null for max (max_credits / 100)." }),
    max_wallclock_secs: z.int().openapi({ description: "The wall-clock limit in seconds (a request's `max_wallclock_secs` overrides it)." }),
    max_sources: z.int().openapi({ description: "Pages the job may read at most." }),
    max_searches: z.int().openapi({ description: "Search queries the job may run at most." }),
    max_waves: z.int().openapi({ description: "Search-and-read waves at most (each wave follows up on what the previous one found)." }),
    critic: z.boolean().openapi({ description: "Whether a critic stage checks the brief." }),
    async_by_default: z.boolean().openapi({ description: "A job of this mode answers 202 unless max_wallclock_secs brings it to 60 s or less." }),
  })
  .openapi("ModePrice", { description: "A research mode: its price and its limits." });
const CheckoutBody = z
  .union([
    z.strictObject({ pack_id: z.string().min(1).max(64).openapi({ description: "The pack to buy (`GET /api/billing/packs`)." }) }),
    z.strictObject({ plan_id: z.string().min(1).max(64).openapi({ description: "The plan to subscribe to (`GET /api/billing/plans`)." }) }),
  ])
  .openapi("CheckoutBody", { description: "A pack (one-off payment) or, instead, a plan (subscription)." });
const CheckoutResponse = z
  .object({
    url: z
      .url()
      .openapi({ description: "The payment processor's hosted page: send the customer's browser there. It returns to the dashboard's billing page." }),
  })
  .openapi("CheckoutResponse", { description: "Where to send the customer." });
const PaymentRowDto = z
  .object({
    id: z.uuid().openapi({ description: "The payment's id." }),
    created_at: z.iso.datetime().openapi({ description: "When the payment was started (UTC)." }),
    status: z
      .enum(PAYMENT_STATUSES)
      .openapi({ description: "`pending` (checkout open), `completed` (credits granted), `failed` (the processor refused; see `error`) or `refunded`." }),
    pack_credits: z.int().openapi({ description: "Credits the payment grants (a plan's: its monthly credits)." }),
    pack_amount_cents: z.int().openapi({ description: "The amount in US cents." }),
    completed_at: z.iso.datetime().nullable().openapi({ description: "When the credits were granted (UTC); null until then." }),
    kind: z.enum(PAYMENT_KINDS).openapi({
      description:
        "`pack` (a pack bought), `plan_checkout` (a plan subscribed), `plan_invoice` (a plan's monthly invoice) or `auto_topup` (a pack bought by auto top-up).",
    }),
    pack_id: z.string().nullable().openapi({ description: "The pack bought; null for plan payments." }),
    plan_id: z.string().nullable().openapi({ description: "The plan paid for; null for packs." }),
    error: z.string().nullable().openapi({ description: "Why the payment failed; null otherwise." }),
  })
  .openapi("PaymentRow", { description: "A payment." });
const autoTopupFields = {
  enabled: z.boolean().openapi({ description: "Whether auto top-up is on." }),
  threshold_credits: z
    .int()
    .min(0)
    .max(10_000_000)
    .openapi({ description: "When a reservation leaves the balance below this many credits, the pack is bought with the saved card (0 to 10,000,000)." }),
  pack_id: z.string().min(1).max(64).openapi({ description: "The pack to buy (`GET /api/billing/packs`); an unknown pack is 400." }),
};
const AutoTopupBody = z.strictObject(autoTopupFields).openapi("AutoTopupBody", { description: "Auto top-up settings." });
// Its own object, not AutoTopupBody.extend(): that publishes an allOf of two closed objects no response satisfies.
const AutoTopupSettings = z
  .object({
    ...autoTopupFields,
    in_flight: z.boolean().openapi({ description: "A top-up payment is under way" }),
    card_on_file: z.boolean().openapi({
      description:
        "Whether a top-up can be charged: true once a payment of yours has completed at checkout (a pack or a plan), which leaves your card with the payment processor. False before the first purchase: auto top-up can be set up, but nothing can be bought until you buy a pack with a card.",
    }),
  })
  .openapi("AutoTopupSettings", { description: "Auto top-up settings, and whether a top-up is under way." });
const SubscriptionDto = z
  .object({
    plan: PlanDto,
    status: z
      .string()
      .openapi({ description: "The subscription's status at the processor: `active`, `trialing` or `past_due` for a paid plan; `active` on Free." }),
    current_period_end: z.iso.datetime().nullable().openapi({ description: "When the current paid period ends and renews (UTC); null on Free." }),
    overage_credits_this_period: z
      .int()
      .openapi({ description: "Credits used beyond the balance in this period, billed at the plan's overage rate (0 on Free, which has no overage)." }),
    overage_usd_micros_this_period: z.int().openapi({ description: "What that overage costs, in micro-USD (`overage_credits_this_period × overage_micros`)." }),
  })
  .openapi("SubscriptionDto", { description: "The account's current plan and its period." });
const WebhookReceipt = z
  .object({
    received: z.literal(true).openapi({ description: "Always true: the event is stored." }),
    status: z.string().openapi({ description: "What applying it did: `processed` or `ignored` (a type the service does not act on)." }),
  })
  .openapi("ProcessorEventReceipt", { description: "A processor event received." });

/** The metered operation prices as GET /op-prices answers them. */
const opPriceList = () => OP_PRICES.map(({ op, credits, note }) => ({ op, credits, note }));

const packsExample = [
  {
    id: "starter",
    name: "Starter",
    credits: 500,
    price_cents: 500,
    blurb: "Try it on real questions: about 8 standard or 33 lite research briefs. Credits never expire.",
  },
  {
    id: "handful",
    name: "Handful",
    credits: 2000,
    price_cents: 2000,
    blurb: "For a side project or a week of prototyping: about 33 standard or 10 pro briefs.",
  },
  {
    id: "workshop",
    name: "Workshop",
    credits: 5000,
    price_cents: 5000,
    blurb: "For a team putting research into a product: about 83 standard or 25 pro briefs.",
  },
  {
    id: "warehouse",
    name: "Warehouse",
    credits: 20000,
    price_cents: 20000,
    blurb: "The pay-as-you-go ceiling: 100 pro briefs. Using this much every month? A plan costs less.",
  },
];
const freePlanExample = {
  id: "free",
  name: "Free",
  monthly_price_cents: 0,
  included_credits: 500,
  overage_micros: 0,
  breakeven_credits: 0,
  blurb: "Explore the API without a card. Top up with packs whenever you need more.",
  features: [
    "500 free credits to start",
    "Every research mode: lite, standard, pro and max",
    "Sync, async, SSE streaming and signed webhooks",
    "Typed JSON output from your own schema",
    "Community support",
  ],
};
const developerPlanExample = {
  id: "developer",
  name: "Developer",
  monthly_price_cents: 2900,
  included_credits: 4000,
  overage_micros: 9000,
  breakeven_credits: 2900,
  blurb: "For one developer shipping a research feature: 4,000 credits a month for $29.",
  features: [
    "4,000 credits every month",
    "Overage at $0.009 per credit instead of a failed call",
    "Everything in Free",
    "Email support within 2 business days",
  ],
};
const checkoutUrlExample = { url: "https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ" };

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/packs",
    operationId: "listPacks",
    tags,
    summary: "List the credit packs",
    description: "The packs on sale, smallest first: credits bought once, at 1 cent a credit, that never expire. Buy one with `POST /api/billing/checkout`.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(z.array(PackDto), "Packs, smallest first", packsExample), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listPacks(c.get("deps").db)).map(packDto), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/plans",
    operationId: "listPlans",
    tags,
    security: NO_SECURITY,
    summary: "List the monthly plans",
    description:
      "The subscription plans, Free first: credits every month, and on paid plans overage instead of a 402 when the balance runs out. `breakeven_credits` says from what monthly usage a plan costs less than packs. Public: no credentials.",
    responses: { 200: jsonResponse(z.array(PlanDto), "Plans, Free first", [freePlanExample, developerPlanExample]) },
  }),
  async (c) => c.json((await listPlans(c.get("deps").db)).map(planDto), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/op-prices",
    operationId: "listOpPrices",
    tags,
    security: NO_SECURITY,
    summary: "List the operation prices",
    description:
      "The price list every job is metered with: a job's `cost_usd` is the sum of its searches, page reads and model tokens at these prices, and `max` mode charges it (rounded up to whole credits). Adding documents to a collection is priced here too (`ingest_mb`). Public: no credentials.",
    responses: {
      // The example is the price list itself, so the reference cannot quote a price that changed.
      200: jsonResponse(z.array(OpPriceDto), "Operation prices", opPriceList()),
    },
  }),
  (c) => c.json(opPriceList(), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/modes",
    operationId: "listModes",
    tags,
    security: NO_SECURITY,
    summary: "List the research modes",
    description:
      "The research modes, cheapest first: what each costs and how much it may search, read and take. A research request picks one with `mode`. Public: no credentials.",
    responses: {
      // The example is the answer itself, from the one table of modes (research/pricing.ts).
      200: jsonResponse(z.array(ModePriceDto), "Modes, cheapest first", modePrices()),
    },
  }),
  (c) => c.json(modePrices(), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "post",
    path: "/checkout",
    operationId: "createCheckout",
    tags,
    summary: "Start a checkout",
    description:
      "Opens a payment at the processor for a pack (one-off) or a plan (subscription) and answers the page to send the customer to. The credits arrive when the processor confirms the payment (a pending payment shows in the payment history until then). Buying a pack saves the card for auto top-up. An unknown pack or plan is 400; a server without a payment processor answers 500 `payment_processor_not_configured`, a refusal by the processor 502." +
      accountLimitNote("account:payments", "checkouts and portal sessions together"),
    security: JWT_SECURITY,
    // Each call is a request to the processor, whose own rate limit every account shares.
    middleware: [limitPerAccount("account:payments", "Too many payment sessions for this account; retry later.")] as const,
    request: { body: jsonBody(CheckoutBody, { pack_id: "handful" }) },
    responses: {
      200: withLimitState(jsonResponse(CheckoutResponse, "The hosted checkout URL", checkoutUrlExample)),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error", "rate_limited"),
    },
  }),
  async (c) => {
    const body = c.req.valid("json");
    const item = "pack_id" in body ? { packId: body.pack_id } : { planId: body.plan_id };
    return c.json(await createCheckout(c.get("deps"), c.get("user"), item), 200);
  },
);

billingRoutes.openapi(
  createRoute({
    method: "post",
    path: "/portal",
    operationId: "createPortalSession",
    tags,
    summary: "Open the customer portal",
    description:
      "Answers a link to the payment processor's portal, where the customer manages cards, downloads invoices and changes or cancels the plan. 400 before the first purchase (there is no billing account yet); 500 `payment_processor_not_configured` on a server without a payment processor." +
      accountLimitNote("account:payments", "checkouts and portal sessions together"),
    security: JWT_SECURITY,
    middleware: [limitPerAccount("account:payments", "Too many payment sessions for this account; retry later.")] as const,
    responses: {
      200: withLimitState(jsonResponse(CheckoutResponse, "The portal URL", { url: "https://billing.stripe.com/p/session/test_YWNjdF8xTmZ4RXhhbXBsZQ" })),
      ...errorResponses("invalid_request", "unauthorized", "payment_processor_not_configured", "payment_processor_error", "rate_limited"),
    },
  }),
  async (c) => c.json(await createPortal(c.get("deps"), c.get("user")), 200),
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/payment-history",
    operationId: "listPayments",
    tags,
    summary: "List your payments",
    description:
      "Every payment of the account, newest first: packs, plan checkouts, monthly plan invoices and auto top-ups, with their status. Page with `limit` and `offset`.",
    security: JWT_SECURITY,
    request: { query: PagingQuery },
    responses: {
      200: pageResponse(z.array(PaymentRowDto), "Payments, newest first", [
        {
          id: "0b7e4c2d-91a3-4f5e-8d6c-3a2b1c0d9e8f",
          created_at: "2026-11-23T18:10:02.114Z",
          status: "completed",
          pack_credits: 2000,
          pack_amount_cents: 2000,
          completed_at: "2026-11-23T18:11:47.530Z",
          kind: "pack",
          pack_id: "handful",
          plan_id: null,
          error: null,
        },
      ]),
      ...errorResponses("invalid_request", "unauthorized"),
    },
  }),
  async (c) => {
    const page = c.req.valid("query");
    return c.json(pageWithLink(c, await paymentHistory(c.get("deps").db, c.get("user").id, peek(page)), page).map(paymentDto), 200);
  },
);

billingRoutes.openapi(
  createRoute({
    method: "put",
    path: "/auto-topup",
    operationId: "updateAutoTopup",
    tags,
    summary: "Configure auto top-up",
    description:
      "Turns auto top-up on or off: after a job reserves credits and leaves the balance below `threshold_credits`, the chosen pack is bought with the card saved at the last pack purchase, one payment at a time. An unknown pack is 400.",
    security: JWT_SECURITY,
    request: { body: jsonBody(AutoTopupBody, { enabled: true, threshold_credits: 100, pack_id: "handful" }) },
    responses: { 200: noBody("Saved"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const body = c.req.valid("json");
    await saveAutoTopup(c.get("deps"), c.get("user").id, { enabled: body.enabled, thresholdCredits: body.threshold_credits, packId: body.pack_id });
    return c.body(null, 200);
  },
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auto-topup",
    operationId: "getAutoTopup",
    tags,
    summary: "Get your auto top-up settings",
    description:
      "The auto top-up settings, whether a top-up payment is under way, and whether there is a card to charge (`card_on_file`: not before your first purchase). Never configured: disabled, threshold 0, pack `starter`.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(AutoTopupSettings, "Settings (disabled when never set)", {
        enabled: true,
        threshold_credits: 100,
        pack_id: "handful",
        in_flight: false,
        card_on_file: true,
      }),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => {
    const user = c.get("user");
    const [row, cardOnFile] = await Promise.all([getAutoTopup(c.get("deps"), user.id), hasCardOnFile(c.get("deps"), user)]);
    return c.json(
      {
        enabled: row?.enabled ?? false,
        threshold_credits: row?.thresholdCredits ?? 0,
        pack_id: row?.packId ?? "starter",
        in_flight: Boolean(row?.inFlightPaymentId),
        card_on_file: cardOnFile,
      },
      200,
    );
  },
);

billingRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription",
    operationId: "getSubscription",
    tags,
    summary: "Get your subscription",
    description: "The account's plan (Free without a subscription), when its period renews, and the overage used in this period with what it will cost.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(SubscriptionDto, "The current plan", {
        plan: developerPlanExample,
        status: "active",
        current_period_end: "2026-12-23T18:11:47.000Z",
        overage_credits_this_period: 120,
        overage_usd_micros_this_period: 1080000,
      }),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => {
    const current = await currentPlan(c.get("deps").db, c.get("user").id);
    const overage = current.paid ? await overageThisPeriod(c.get("deps").db, c.get("user").id, current.currentPeriodStart) : 0;
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
    operationId: "receiveProcessorEvent",
    tags,
    security: NO_SECURITY,
    summary: "Receive a payment processor event",
    description:
      "For the payment processor, not for clients: it posts its events (payments completed, invoices paid, subscriptions changed, refunds) here, signed with `Stripe-Signature`. Each event is stored before it is applied, and applying is idempotent, so a redelivery never credits twice. A bad signature is 400; so is an event of another Stripe API version than the one this server reads (stored as `unsupported`, not applied: the endpoint's version must be set to it); an event that could not be applied is 500. Stripe delivers an event again after any answer but a 2xx.",
    request: {
      headers: z.object({
        "stripe-signature": z.string().optional().openapi({
          description: "The processor's signature of the raw body (`t=<unix seconds>,v1=<hex HMAC-SHA256>`), checked with the webhook secret within 300 s.",
          example: "t=1795456789,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
        }),
      }),
    },
    responses: {
      200: jsonResponse(WebhookReceipt, "Stored and applied (or ignored)", { received: true, status: "processed" }),
      ...errorResponses("invalid_request", "payment_processor_not_configured", "internal"),
    },
  }),
  async (c) => {
    const outcome = await receiveProcessorEvent(c.get("deps"), await c.req.text(), c.req.header("Stripe-Signature"));
    // A failure is stored with the event; 500 asks the processor to deliver it again later.
    if (outcome.status === "failed") throw new ApiError("internal", `The event was stored but could not be applied: ${outcome.note}`);
    return c.json({ received: true as const, status: outcome.status }, 200);
  },
);
