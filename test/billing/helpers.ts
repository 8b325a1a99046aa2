/**
 * Shared billing test helpers: a fake payment processor (Stripe's REST API intercepted with MSW,
 * answering in Stripe's documented object shapes and recording every request), webhook events in
 * Stripe's event shape signed with the real Stripe-Signature algorithm, and direct service deps.
 */
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { createDb } from "../../src/db/client";
import { type Env, loadConfig } from "../../src/env";
import type { BillingDeps } from "../../src/services/billing/checkout";
import { applyLedgerChange } from "../../src/services/ledger";
import { call, json, type TestUser } from "../helpers";

export const STRIPE = "https://api.stripe.com";

/** The processor price id the test bindings give a catalog variable, e.g. price("DEVELOPER_OVERAGE"). */
export function price(name: string): string {
  const value = (env as unknown as Record<string, string | undefined>)[`STRIPE_PRICE_${name}`];
  if (!value) throw new Error(`STRIPE_PRICE_${name} is not bound in vitest.config.ts`);
  return value;
}
export const API_VERSION = "2026-10-28.endive";

export interface StripeRequest {
  method: string;
  path: string;
  /** The form-encoded body (POST) or the query string (GET), e.g. params.get("metadata[payment_id]"). */
  params: URLSearchParams;
  idempotencyKey: string | null;
  authorization: string | null;
}

/** Every request the fake processor received, in order. Cleared before each test. */
export const stripeRequests: StripeRequest[] = [];

export function requestsTo(method: string, path: string): StripeRequest[] {
  return stripeRequests.filter((r) => r.method === method && r.path === path);
}

let seq = 0;
export function rid(prefix: string): string {
  seq += 1;
  return `${prefix}_test${Date.now().toString(36)}${seq}${Math.random().toString(36).slice(2, 8)}`;
}
const unixNow = () => Math.floor(Date.now() / 1000);

async function record(request: { url: string; method: string; headers: Headers; clone(): { arrayBuffer(): Promise<ArrayBuffer> } }): Promise<StripeRequest> {
  const url = new URL(request.url);
  const params = request.method === "GET" ? url.searchParams : new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  const entry = {
    method: request.method,
    path: url.pathname,
    params,
    idempotencyKey: request.headers.get("Idempotency-Key"),
    authorization: request.headers.get("Authorization"),
  };
  stripeRequests.push(entry);
  return entry;
}

/** Stripe's error body, e.g. stripeError(402, "card_error", "card_declined", "Your card was declined."). */
export function stripeError(status: number, type: string, code: string, message: string, extra: Record<string, unknown> = {}) {
  return HttpResponse.json({ error: { type, code, message, ...extra } }, { status, headers: { "Request-Id": rid("req") } });
}

/** Objects Stripe replays for a repeated Idempotency-Key, as the real API does. */
const idempotent = new Map<string, unknown>();
function once<T>(key: string | null, make: () => T): T {
  if (!key) return make();
  if (!idempotent.has(key)) idempotent.set(key, make());
  return idempotent.get(key) as T;
}

/** The saved card returned for a customer (null: the customer has no default payment method). */
export const fakeCards = new Map<string, string | null>();

export function customerObject(id: string, params: URLSearchParams | null = null) {
  const card = fakeCards.has(id) ? fakeCards.get(id)! : `pm_card_${id}`;
  return {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created: unixNow(),
    currency: "usd",
    default_source: null,
    delinquent: false,
    description: null,
    email: params?.get("email") ?? "customer@example.com",
    invoice_prefix: "ABCD1234",
    invoice_settings: { custom_fields: null, default_payment_method: card, footer: null, rendering_options: null },
    livemode: false,
    metadata: params?.get("metadata[user_id]") ? { user_id: params.get("metadata[user_id]") } : {},
    name: params?.get("name") ?? null,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

function metadataOf(params: URLSearchParams, prefix = "metadata"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[([^\\]]+)\\]$`).exec(key);
    if (match) out[match[1]!] = value;
  }
  return out;
}

export function paymentIntentObject(params: URLSearchParams, status: string, id = rid("pi")) {
  return {
    id,
    object: "payment_intent",
    amount: Number(params.get("amount")),
    amount_capturable: 0,
    amount_received: status === "succeeded" ? Number(params.get("amount")) : 0,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_abc`,
    confirmation_method: "automatic",
    created: unixNow(),
    currency: params.get("currency") ?? "usd",
    customer: params.get("customer"),
    description: params.get("description"),
    last_payment_error: null,
    latest_charge: status === "succeeded" ? rid("ch") : null,
    livemode: false,
    metadata: metadataOf(params),
    next_action: null,
    payment_method: params.get("payment_method"),
    payment_method_types: ["card"],
    setup_future_usage: null,
    status,
  };
}

