/**
 * Contract of the webhook with Stripe's API version this server pins (issue 41, item 3).
 *
 * The invoice.paid payload below is Stripe's documented one for the pinned version: the Event
 * object (https://docs.stripe.com/api/events/object), the Invoice object's example
 * (https://docs.stripe.com/api/invoices/object: `parent.subscription_details`, no top-level
 * `subscription`) with a subscription line as the Invoice Line Item object documents it
 * (https://docs.stripe.com/api/invoice-line-item/object: `parent.subscription_item_details`,
 * `pricing.price_details.price`, no `price`). It is type-checked against the installed SDK's types
 * (stripe 23.1.0, node_modules/stripe/cjs/resources/Invoices.d.ts and InvoiceLineItems.d.ts, which
 * describe 2026-10-28.endive): a field the SDK of the pinned version does not have fails `tsc`.
 */
import { env } from "cloudflare:workers";
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { STRIPE_API_VERSION } from "../../src/services/billing/stripe-version";
import { adminUser, call, expectError, expectLedgerConsistent, json, signupUser } from "../helpers";
import { balanceOf, deliver, price, rid, storedEvent, subscribeUser, useFakeProcessor } from "./helpers";

useFakeProcessor();

/** Any part of T, with T's field names and value types: what a documented payload must fit. */
type Documented<T> = T extends (infer U)[] ? Documented<U>[] : T extends object ? { [K in keyof T]?: Documented<T[K]> } : T;

function documentedInvoicePaid(fields: { subscription: string; customer: string; priceId: string; periodStart: number; periodEnd: number }) {
  const invoiceId = rid("in");
  const invoice = {
    id: invoiceId,
    object: "invoice",
    account_country: "US",
    account_name: "Stripe Docs",
    amount_due: 2900,
    amount_paid: 2900,
    amount_overpaid: 0,
    amount_remaining: 0,
    attempt_count: 1,
    attempted: true,
    billing_reason: "subscription_cycle",
    collection_method: "charge_automatically",
    created: fields.periodStart,
    currency: "usd",
    customer: fields.customer,
    customer_email: "jennyrosen@example.com",
    customer_name: "Jenny Rosen",
    issuer: { type: "self" },
    lines: {
      object: "list",
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
              subscription: fields.subscription,
              subscription_item: rid("si"),
            },
          },
          period: { end: fields.periodEnd, start: fields.periodStart },
          pricing: { type: "price_details", price_details: { price: fields.priceId, product: rid("prod") }, unit_amount_decimal: "2900" },
          quantity: 1,
        },
      ],
      has_more: false,
      url: `/v1/invoices/${invoiceId}/lines`,
    },
    livemode: false,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: {}, subscription: fields.subscription },
    },
    period_end: fields.periodStart,
    period_start: fields.periodStart,
    status: "paid",
    status_transitions: { finalized_at: fields.periodStart, marked_uncollectible_at: null, paid_at: fields.periodStart, voided_at: null },
    subtotal: 2900,
    total: 2900,
  } satisfies Documented<Stripe.Invoice>;
  return {
    id: rid("evt"),
    object: "event",
    api_version: STRIPE_API_VERSION,
    created: fields.periodStart,
    data: { object: invoice },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: "invoice.paid",
  } satisfies Documented<Stripe.InvoicePaidEvent>;
}

/** The same invoice as an account on 2024-06-20 sends it: top-level `subscription`, `line.price`; no `parent`, no `pricing`. */
function olderInvoicePaid(event: ReturnType<typeof documentedInvoicePaid>) {
  const { parent: _parent, lines, ...invoice } = event.data.object;
  const line = lines.data[0]!;
  const { parent: _lineParent, pricing, ...rest } = line;
  return {
    ...event,
    api_version: "2024-06-20",
    data: {
      object: {
        ...invoice,
        subscription: line.parent.subscription_item_details.subscription,
        subscription_details: { metadata: {} },
        lines: {
          ...lines,
          data: [{ ...rest, price: { id: pricing.price_details.price, object: "price" }, subscription: line.parent.subscription_item_details.subscription }],
        },
      },
    },
  };
}

const unix = () => Math.floor(Date.now() / 1000);

describe("Stripe API version of webhook events", () => {
  it("applies Stripe's documented invoice.paid of the pinned version: the plan's credits", async () => {
    const user = await signupUser();
    const { subscriptionId, customer } = await subscribeUser(user, "developer");
    const before = await balanceOf(user.id);
    const event = documentedInvoicePaid({
      subscription: subscriptionId,
      customer,
      priceId: price("DEVELOPER"),
      periodStart: unix(),
      periodEnd: unix() + 30 * 86_400,
    });

    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ received: true, status: "processed" });
    expect(await balanceOf(user.id)).toBe(before + 4000);
    expect(await storedEvent(event.id)).toMatchObject({ status: "processed", error: null });
    await expectLedgerConsistent(user.id);
  });

  it("refuses an event of another version (400, stored as unsupported, shown to the admin), then applies the pinned copy of it", async () => {
    const user = await signupUser();
    const { subscriptionId, customer } = await subscribeUser(user, "developer");
    const before = await balanceOf(user.id);
    const current = documentedInvoicePaid({
      subscription: subscriptionId,
      customer,
      priceId: price("DEVELOPER"),
      periodStart: unix(),
      periodEnd: unix() + 30 * 86_400,
    });
    const older = olderInvoicePaid(current);

    // Not a 2xx: Stripe marks the delivery failed, warns the account and retries it.
    const refused = await deliver(older);
    await expectError(refused, 400, "invalid_request");
    expect(await balanceOf(user.id)).toBe(before);
    const stored = await storedEvent(older.id);
    expect(stored).toMatchObject({ status: "unsupported", type: "invoice.paid" });
    expect(stored!.error).toContain("2024-06-20");
    expect(stored!.error).toContain(STRIPE_API_VERSION);

    const admin = await adminUser();
    const rows = await json<any[]>(await call("/api/admin/processor-events?limit=100", { token: admin.accessToken }));
    expect(rows.find((r) => r.id === older.id)).toMatchObject({ status: "unsupported", error: expect.stringContaining("2024-06-20"), attempts: 1 });
    // A replay refuses it too: the handlers cannot read that version.
    expect((await call(`/api/admin/processor-events/${older.id}/replay`, { method: "POST", token: admin.accessToken })).status).toBe(500);
    expect(await balanceOf(user.id)).toBe(before);

    // The same event from an endpoint on the pinned version (an upgrade runs both for a while) replaces the refused copy.
    const applied = await deliver(current);
    expect(applied.status).toBe(200);
    expect(await json(applied)).toEqual({ received: true, status: "processed" });
    expect(await balanceOf(user.id)).toBe(before + 4000);
    expect(await storedEvent(current.id)).toMatchObject({ status: "processed", error: null });

    // A late old-version copy after that changes nothing: the applied copy is kept (and answers as it did), no second grant.
    expect((await deliver(older)).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(before + 4000);
    expect(JSON.parse((await storedEvent(current.id))!.body).api_version).toBe(STRIPE_API_VERSION);
    await expectLedgerConsistent(user.id);
  });

  it("refuses an event without an api_version", async () => {
    const { api_version: _v, ...bare } = documentedInvoicePaid({
      subscription: rid("sub"),
      customer: rid("cus"),
      priceId: price("DEVELOPER"),
      periodStart: unix(),
      periodEnd: unix(),
    });
    await expectError(await deliver(bare as never), 400, "invalid_request");
    expect(await env.DB.prepare("select status from processor_events where id = ?").bind(bare.id).first()).toEqual({ status: "unsupported" });
  });
});
