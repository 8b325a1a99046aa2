import { z } from "@hono/zod-openapi";
import { PAYMENT_KINDS, PAYMENT_STATUSES } from "../../../db/schema/billing";
import { RESEARCH_MODES } from "../../../research/service";

/** The request and response schemas of /api/billing. */

export const PackDto = z
  .object({
    id: z.string().openapi({ description: "The pack's id, for checkout and auto top-up (`starter`, `handful`, `workshop`, `warehouse`)." }),
    name: z.string().openapi({ description: "The pack's display name." }),
    credits: z.int().openapi({ description: "Credits the pack adds to the balance; they never expire." }),
    price_cents: z.int().openapi({ description: "The price in US cents (pay as you go is 1 cent a credit)." }),
    blurb: z.string().openapi({ description: "A line on who the pack is for." }),
  })
  .openapi("PackDto", { description: "A credit pack: a one-off purchase of credits." });
export const PlanDto = z
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
export const OpPriceDto = z
  .object({
    op: z.string().openapi({
      description:
        "The metered operation: `search`, `page_read`, `page_read_cached`, `llm_input_1k_tokens`, `llm_output_1k_tokens`, `extractive_synthesis` or `ingest_mb`.",
    }),
    credits: z.number().openapi({ description: "The price of one unit, in credits (fractional; 1 credit = 0.01 USD)." }),
    note: z.string().openapi({ description: "What one unit is." }),
  })
  .openapi("OpPrice", { description: "The price of one metered operation. A job's `cost_usd` is the sum of its operations at these prices." });
export const ModePriceDto = z
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
export const CheckoutBody = z
  .union([
    z.strictObject({ pack_id: z.string().min(1).max(64).openapi({ description: "The pack to buy (`GET /api/billing/packs`)." }) }),
    z.strictObject({ plan_id: z.string().min(1).max(64).openapi({ description: "The plan to subscribe to (`GET /api/billing/plans`)." }) }),
  ])
  .openapi("CheckoutBody", { description: "A pack (one-off payment) or, instead, a plan (subscription)." });
export const CheckoutResponse = z
  .object({
    url: z
      .url()
      .openapi({ description: "The payment processor's hosted page: send the customer's browser there. It returns to the dashboard's billing page." }),
  })
  .openapi("CheckoutResponse", { description: "Where to send the customer." });
export const PaymentRowDto = z
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
export const AutoTopupBody = z.strictObject(autoTopupFields).openapi("AutoTopupBody", { description: "Auto top-up settings." });
// Its own object, not AutoTopupBody.extend(): that publishes an allOf of two closed objects no response satisfies.
export const AutoTopupSettings = z
  .object({
    ...autoTopupFields,
    in_flight: z.boolean().openapi({ description: "A top-up payment is under way" }),
    card_on_file: z.boolean().openapi({
      description:
        "Whether a top-up can be charged: true once a payment of yours has completed at checkout (a pack or a plan), which leaves your card with the payment processor. False before the first purchase: auto top-up can be set up, but nothing can be bought until you buy a pack with a card.",
    }),
  })
  .openapi("AutoTopupSettings", { description: "Auto top-up settings, and whether a top-up is under way." });
export const SubscriptionDto = z
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
export const WebhookReceipt = z
  .object({
    received: z.literal(true).openapi({ description: "Always true: the event is stored." }),
    status: z.string().openapi({ description: "What applying it did: `processed` or `ignored` (a type the service does not act on)." }),
  })
  .openapi("ProcessorEventReceipt", { description: "A processor event received." });