/** The default behaviour of the fake processor: every call succeeds. Tests override with server.use(). */
export const defaultHandlers = [
  http.post(`${STRIPE}/v1/customers`, async ({ request }) => {
    const r = await record(request);
    return HttpResponse.json(once(r.idempotencyKey, () => customerObject(rid("cus"), r.params)));
  }),
  http.get(`${STRIPE}/v1/customers/:id`, async ({ request, params }) => {
    await record(request);
    return HttpResponse.json(customerObject(String(params.id)));
  }),
  http.get(`${STRIPE}/v1/payment_methods`, async ({ request }) => {
    const r = await record(request);
    return HttpResponse.json({
      object: "list",
      url: "/v1/payment_methods",
      has_more: false,
      data: [{ id: rid("pm"), object: "payment_method", type: "card", customer: r.params.get("customer"), card: { brand: "visa", last4: "4242" } }],
    });
  }),
  http.post(`${STRIPE}/v1/checkout/sessions`, async ({ request }) => {
    const r = await record(request);
    return HttpResponse.json(
      once(r.idempotencyKey, () => {
        const id = rid("cs");
        return {
          id,
          object: "checkout.session",
          amount_subtotal: null,
          amount_total: null,
          cancel_url: r.params.get("cancel_url"),
          client_reference_id: r.params.get("client_reference_id"),
          created: unixNow(),
          currency: "usd",
          customer: r.params.get("customer"),
          expires_at: unixNow() + 86_400,
          livemode: false,
          metadata: metadataOf(r.params),
          mode: r.params.get("mode"),
          payment_intent: null,
          payment_status: "unpaid",
          status: "open",
          subscription: null,
          success_url: r.params.get("success_url"),
          url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
        };
      }),
    );
  }),
  http.post(`${STRIPE}/v1/billing_portal/sessions`, async ({ request }) => {
    const r = await record(request);
    const id = rid("bps");
    return HttpResponse.json({
      id,
      object: "billing_portal.session",
      configuration: rid("bpc"),
      created: unixNow(),
      customer: r.params.get("customer"),
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: r.params.get("return_url"),
      url: `https://billing.stripe.com/p/session/${id}`,
    });
  }),
  http.post(`${STRIPE}/v1/payment_intents`, async ({ request }) => {
    const r = await record(request);
    return HttpResponse.json(once(r.idempotencyKey, () => paymentIntentObject(r.params, "succeeded")));
  }),
  http.post(`${STRIPE}/v1/billing/meter_events`, async ({ request }) => {
    const r = await record(request);
    return HttpResponse.json({
      object: "billing.meter_event",
      created: unixNow(),
      event_name: r.params.get("event_name"),
      identifier: r.params.get("identifier"),
      livemode: false,
      payload: metadataOf(r.params, "payload"),
      timestamp: unixNow(),
    });
  }),
];

export const server = setupServer(...defaultHandlers);

