/**
 * Contract of every Stripe call this server makes, and of the two events that grant credits
 * (issue 41, item 10), for the pinned API version (src/services/billing/stripe-version.ts).
 *
 * Each request the SDK sends is decoded from its form body and compared whole (nothing missing,
 * nothing extra) with a parameter object typed against the installed SDK's create/list params,
 * and each answer is an object shaped as the SDK's resource type: stripe 23.1.0, which describes
 * 2026-10-28.endive (node_modules/stripe/cjs/apiVersion.js). The types, file by file:
 *   customers.create / retrieve      node_modules/stripe/cjs/resources/Customers.d.ts (CustomerCreateParams, Customer)
 *   checkout.sessions.create         node_modules/stripe/cjs/resources/Checkout/Sessions.d.ts (SessionCreateParams, Session)
 *   billingPortal.sessions.create    node_modules/stripe/cjs/resources/BillingPortal/Sessions.d.ts
 *   paymentMethods.list              node_modules/stripe/cjs/resources/PaymentMethods.d.ts (PaymentMethodListParams, PaymentMethod)
 *   paymentIntents.create            node_modules/stripe/cjs/resources/PaymentIntents.d.ts (PaymentIntentCreateParams, PaymentIntent)
 *   billing.meterEvents.create       node_modules/stripe/cjs/resources/Billing/MeterEvents.d.ts (MeterEventCreateParams, MeterEvent)
 *   checkout.session.completed       node_modules/stripe/cjs/resources/Events.d.ts (CheckoutSessionCompletedEvent)
 *   invoice.paid                     node_modules/stripe/cjs/resources/Events.d.ts (InvoicePaidEvent), Invoices.d.ts
 * The documented pages they mirror: https://docs.stripe.com/api/customers/create,
 * https://docs.stripe.com/api/checkout/sessions/create and /object,
 * https://docs.stripe.com/api/customer_portal/sessions/create, https://docs.stripe.com/api/payment_methods/customer_list,
 * https://docs.stripe.com/api/payment_intents/create, https://docs.stripe.com/api/billing/meter-event/create,
 * https://docs.stripe.com/api/events/types, and for the request encoding and headers
 * https://docs.stripe.com/api (form-encoded bodies, `Stripe-Version`, `Idempotency-Key`).
 *
 * Not repeated here: each parameter's value as the product chooses it (checkout.test.ts,
 * auto-topup.test.ts, overage.test.ts), and invoice.paid of a renewal (`subscription_cycle`,
 * stripe-version.test.ts); this file holds the first invoice of a subscription.
 */
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { reserveCredits } from "../../src/services/billing/reservations";
import { STRIPE_API_VERSION } from "../../src/services/billing/stripe-version";
import { call, expectLedgerConsistent, json, signupUser } from "../helpers";
import {
  balanceOf,
  billingDeps,
  checkoutPack,
  checkoutPlan,
  checkoutSessionObject,
  collector,
  customerOf,
  deliver,
  deliverOk,
  fakeCards,
  ledgerOf,
  paymentRow,
  paymentsOf,
  price,
  rid,
  server,
  setBalance,
  STRIPE,
  stripeEvent,
  subscribeUser,
  useFakeProcessor,
} from "./helpers";

useFakeProcessor();

/** Any part of T, with T's field names and value types: what a documented object must fit. */
type Documented<T> = T extends (infer U)[] ? Documented<U>[] : T extends object ? { [K in keyof T]?: Documented<T[K]> } : T;

const unix = () => Math.floor(Date.now() / 1000);
const DASHBOARD = () => new URL(env.DASHBOARD_URL!).origin;

interface Sent {
  method: string;
  path: string;
  /** The form body (or query) decoded the way Stripe reads it: `a[b][0][c]=v` is {a: {b: [{c: "v"}]}}. */
  body: Record<string, unknown>;
  headers: Headers;
}

/** Stripe's bracket form encoding read back into an object; numeric keys make arrays. */
function decodeForm(params: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const path = key.replace(/\]/g, "").split("[");
    let node: any = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      if (last) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
    });
  }
  return root;
}

/** A params object as it travels: every number and boolean becomes its string, the SDK's encoding. */
function asSent(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(asSent);
  if (typeof value === "object" && !("asymmetricMatch" in value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, asSent(v)]),
    );
  }
  return value;
}

