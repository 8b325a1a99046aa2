import type { z } from "@hono/zod-openapi";
import type { AutoTopupBody, AutoTopupSettings, CheckoutBody, CheckoutResponse, PackDto, PaymentRowDto, PlanDto, SubscriptionDto } from "./schemas";

/**
 * The examples the reference shows for /api/billing, shaped like real answers and typed by their
 * schemas. The packs and plans are the catalog's rows (migrations/0004_billing_catalog.sql):
 * test/billing/catalog.test.ts holds them to what GET /api/billing/packs and /plans answer.
 */

type Input<T extends z.ZodType> = z.input<T>;

export const packsExample = [
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
] satisfies Input<typeof PackDto>[];
export const freePlanExample = {
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
} satisfies Input<typeof PlanDto>;
export const developerPlanExample = {
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
} satisfies Input<typeof PlanDto>;
export const checkoutUrlExample = {
  url: "https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ",
} satisfies Input<typeof CheckoutResponse>;

export const portalUrlExample = { url: "https://billing.stripe.com/p/session/test_YWNjdF8xTmZ4RXhhbXBsZQ" } satisfies Input<typeof CheckoutResponse>;

export const checkoutBodyExample = { pack_id: "handful" } satisfies Input<typeof CheckoutBody>;

export const paymentRowExample = {
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
} satisfies Input<typeof PaymentRowDto>;

export const autoTopupBodyExample = { enabled: true, threshold_credits: 100, pack_id: "handful" } satisfies Input<typeof AutoTopupBody>;

export const autoTopupSettingsExample = {
  enabled: true,
  threshold_credits: 100,
  pack_id: "handful",
  in_flight: false,
  card_on_file: true,
} satisfies Input<typeof AutoTopupSettings>;

export const subscriptionExample = {
  plan: developerPlanExample,
  status: "active",
  current_period_end: "2026-12-23T18:11:47.000Z",
  overage_credits_this_period: 120,
  overage_usd_micros_this_period: 1080000,
} satisfies Input<typeof SubscriptionDto>;