/** Call once at the top of a billing test file: intercepts the processor, fails on any unexpected HTTP. */
export function useFakeProcessor(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(() => {
    stripeRequests.length = 0;
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

// ---------------------------------------------------------------------------------------------
// Webhooks: Stripe's event shape, signed with Stripe's algorithm (independent of our verifier).

const encoder = new TextEncoder();

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint secret>`, as Stripe signs. */
export async function stripeSignature(rawBody: string, timestamp = unixNow(), secret = env.STRIPE_WEBHOOK_SECRET!): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${rawBody}`)));
  const hex = [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `t=${timestamp},v1=${hex}`;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

export function stripeEvent(type: string, object: Record<string, unknown>, created = unixNow()): StripeEvent {
  return {
    id: rid("evt"),
    object: "event",
    api_version: API_VERSION,
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** POST /api/billing/webhook with a correctly signed body (or the given signature header). */
export async function deliver(event: StripeEvent | string, signature?: string | null): Promise<Response> {
  const rawBody = typeof event === "string" ? event : JSON.stringify(event);
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" };
  const header = signature === undefined ? await stripeSignature(rawBody) : signature;
  if (header !== null) headers["Stripe-Signature"] = header;
  return call("/api/billing/webhook", { method: "POST", rawBody, headers });
}

/** Delivers and expects 200 with the given outcome. */
export async function deliverOk(event: StripeEvent, status: "processed" | "ignored" = "processed"): Promise<void> {
  const response = await deliver(event);
  expect(response.status).toBe(200);
  expect(await json(response)).toEqual({ received: true, status });
}

export function checkoutSessionObject(fields: {
  id: string;
  paymentId: string;
  userId: string;
  customer: string;
  mode?: "payment" | "subscription";
  paymentStatus?: "paid" | "unpaid" | "no_payment_required";
  paymentIntent?: string | null;
  amountTotal?: number;
  subscription?: string | null;
  packId?: string;
  planId?: string;
}) {
  const mode = fields.mode ?? "payment";
  return {
    id: fields.id,
    object: "checkout.session",
    amount_subtotal: fields.amountTotal ?? 500,
    amount_total: fields.amountTotal ?? 500,
    client_reference_id: fields.userId,
    created: unixNow(),
    currency: "usd",
    customer: fields.customer,
    customer_details: { email: "customer@example.com", name: "Ada Lovelace" },
    livemode: false,
    metadata: {
      payment_id: fields.paymentId,
      user_id: fields.userId,
      ...(fields.packId ? { pack_id: fields.packId } : {}),
      ...(fields.planId ? { plan_id: fields.planId } : {}),
    },
    mode,
    payment_intent: mode === "payment" ? (fields.paymentIntent === undefined ? rid("pi") : fields.paymentIntent) : null,
    payment_status: fields.paymentStatus ?? "paid",
    status: "complete",
    subscription: mode === "subscription" ? (fields.subscription ?? rid("sub")) : null,
    url: null,
  };
}

export function subscriptionObject(fields: {
  id: string;
  customer: string;
  userId?: string;
  planId?: string;
  priceId: string;
  overagePriceId?: string;
  status?: string;
  periodStart: number;
  periodEnd: number;
}) {
  const item = (price: string, usage: "licensed" | "metered") => ({
    id: rid("si"),
    object: "subscription_item",
    created: fields.periodStart,
    current_period_start: fields.periodStart,
    current_period_end: fields.periodEnd,
    metadata: {},
    price: {
      id: price,
      object: "price",
      active: true,
      currency: "usd",
      recurring: { interval: "month", interval_count: 1, usage_type: usage },
      type: "recurring",
    },
    quantity: usage === "licensed" ? 1 : undefined,
    subscription: fields.id,
  });
  return {
    id: fields.id,
    object: "subscription",
    billing_cycle_anchor: fields.periodStart,
    cancel_at_period_end: false,
    canceled_at: null,
    collection_method: "charge_automatically",
    created: fields.periodStart,
    currency: "usd",
    customer: fields.customer,
    items: {
      object: "list",
      has_more: false,
      url: `/v1/subscription_items?subscription=${fields.id}`,
      data: [
        ...(fields.overagePriceId ? [item(fields.overagePriceId, "metered")] : []), // metered first: the handler must pick the licensed one
        item(fields.priceId, "licensed"),
      ],
    },
    livemode: false,
    metadata: { ...(fields.userId ? { user_id: fields.userId } : {}), ...(fields.planId ? { plan_id: fields.planId } : {}) },
    start_date: fields.periodStart,
    status: fields.status ?? "active",
  };
}

export function invoiceObject(fields: {
  id: string;
  customer: string;
  subscription: string;
  priceId: string;
  amountPaid: number;
  userId?: string;
  planId?: string;
  periodStart: number;
  periodEnd: number;
}) {
  return {
    id: fields.id,
    object: "invoice",
    amount_due: fields.amountPaid,
    amount_paid: fields.amountPaid,
    amount_remaining: 0,
    billing_reason: "subscription_cycle",
    collection_method: "charge_automatically",
    created: unixNow(),
    currency: "usd",
    customer: fields.customer,
    lines: {
      object: "list",
      has_more: false,
      url: `/v1/invoices/${fields.id}/lines`,
      data: [
        {
          id: rid("il"),
          object: "line_item",
          amount: fields.amountPaid,
          currency: "usd",
          description: "1 × plan (at $29.00 / month)",
          parent: { type: "subscription_item_details", subscription_item_details: { subscription: fields.subscription, subscription_item: rid("si") } },
          period: { start: fields.periodStart, end: fields.periodEnd },
          pricing: { type: "price_details", price_details: { price: fields.priceId, product: rid("prod") }, unit_amount_decimal: String(fields.amountPaid) },
          quantity: 1,
        },
      ],
    },
    livemode: false,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: {
        subscription: fields.subscription,
        metadata: { ...(fields.userId ? { user_id: fields.userId } : {}), ...(fields.planId ? { plan_id: fields.planId } : {}) },
      },
    },
    period_start: fields.periodStart,
    period_end: fields.periodEnd,
    status: "paid",
  };
}

export function chargeObject(fields: { id: string; paymentIntent: string; customer: string; amount: number; amountRefunded: number }) {
  return {
    id: fields.id,
    object: "charge",
    amount: fields.amount,
    amount_captured: fields.amount,
    amount_refunded: fields.amountRefunded,
    captured: true,
    created: unixNow(),
    currency: "usd",
    customer: fields.customer,
    livemode: false,
    metadata: {},
    paid: true,
    payment_intent: fields.paymentIntent,
    refunded: fields.amountRefunded >= fields.amount,
    status: "succeeded",
  };
}

// ---------------------------------------------------------------------------------------------
// Direct service access and database reads.

export function billingDeps(overrides: Partial<Env> = {}): BillingDeps {
  const e = { ...env, ...overrides } as Env;
  return { db: createDb(e.DB), config: loadConfig(e) };
}

/** A `defer` that collects the background work so the test can wait for it. */
export function collector() {
  const pending: Promise<unknown>[] = [];
  return {
    defer: (work: Promise<unknown>) => {
      pending.push(work);
    },
    settle: async () => {
      while (pending.length) await Promise.all(pending.splice(0));
    },
  };
}

export async function balanceOf(userId: string): Promise<number> {
  const row = await env.DB.prepare("select credits from users where id = ?").bind(userId).first<{ credits: number }>();
  return row!.credits;
}

export interface LedgerRow {
  kind: string;
  delta: number;
  balance_after: number;
  idempotency_key: string | null;
  related_id: string | null;
}
export async function ledgerOf(userId: string, kind?: string): Promise<LedgerRow[]> {
  const rows = await env.DB.prepare("select kind, delta, balance_after, idempotency_key, related_id from ledger_entries where user_id = ? order by seq")
    .bind(userId)
    .all<LedgerRow>();
  return rows.results.filter((r) => !kind || r.kind === kind);
}

export async function paymentRow(id: string) {
  return env.DB.prepare("select * from payments where id = ?").bind(id).first<Record<string, any>>();
}
export async function paymentsOf(userId: string) {
  return (await env.DB.prepare("select * from payments where user_id = ? order by created_at, rowid").bind(userId).all<Record<string, any>>()).results;
}
export async function storedEvent(id: string) {
  return env.DB.prepare("select * from processor_events where id = ?").bind(id).first<Record<string, any>>();
}
export async function customerOf(userId: string): Promise<string | null> {
  const row = await env.DB.prepare("select processor_customer_id as c from users where id = ?").bind(userId).first<{ c: string | null }>();
  return row?.c ?? null;
}
export async function setBalance(userId: string, credits: number): Promise<void> {
  // Through the ledger, so the invariant holds: one admin_adjustment bringing the balance to `credits`.
  const current = await balanceOf(userId);
  if (current === credits) return;
  const result = await applyLedgerChange(createDb(env.DB), userId, { kind: "admin_adjustment", delta: credits - current, note: "test setup" });
  expect(result.status).toBe("applied");
}

/** POST /api/billing/checkout for a pack, returning the payment id and the session the processor saw. */
export async function checkoutPack(user: TestUser, packId = "starter") {
  const before = requestsTo("POST", "/v1/checkout/sessions").length;
  const response = await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: packId } });
  expect(response.status).toBe(200);
  const { url } = await json<{ url: string }>(response);
  const sent = requestsTo("POST", "/v1/checkout/sessions")[before]!;
  const paymentId = sent.params.get("metadata[payment_id]")!;
  const sessionId = /\/pay\/(cs_[^#]+)/.exec(url)![1]!;
  return { url, paymentId, sessionId, customer: sent.params.get("customer")!, sent };
}

/** POST /api/billing/checkout for a plan. */
export async function checkoutPlan(user: TestUser, planId = "developer") {
  const before = requestsTo("POST", "/v1/checkout/sessions").length;
  const response = await call("/api/billing/checkout", { token: user.accessToken, body: { plan_id: planId } });
  expect(response.status).toBe(200);
  const { url } = await json<{ url: string }>(response);
  const sent = requestsTo("POST", "/v1/checkout/sessions")[before]!;
  return {
    url,
    paymentId: sent.params.get("metadata[payment_id]")!,
    sessionId: /\/pay\/(cs_[^#]+)/.exec(url)![1]!,
    customer: sent.params.get("customer")!,
    sent,
  };
}

/** A user on a paid plan the way it happens in production: plan checkout, then the processor's subscription event. */
export async function subscribeUser(user: TestUser, planId = "developer", opts: { periodStart?: number; periodEnd?: number } = {}) {
  const checkout = await checkoutPlan(user, planId);
  const subscriptionId = rid("sub");
  const periodStart = opts.periodStart ?? unixNow() - 86_400;
  const periodEnd = opts.periodEnd ?? periodStart + 30 * 86_400;
  const key = planId.toUpperCase();
  await deliverOk(
    stripeEvent(
      "customer.subscription.created",
      subscriptionObject({
        id: subscriptionId,
        customer: checkout.customer,
        userId: user.id,
        planId,
        priceId: price(key),
        overagePriceId: price(`${key}_OVERAGE`),
        periodStart,
        periodEnd,
      }),
    ),
  );
  return { subscriptionId, customer: checkout.customer, periodStart, periodEnd, checkout };
}