/** Answers `method path` with `respond(sent)` and keeps what was sent. */
function intercept(method: "get" | "post", path: string, respond: (sent: Sent) => unknown, log: Sent[]) {
  server.use(
    http[method](`${STRIPE}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const params = method === "get" ? url.searchParams : new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
      const sent = { method: request.method, path: url.pathname, body: decodeForm(params), headers: request.headers };
      log.push(sent);
      return HttpResponse.json(respond(sent) as Record<string, unknown>);
    }),
  );
}

/** What every request of the SDK carries: the pinned version, the secret key, a form body. */
function expectStripeHeaders(sent: Sent, idempotent: boolean) {
  expect(sent.headers.get("Stripe-Version")).toBe(STRIPE_API_VERSION);
  expect(sent.headers.get("Authorization")).toBe(`Bearer ${env.STRIPE_SECRET_KEY}`);
  if (sent.method === "POST") expect(sent.headers.get("Content-Type")).toBe("application/x-www-form-urlencoded");
  if (idempotent) expect(sent.headers.get("Idempotency-Key")).toEqual(expect.any(String));
}

function documentedCustomer(id: string, fields: { email: string; name: string | null; userId?: string; defaultPaymentMethod: string | null }) {
  return {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created: 1680893993,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: fields.email,
    invoice_prefix: "0759376C",
    invoice_settings: { custom_fields: null, default_payment_method: fields.defaultPaymentMethod, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.userId ? { user_id: fields.userId } : {},
    name: fields.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  } satisfies Documented<Stripe.Customer>;
}

function documentedCheckoutSession(sent: Record<string, any>, id = rid("cs_test")) {
  return {
    id,
    object: "checkout.session",
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: 500,
    amount_total: 500,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: sent.cancel_url,
    client_reference_id: sent.client_reference_id,
    consent: null,
    consent_collection: null,
    created: unix(),
    currency: "usd",
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: sent.customer,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    expires_at: unix() + 86_400,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: sent.metadata,
    mode: sent.mode,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "if_required",
    payment_method_options: {},
    payment_method_types: ["card"],
    payment_status: "unpaid",
    phone_number_collection: { enabled: false },
    recovered_from: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: sent.success_url,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0`,
  } satisfies Documented<Stripe.Checkout.Session>;
}

describe("Stripe requests, as the SDK sends them for the pinned version", () => {
  it("customers.create and checkout.sessions.create (a pack): documented params only; the session's id and url are what we keep and return", async () => {
    const user = await signupUser();
    const log: Sent[] = [];
    const customerId = rid("cus");
    intercept(
      "post",
      "/v1/customers",
      (sent) => documentedCustomer(customerId, { email: String(sent.body.email), name: String(sent.body.name), userId: user.id, defaultPaymentMethod: null }),
      log,
    );
    let session: ReturnType<typeof documentedCheckoutSession> | undefined;
    intercept("post", "/v1/checkout/sessions", (sent) => (session = documentedCheckoutSession(sent.body)), log);

    const response = await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter" } });
    expect(response.status).toBe(200);
    const [customerCall, sessionCall] = log;
    expect(log).toHaveLength(2);

    expectStripeHeaders(customerCall!, true);
    expect(customerCall!.body).toEqual(
      asSent({ email: user.email, name: "Ada Lovelace", metadata: { user_id: user.id } } satisfies Stripe.CustomerCreateParams),
    );

    expectStripeHeaders(sessionCall!, true);
    const paymentId = (sessionCall!.body.metadata as Record<string, string>).payment_id!;
    const metadata = { payment_id: paymentId, user_id: user.id, pack_id: "starter" };
    expect(sessionCall!.body).toEqual(
      asSent({
        mode: "payment",
        customer: customerId,
        client_reference_id: user.id,
        line_items: [{ price: price("STARTER"), quantity: 1 }],
        metadata,
        payment_intent_data: { metadata, setup_future_usage: "off_session" },
        success_url: `${DASHBOARD()}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${DASHBOARD()}/billing?checkout=cancelled`,
      } satisfies Stripe.Checkout.SessionCreateParams),
    );

    // What we do with the answers: the customer id is the user's billing account, the session id is
    // the payment's, and the session's url is what the dashboard is sent to.
    expect(await json(response)).toEqual({ url: session!.url });
    expect(await customerOf(user.id)).toBe(customerId);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "pending", processor_session_id: session!.id });
  });

  it("checkout.sessions.create (a plan): subscription mode, the metered price without a quantity, subscription_data's metadata", async () => {
    const user = await signupUser();
    const log: Sent[] = [];
    intercept("post", "/v1/checkout/sessions", (sent) => documentedCheckoutSession(sent.body), log);
    const response = await call("/api/billing/checkout", { token: user.accessToken, body: { plan_id: "developer" } });
    expect(response.status).toBe(200);
    const paymentId = (log[0]!.body.metadata as Record<string, string>).payment_id!;
    const customer = (await customerOf(user.id))!;
    const metadata = { payment_id: paymentId, user_id: user.id, plan_id: "developer" };
    expectStripeHeaders(log[0]!, true);
    expect(log[0]!.body).toEqual(
      asSent({
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: price("DEVELOPER"), quantity: 1 }, { price: price("DEVELOPER_OVERAGE") }],
        metadata,
        subscription_data: { metadata },
        success_url: `${DASHBOARD()}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${DASHBOARD()}/billing?checkout=cancelled`,
      } satisfies Stripe.Checkout.SessionCreateParams),
    );
  });

  it("a session answered with url null (Stripe's value for an embedded or finished session) is a failed payment and a 502, not a redirect to nowhere", async () => {
    const user = await signupUser();
    const log: Sent[] = [];
    intercept("post", "/v1/checkout/sessions", (sent) => ({ ...documentedCheckoutSession(sent.body), url: null }), log);
    const response = await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter" } });
    expect(response.status).toBe(502);
    expect(await paymentsOf(user.id)).toEqual([expect.objectContaining({ status: "failed" })]);
  });

  it("billingPortal.sessions.create: customer and return_url; the portal's url is returned", async () => {
    const user = await signupUser();
    const { customer } = await checkoutPack(user);
    const log: Sent[] = [];
    const portalId = rid("bps");
    const portal = {
      id: portalId,
      object: "billing_portal.session",
      configuration: rid("bpc"),
      created: unix(),
      customer,
      customer_account: null,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: `${DASHBOARD()}/billing`,
      url: `https://billing.stripe.com/p/session/test_${portalId}`,
    } satisfies Documented<Stripe.BillingPortal.Session>;
    intercept("post", "/v1/billing_portal/sessions", () => portal, log);

    const response = await call("/api/billing/portal", { method: "POST", token: user.accessToken });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ url: portal.url });
    expectStripeHeaders(log[0]!, false);
    expect(log[0]!.body).toEqual(asSent({ customer, return_url: `${DASHBOARD()}/billing` } satisfies Stripe.BillingPortal.SessionCreateParams));
  });

  it("auto top-up: customers.retrieve, paymentMethods.list when there is no default card, paymentIntents.create off-session; a succeeded intent grants the pack", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "starter");
    await deliverOk(
      stripeEvent(
        "checkout.session.completed",
        checkoutSessionObject({
          id: checkout.sessionId,
          paymentId: checkout.paymentId,
          userId: user.id,
          customer: checkout.customer,
          paymentIntent: rid("pi"),
        }),
      ),
    );
    const settings = await call("/api/billing/auto-topup", {
      method: "PUT",
      token: user.accessToken,
      body: { enabled: true, threshold_credits: 300, pack_id: "handful" },
    });
    expect(settings.status).toBe(200);
    fakeCards.set(checkout.customer, null);

    const log: Sent[] = [];
    const card = rid("pm");
    intercept(
      "get",
      `/v1/customers/${checkout.customer}`,
      () => documentedCustomer(checkout.customer, { email: user.email, name: "Ada Lovelace", defaultPaymentMethod: null }),
      log,
    );
    intercept(
      "get",
      "/v1/payment_methods",
      () => ({
        object: "list",
        url: "/v1/payment_methods",
        has_more: false,
        data: [
          {
            id: card,
            object: "payment_method",
            allow_redisplay: "always",
            billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
            card: { brand: "visa", country: "US", exp_month: 8, exp_year: 2027, funding: "credit", last4: "4242" },
            created: unix(),
            customer: checkout.customer,
            customer_account: null,
            livemode: false,
            metadata: {},
            type: "card",
          } satisfies Documented<Stripe.PaymentMethod>,
        ],
      }),
      log,
    );
    const intentId = rid("pi");
    intercept(
      "post",
      "/v1/payment_intents",
      (sent) =>
        ({
          id: intentId,
          object: "payment_intent",
          amount: Number(sent.body.amount),
          amount_capturable: 0,
          amount_received: Number(sent.body.amount),
          capture_method: "automatic_async",
          client_secret: `${intentId}_secret_test`,
          confirmation_method: "automatic",
          created: unix(),
          currency: "usd",
          customer: checkout.customer,
          description: String(sent.body.description),
          last_payment_error: null,
          latest_charge: rid("ch"),
          livemode: false,
          metadata: sent.body.metadata as Record<string, string>,
          next_action: null,
          payment_method: card,
          payment_method_types: ["card"],
          setup_future_usage: null,
          status: "succeeded",
        }) satisfies Documented<Stripe.PaymentIntent>,
      log,
    );

    const background = collector();
    expect(await reserveCredits(billingDeps(), user.id, 800, rid("job"), background.defer)).toMatchObject({ status: "reserved", balance: 200 });
    await background.settle();

    expect(log.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /v1/customers/${checkout.customer}`, "GET /v1/payment_methods", "POST /v1/payment_intents"]);
    for (const sent of log) expectStripeHeaders(sent, sent.method === "POST");
    expect(log[0]!.body).toEqual({});
    expect(log[1]!.body).toEqual(asSent({ customer: checkout.customer, type: "card", limit: 1 } satisfies Stripe.PaymentMethodListParams));
    const [topup] = (await paymentsOf(user.id)).filter((p) => p.kind === "auto_topup");
    expect(log[2]!.body).toEqual(
      asSent({
        amount: 2000,
        currency: "usd",
        customer: checkout.customer,
        payment_method: card,
        off_session: true,
        confirm: true,
        description: expect.any(String),
        metadata: { kind: "auto_topup", payment_id: topup!.id, user_id: user.id, pack_id: "handful" },
      } satisfies Stripe.PaymentIntentCreateParams),
    );

    // A `succeeded` intent is the pack, at once: the payment completed with the intent's id.
    expect(topup).toMatchObject({ status: "completed", processor_payment_intent_id: intentId });
    expect(await ledgerOf(user.id, "auto_topup")).toEqual([expect.objectContaining({ delta: 2000 })]);
    expect(await balanceOf(user.id)).toBe(2200);
    await expectLedgerConsistent(user.id);
    fakeCards.delete(checkout.customer);
  });

  it("billing.meterEvents.create: event_name, identifier, payload (customer, value as a string), timestamp; Stripe's answer marks the report reported", async () => {
    const user = await signupUser();
    const { customer, periodStart } = await subscribeUser(user, "developer");
    await setBalance(user.id, 100);
    const log: Sent[] = [];
    intercept(
      "post",
      "/v1/billing/meter_events",
      (sent) =>
        ({
          object: "billing.meter_event",
          created: unix(),
          event_name: String(sent.body.event_name),
          identifier: String(sent.body.identifier),
          livemode: false,
          payload: sent.body.payload as Record<string, string>,
          timestamp: Number(sent.body.timestamp),
        }) satisfies Documented<Stripe.Billing.MeterEvent>,
      log,
    );

    const background = collector();
    expect(await reserveCredits(billingDeps(), user.id, 600, rid("job"), background.defer)).toMatchObject({ status: "reserved", overageCredits: 500 });
    await background.settle();

    const report = await env.DB.prepare("select * from overage_reports where user_id = ?").bind(user.id).first<Record<string, any>>();
    expect(log).toHaveLength(1);
    // Not idempotent by header: the meter's `identifier` is its de-duplication (MeterEvents.d.ts).
    expectStripeHeaders(log[0]!, false);
    expect(log[0]!.body).toEqual(
      asSent({
        event_name: billingDeps().config.STRIPE_METER_EVENT_NAME,
        identifier: report!.id,
        payload: { stripe_customer_id: customer, value: "500" },
        timestamp: expect.stringMatching(/^\d+$/),
      } satisfies Omit<Stripe.Billing.MeterEventCreateParams, "timestamp"> & { timestamp: unknown }),
    );
    const timestamp = Number((log[0]!.body as { timestamp: string }).timestamp);
    expect(timestamp).toBeGreaterThanOrEqual(periodStart);
    expect(timestamp).toBeLessThanOrEqual(unix());
    expect(report).toMatchObject({ status: "reported", error: null, credits: 500 });
  });
});

describe("Stripe events that grant credits, in the documented shape of the pinned version", () => {
  it("checkout.session.completed of a paid pack checkout grants the pack once", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "starter");
    const sentParams = checkout.sent.params;
    const session = {
      ...documentedCheckoutSession(
        {
          cancel_url: sentParams.get("cancel_url"),
          success_url: sentParams.get("success_url"),
          client_reference_id: user.id,
          customer: checkout.customer,
          metadata: { payment_id: checkout.paymentId, user_id: user.id, pack_id: "starter" },
          mode: "payment",
        },
        checkout.sessionId,
      ),
      amount_subtotal: 500,
      amount_total: 500,
      customer_details: {
        address: null,
        business_name: null,
        email: user.email,
        individual_name: null,
        name: "Ada Lovelace",
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
      payment_intent: rid("pi"),
      payment_status: "paid",
      status: "complete",
      url: null,
    } satisfies Documented<Stripe.Checkout.Session>;
    const event = {
      id: rid("evt"),
      object: "event",
      api_version: STRIPE_API_VERSION,
      created: unix(),
      data: { object: session },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "checkout.session.completed",
    } satisfies Documented<Stripe.CheckoutSessionCompletedEvent>;

    const before = await balanceOf(user.id);
    await deliverOk(event as never);
    expect(await balanceOf(user.id)).toBe(before + 500);
    expect(await ledgerOf(user.id, "purchase")).toEqual([expect.objectContaining({ delta: 500, related_id: checkout.paymentId })]);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({ status: "completed", processor_payment_intent_id: session.payment_intent });
    // Stripe redelivers: the same event grants nothing more.
    const again = await deliver(event as never);
    expect(again.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(before + 500);
    await expectLedgerConsistent(user.id);
  });

  it("invoice.paid of a subscription's first invoice (subscription_create), before any subscription event, grants the plan's credits from the metadata our checkout set", async () => {
    const user = await signupUser();
    const checkout = await checkoutPlan(user, "developer");
    const subscription = rid("sub");
    const invoiceId = rid("in");
    const start = unix();
    const end = start + 30 * 86_400;
    // Stripe copies the checkout's subscription_data.metadata to the subscription, and the
    // invoice carries it in parent.subscription_details.metadata (Invoices.d.ts).
    const subscriptionMetadata = { payment_id: checkout.paymentId, user_id: user.id, plan_id: "developer" };
    const invoice = {
      id: invoiceId,
      object: "invoice",
      account_country: "US",
      amount_due: 2900,
      amount_paid: 2900,
      amount_overpaid: 0,
      amount_remaining: 0,
      attempt_count: 1,
      attempted: true,
      billing_reason: "subscription_create",
      collection_method: "charge_automatically",
      created: start,
      currency: "usd",
      customer: checkout.customer,
      customer_email: user.email,
      lines: {
        object: "list",
        has_more: false,
        url: `/v1/invoices/${invoiceId}/lines`,
        data: [
          {
            id: rid("il"),
            object: "line_item",
            amount: 2900,
            currency: "usd",
            description: "1 × Developer (at $29.00 / month)",
            invoice: invoiceId,
            livemode: false,
            metadata: {},
            parent: {
              type: "subscription_item_details",
              invoice_item_details: null,
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                proration_details: { credited_items: null },
                subscription,
                subscription_item: rid("si"),
              },
            },
            period: { start, end },
            pricing: { type: "price_details", price_details: { price: price("DEVELOPER"), product: rid("prod") }, unit_amount_decimal: "2900" },
            quantity: 1,
          },
          {
            id: rid("il"),
            object: "line_item",
            amount: 0,
            currency: "usd",
            description: "Overage credits",
            invoice: invoiceId,
            livemode: false,
            metadata: {},
            parent: {
              type: "subscription_item_details",
              invoice_item_details: null,
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                proration_details: { credited_items: null },
                subscription,
                subscription_item: rid("si"),
              },
            },
            period: { start, end },
            pricing: { type: "price_details", price_details: { price: price("DEVELOPER_OVERAGE"), product: rid("prod") }, unit_amount_decimal: "0.9" },
            quantity: 0,
          },
        ],
      },
      livemode: false,
      parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: subscriptionMetadata, subscription } },
      period_end: start,
      period_start: start,
      status: "paid",
      status_transitions: { finalized_at: start, marked_uncollectible_at: null, paid_at: start, voided_at: null },
      subtotal: 2900,
      total: 2900,
    } satisfies Documented<Stripe.Invoice>;
    const event = {
      id: rid("evt"),
      object: "event",
      api_version: STRIPE_API_VERSION,
      created: start,
      data: { object: invoice },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "invoice.paid",
    } satisfies Documented<Stripe.InvoicePaidEvent>;

    const before = await balanceOf(user.id);
    await deliverOk(event as never);
    expect(await balanceOf(user.id)).toBe(before + 4000);
    const granted = (await paymentsOf(user.id)).filter((p) => p.kind === "plan_invoice");
    expect(granted).toEqual([
      expect.objectContaining({ status: "completed", plan_id: "developer", pack_credits: 4000, pack_amount_cents: 2900, processor_invoice_id: invoiceId }),
    ]);
    await expectLedgerConsistent(user.id);
  });
});
