import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { maybeStartAutoTopup } from "../../src/services/billing/auto-topup";
import { applyLedgerChange } from "../../src/services/ledger";
import { EVENT_HANDLERS } from "../../src/services/billing/event-handlers";
import { createDb } from "../../src/db/client";
import { BASE, call, expectError, expectLedgerConsistent, json, signupUser, type TestUser } from "../helpers";
import {
  balanceOf,
  billingDeps,
  chargeObject,
  checkoutPack,
  checkoutPlan,
  checkoutSessionObject,
  deliver,
  deliverOk,
  invoiceObject,
  ledgerOf,
  paymentIntentObject,
  paymentRow,
  paymentsOf,
  rid,
  server,
  STRIPE,
  storedEvent,
  stripeEvent,
  type StripeEvent,
  stripeSignature,
  subscribeUser,
  subscriptionObject,
  price,
  useFakeProcessor,
  customerOf,
} from "./helpers";

useFakeProcessor();

const now = () => Math.floor(Date.now() / 1000);

/** The test D1, except that the first `parties` batches wait for each other before running. */
function gatedD1(parties: number): D1Database {
  let waiting = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const db = env.DB;
  return {
    prepare: (query: string) => db.prepare(query),
    exec: (query: string) => db.exec(query),
    dump: () => db.dump(),
    withSession: (...args: never[]) => (db.withSession as (...a: never[]) => D1DatabaseSession)(...args),
    batch: async (statements: D1PreparedStatement[]) => {
      if (waiting < parties) {
        waiting += 1;
        if (waiting === parties) open();
        await gate;
      }
      return db.batch(statements);
    },
  } as D1Database;
}

/**
 * The processor's at-least-once delivery: the event three times in a row, then twice at once.
 * Every delivery must be acknowledged with 200 and the same outcome.
 */
async function deliverRepeatedly(event: StripeEvent, status: "processed" | "ignored" = "processed") {
  for (let i = 0; i < 3; i++) await deliverOk(event, status);
  const concurrent = await Promise.all([deliver(event), deliver(event)]);
  for (const response of concurrent) {
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ received: true, status });
  }
  const stored = await storedEvent(event.id);
  expect(stored).toMatchObject({ id: event.id, type: event.type, status, error: null });
  expect(JSON.parse(stored!.body)).toEqual(event);
  expect(stored!.attempts).toBe(5);
}

/** A completed pack purchase through checkout + the processor's completion event. */
async function buyPack(user: TestUser, packId = "starter", amount = 500) {
  const checkout = await checkoutPack(user, packId);
  const paymentIntent = rid("pi");
  await deliverOk(
    stripeEvent(
      "checkout.session.completed",
      checkoutSessionObject({
        id: checkout.sessionId,
        paymentId: checkout.paymentId,
        userId: user.id,
        customer: checkout.customer,
        paymentIntent,
        amountTotal: amount,
        packId,
      }),
    ),
  );
  return { ...checkout, paymentIntent };
}

describe("webhook signature", () => {
  it("rejects a missing, malformed, wrong, tampered or expired signature with 400 and stores nothing", async () => {
    const event = stripeEvent("checkout.session.completed", { id: rid("cs"), object: "checkout.session" });
    const raw = JSON.stringify(event);
    const t = now();
    const cases: (string | null)[] = [
      null, // no header
      "",
      "garbage",
      `t=${t}`, // no v1
      `v1=${"0".repeat(64)}`, // no timestamp
      await stripeSignature(raw, t, "whsec_some_other_endpoint_secret"), // another endpoint's secret
      (await stripeSignature(raw, t)).replace(/v1=(.)/, (_, c: string) => `v1=${c === "a" ? "b" : "a"}`), // one hex digit changed
      await stripeSignature(raw, t - 301), // older than the 5-minute tolerance
      await stripeSignature(raw, t - 3600),
      await stripeSignature(raw, t + 3600), // from the future
    ];
    for (const signature of cases) {
      await expectError(await deliver(event, signature), 400, "invalid_request");
    }
    // A valid signature over a different body.
    const tampered = JSON.stringify({ ...event, type: "invoice.paid" });
    await expectError(await deliver(tampered, await stripeSignature(raw, t)), 400, "invalid_request");
    expect(await storedEvent(event.id)).toBeNull();
  });

  it("accepts a signature within the tolerance and any matching v1 among several (secret rotation)", async () => {
    const event = stripeEvent("customer.created", { id: rid("cus"), object: "customer" });
    const raw = JSON.stringify(event);
    const old = await stripeSignature(raw, now() - 240);
    expect((await deliver(event, old)).status).toBe(200);
    const event2 = stripeEvent("customer.created", { id: rid("cus"), object: "customer" });
    const raw2 = JSON.stringify(event2);
    const t = now();
    const good = (await stripeSignature(raw2, t)).split(",")[1]!;
    const other = (await stripeSignature(raw2, t, "whsec_rotated_out_secret")).split(",")[1]!;
    expect((await deliver(event2, `t=${t},${other},${good}`)).status).toBe(200);
  });

  it("answers 500 payment_processor_not_configured when the webhook secret is unset, storing nothing", async () => {
    const event = stripeEvent("checkout.session.completed", { id: rid("cs"), object: "checkout.session" });
    const raw = JSON.stringify(event);
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${BASE}/api/billing/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": await stripeSignature(raw), "CF-Connecting-IP": "203.0.113.9" },
        body: raw,
      }),
      { ...env, STRIPE_WEBHOOK_SECRET: undefined } as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    await expectError(response, 500, "payment_processor_not_configured");
    expect(await storedEvent(event.id)).toBeNull();
  });

  it("answers 400 for a signed body that is not an event", async () => {
    await expectError(await deliver("not json"), 400, "invalid_request");
    await expectError(await deliver(JSON.stringify({ object: "event" })), 400, "invalid_request");
  });
});

describe("webhook storage", () => {
  it("stores an unknown event type with its body and acknowledges it with 200", async () => {
    const event = stripeEvent("customer.tax_id.created", { id: rid("txi"), object: "tax_id", type: "eu_vat", value: "DE123456789" });
    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ received: true, status: "ignored" });
    const stored = await storedEvent(event.id);
    expect(stored).toMatchObject({ type: "customer.tax_id.created", status: "ignored", attempts: 1 });
    expect(stored!.body).toBe(JSON.stringify(event));
    expect(new Date(stored!.received_at).getTime()).not.toBeNaN();
    expect(stored!.processed_at).toEqual(expect.any(String));
  });
});

describe("checkout events", () => {
  it("checkout.session.completed (paid) grants the pack once: purchase entry + payment completed", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "workshop");
    const paymentIntent = rid("pi");
    const event = stripeEvent(
      "checkout.session.completed",
      checkoutSessionObject({
        id: checkout.sessionId,
        paymentId: checkout.paymentId,
        userId: user.id,
        customer: checkout.customer,
        paymentIntent,
        amountTotal: 5000,
        packId: "workshop",
      }),
    );
    await deliverRepeatedly(event);

    expect(await balanceOf(user.id)).toBe(500 + 5000);
    const purchases = await ledgerOf(user.id, "purchase");
    expect(purchases).toEqual([expect.objectContaining({ delta: 5000, balance_after: 5500, related_id: checkout.paymentId })]);
    const row = await paymentRow(checkout.paymentId);
    expect(row).toMatchObject({ status: "completed", processor_payment_intent_id: paymentIntent, error: null });
    expect(row!.completed_at).toEqual(expect.any(String));
    const [history] = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(history).toMatchObject({
      id: checkout.paymentId,
      status: "completed",
      pack_credits: 5000,
      pack_amount_cents: 5000,
      completed_at: row!.completed_at,
    });

    // The processor may also send async_payment_succeeded for the same session: still one grant.
    await deliverOk(stripeEvent("checkout.session.async_payment_succeeded", event.data.object));
    expect(await balanceOf(user.id)).toBe(5500);
    await expectLedgerConsistent(user.id);
  });

  it("finds the payment by session id when the metadata is missing", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "starter");
    const session = checkoutSessionObject({ id: checkout.sessionId, paymentId: checkout.paymentId, userId: user.id, customer: checkout.customer });
    session.metadata = {} as never;
    await deliverOk(stripeEvent("checkout.session.completed", session));
    expect(await balanceOf(user.id)).toBe(1000);
    await expectLedgerConsistent(user.id);
  });

  it("an unpaid completion grants nothing; async_payment_succeeded then grants once", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "handful");
    const fields = {
      id: checkout.sessionId,
      paymentId: checkout.paymentId,
      userId: user.id,
      customer: checkout.customer,
      paymentIntent: rid("pi"),
      amountTotal: 2000,
    };
    await deliverRepeatedly(stripeEvent("checkout.session.completed", checkoutSessionObject({ ...fields, paymentStatus: "unpaid" })), "ignored");
    expect(await balanceOf(user.id)).toBe(500);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({ status: "pending" });

    await deliverRepeatedly(stripeEvent("checkout.session.async_payment_succeeded", checkoutSessionObject({ ...fields, paymentStatus: "paid" })));
    expect(await balanceOf(user.id)).toBe(2500);
    expect(await ledgerOf(user.id, "purchase")).toHaveLength(1);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({ status: "completed" });
    await expectLedgerConsistent(user.id);
  });

  it("async_payment_failed marks the payment failed and grants nothing", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user, "starter");
    const fields = { id: checkout.sessionId, paymentId: checkout.paymentId, userId: user.id, customer: checkout.customer, paymentIntent: rid("pi") };
    await deliverOk(stripeEvent("checkout.session.completed", checkoutSessionObject({ ...fields, paymentStatus: "unpaid" })), "ignored");
    await deliverRepeatedly(stripeEvent("checkout.session.async_payment_failed", checkoutSessionObject({ ...fields, paymentStatus: "unpaid" })));
    expect(await balanceOf(user.id)).toBe(500);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({ status: "failed" });
    const [history] = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(history).toMatchObject({ id: checkout.paymentId, status: "failed", completed_at: null });
    await expectLedgerConsistent(user.id);
  });

  it("a plan checkout completion records the checkout without granting credits (those come with invoice.paid)", async () => {
    const user = await signupUser();
    const checkout = await checkoutPlan(user, "developer");
    const event = stripeEvent(
      "checkout.session.completed",
      checkoutSessionObject({
        id: checkout.sessionId,
        paymentId: checkout.paymentId,
        userId: user.id,
        customer: checkout.customer,
        mode: "subscription",
        amountTotal: 2900,
        planId: "developer",
      }),
    );
    await deliverRepeatedly(event);
    expect(await balanceOf(user.id)).toBe(500);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({ status: "completed", kind: "plan_checkout" });
    await expectLedgerConsistent(user.id);
  });

  it("a completion for a session we never created is stored and ignored", async () => {
    const user = await signupUser();
    const event = stripeEvent(
      "checkout.session.completed",
      checkoutSessionObject({ id: rid("cs"), paymentId: crypto.randomUUID(), userId: user.id, customer: rid("cus") }),
    );
    await deliverOk(event, "ignored");
    expect(await balanceOf(user.id)).toBe(500);
  });
});

describe("payment_intent events (auto top-up)", () => {
  async function pendingTopup(user: TestUser) {
    await buyPack(user); // saves a customer
    await applyLedgerChange(createDb(env.DB), user.id, { kind: "reservation", delta: -900, idempotencyKey: `reservation:${rid("job")}` });
    const put = await call("/api/billing/auto-topup", {
      method: "PUT",
      token: user.accessToken,
      body: { enabled: true, threshold_credits: 200, pack_id: "handful" },
    });
    expect(put.status).toBe(200);
    let intent: ReturnType<typeof paymentIntentObject> | undefined;
    server.use(
      http.post(`${STRIPE}/v1/payment_intents`, async ({ request }) => {
        intent = paymentIntentObject(new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer())), "processing");
        return HttpResponse.json(intent);
      }),
    );
    expect(await maybeStartAutoTopup(billingDeps(), user.id)).toBe("started");
    expect(intent).toBeDefined();
    const [payment] = (await paymentsOf(user.id)).filter((p) => p.kind === "auto_topup");
    expect(payment).toMatchObject({ status: "pending", processor_payment_intent_id: intent!.id });
    return { intent: intent!, paymentId: payment!.id as string };
  }

  it("payment_intent.succeeded of an auto top-up grants the pack once as auto_topup and frees the slot", async () => {
    const user = await signupUser();
    const { intent, paymentId } = await pendingTopup(user);
    expect(await balanceOf(user.id)).toBe(100);
    expect((await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).in_flight).toBe(true);

    await deliverRepeatedly(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded", amount_received: intent.amount }));
    expect(await balanceOf(user.id)).toBe(2100);
    expect(await ledgerOf(user.id, "auto_topup")).toEqual([expect.objectContaining({ delta: 2000, related_id: paymentId })]);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "completed" });
    expect((await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).in_flight).toBe(false);
    await expectLedgerConsistent(user.id);
  });

  it("payment_intent.payment_failed marks the auto top-up failed and frees the slot", async () => {
    const user = await signupUser();
    const { intent, paymentId } = await pendingTopup(user);
    const failed = {
      ...intent,
      status: "requires_payment_method",
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
    };
    await deliverRepeatedly(stripeEvent("payment_intent.payment_failed", failed));
    expect(await balanceOf(user.id)).toBe(100);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "failed", error: "Your card has insufficient funds." });
    expect((await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).in_flight).toBe(false);
    await expectLedgerConsistent(user.id);
  });

  it("ignores payment intents that are not auto top-ups (checkout payments are applied from checkout events)", async () => {
    const user = await signupUser();
    const { paymentIntent, paymentId } = await buyPack(user);
    const params = new URLSearchParams({ amount: "500", currency: "usd", "metadata[payment_id]": paymentId, "metadata[user_id]": user.id });
    await deliverOk(stripeEvent("payment_intent.succeeded", paymentIntentObject(params, "succeeded", paymentIntent)), "ignored");
    expect(await balanceOf(user.id)).toBe(1000);
    await expectLedgerConsistent(user.id);
  });
});

describe("subscription and invoice events", () => {
  it("invoice.paid grants the plan's included credits once per invoice and records a plan_invoice payment", async () => {
    const user = await signupUser();
    const { subscriptionId, customer, periodStart, periodEnd } = await subscribeUser(user, "developer");
    const invoice = invoiceObject({
      id: rid("in"),
      customer,
      subscription: subscriptionId,
      priceId: price("DEVELOPER"),
      amountPaid: 2900,
      periodStart,
      periodEnd,
      userId: user.id,
      planId: "developer",
    });
    await deliverRepeatedly(stripeEvent("invoice.paid", invoice));
    expect(await balanceOf(user.id)).toBe(500 + 4000);
    expect(await ledgerOf(user.id, "plan_grant")).toEqual([expect.objectContaining({ delta: 4000 })]);
    const rows = (await paymentsOf(user.id)).filter((p) => p.kind === "plan_invoice");
    expect(rows).toEqual([
      expect.objectContaining({ status: "completed", plan_id: "developer", pack_credits: 4000, pack_amount_cents: 2900, processor_invoice_id: invoice.id }),
    ]);

    // The next month's invoice grants again, once.
    const next = invoiceObject({
      id: rid("in"),
      customer,
      subscription: subscriptionId,
      priceId: price("DEVELOPER"),
      amountPaid: 2900,
      periodStart: periodEnd,
      periodEnd: periodEnd + 30 * 86_400,
    });
    await deliverRepeatedly(stripeEvent("invoice.paid", next));
    expect(await balanceOf(user.id)).toBe(500 + 8000);
    expect(await ledgerOf(user.id, "plan_grant")).toHaveLength(2);
    await expectLedgerConsistent(user.id);
  });

  it("a proration invoice (plan change mid-period) records nothing as a new month of credits", async () => {
    const user = await signupUser();
    const { subscriptionId, customer, periodStart, periodEnd } = await subscribeUser(user, "developer");
    const invoice = {
      ...invoiceObject({
        id: rid("in"),
        customer,
        subscription: subscriptionId,
        priceId: price("STARTUP"),
        amountPaid: 9000,
        periodStart,
        periodEnd,
        userId: user.id,
        planId: "startup",
      }),
      billing_reason: "subscription_update",
    };
    await deliverOk(stripeEvent("invoice.paid", invoice), "ignored");
    expect(await ledgerOf(user.id, "plan_grant")).toEqual([]);
    await expectLedgerConsistent(user.id);
  });

  it("a subscription created outside our checkout links its customer to the user", async () => {
    const user = await signupUser();
    const customer = rid("cus");
    const subscription = subscriptionObject({
      id: rid("sub"),
      customer,
      priceId: price("DEVELOPER"),
      periodStart: now(),
      periodEnd: now() + 30 * 86_400,
      userId: user.id,
      planId: "developer",
    });
    await deliverOk(stripeEvent("customer.subscription.created", subscription));
    expect(await customerOf(user.id)).toBe(customer);
  });

  it("invoice.paid arriving before the subscription event still finds the user and the plan", async () => {
    const user = await signupUser();
    const checkout = await checkoutPlan(user, "growth");
    const invoice = invoiceObject({
      id: rid("in"),
      customer: checkout.customer,
      subscription: rid("sub"),
      priceId: price("GROWTH"),
      amountPaid: 49900,
      periodStart: now(),
      periodEnd: now() + 30 * 86_400,
      userId: user.id,
      planId: "growth",
    });
    await deliverOk(stripeEvent("invoice.paid", invoice));
    expect(await balanceOf(user.id)).toBe(500 + 100_000);
    await expectLedgerConsistent(user.id);
  });

  it("an invoice that is not for a subscription is ignored", async () => {
    const user = await signupUser();
    const checkout = await checkoutPack(user);
    const invoice = {
      ...invoiceObject({
        id: rid("in"),
        customer: checkout.customer,
        subscription: "x",
        priceId: "price_other",
        amountPaid: 100,
        periodStart: now(),
        periodEnd: now(),
      }),
      parent: null,
    };
    await deliverOk(stripeEvent("invoice.paid", invoice), "ignored");
    expect(await balanceOf(user.id)).toBe(500);
  });

  it("customer.subscription.updated sets the plan, status and period end; deleted goes back to Free", async () => {
    const user = await signupUser();
    const { subscriptionId, customer, periodStart, periodEnd } = await subscribeUser(user, "developer");
    let view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({ plan: { id: "developer" }, status: "active", current_period_end: new Date(periodEnd * 1000).toISOString() });

    // Upgrade to Startup, then past_due while the processor retries the card.
    const base = { id: subscriptionId, customer, userId: user.id, periodStart, periodEnd };
    const created = now();
    await deliverRepeatedly(
      stripeEvent(
        "customer.subscription.updated",
        subscriptionObject({ ...base, priceId: price("STARTUP"), overagePriceId: price("STARTUP_OVERAGE"), planId: "startup" }),
        created + 1,
      ),
    );
    view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({
      plan: { id: "startup", name: "Startup", included_credits: 25000 },
      status: "active",
      current_period_end: new Date(periodEnd * 1000).toISOString(),
    });
    await deliverOk(stripeEvent("customer.subscription.updated", subscriptionObject({ ...base, priceId: price("STARTUP"), status: "past_due" }), created + 2));
    view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({ plan: { id: "startup" }, status: "past_due" });

    await deliverRepeatedly(
      stripeEvent("customer.subscription.deleted", subscriptionObject({ ...base, priceId: price("STARTUP"), status: "canceled" }), created + 3),
    );
    view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({ plan: { id: "free" }, status: "active", current_period_end: null, overage_credits_this_period: 0 });
    await expectLedgerConsistent(user.id);
  });

  it("an older, out-of-order subscription event does not overwrite a newer one", async () => {
    const user = await signupUser();
    const { subscriptionId, customer, periodStart, periodEnd } = await subscribeUser(user, "developer", { periodStart: now() - 100 });
    const base = { id: subscriptionId, customer, userId: user.id, periodStart, periodEnd };
    const t = now() + 10;
    const newer = stripeEvent("customer.subscription.updated", subscriptionObject({ ...base, priceId: price("GROWTH") }), t + 5);
    const older = stripeEvent("customer.subscription.updated", subscriptionObject({ ...base, priceId: price("STARTUP") }), t);
    await deliverOk(newer);
    await deliverOk(older, "ignored");
    expect(await json(await call("/api/billing/subscription", { token: user.accessToken }))).toMatchObject({ plan: { id: "growth" } });

    // A late 'updated' after the deletion does not resurrect the plan.
    await deliverOk(stripeEvent("customer.subscription.deleted", subscriptionObject({ ...base, priceId: price("GROWTH"), status: "canceled" }), t + 20));
    await deliverOk(
      stripeEvent("customer.subscription.updated", subscriptionObject({ ...base, priceId: price("GROWTH"), status: "active" }), t + 15),
      "ignored",
    );
    expect(await json(await call("/api/billing/subscription", { token: user.accessToken }))).toMatchObject({ plan: { id: "free" } });
  });
});

describe("charge.refunded", () => {
  it("a full refund after the user spent part takes what is left, stops at 0 and records the shortfall", async () => {
    const user = await signupUser();
    const { paymentIntent, paymentId, customer } = await buyPack(user, "starter", 500);
    expect(await balanceOf(user.id)).toBe(1000);
    await applyLedgerChange(createDb(env.DB), user.id, { kind: "reservation", delta: -800, idempotencyKey: `reservation:${rid("job")}` });
    expect(await balanceOf(user.id)).toBe(200);

    const charge = chargeObject({ id: rid("ch"), paymentIntent, customer, amount: 500, amountRefunded: 500 });
    await deliverRepeatedly(stripeEvent("charge.refunded", charge), "processed");
    expect(await balanceOf(user.id)).toBe(0);
    const adjustments = await ledgerOf(user.id, "admin_adjustment");
    expect(adjustments).toEqual([expect.objectContaining({ delta: -200, balance_after: 0, related_id: paymentId })]);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "refunded", refunded_credits: 500, refund_shortfall_credits: 300 });
    await expectLedgerConsistent(user.id);
  });

  it("partial refunds (increasing amount_refunded) each take their proportional credits once", async () => {
    const user = await signupUser();
    const { paymentIntent, paymentId, customer } = await buyPack(user, "handful", 2000);
    expect(await balanceOf(user.id)).toBe(2500);
    const chargeId = rid("ch");
    // The first event's delivery of a later refund is processed only after the earlier one.
    const first = stripeEvent("charge.refunded", chargeObject({ id: chargeId, paymentIntent, customer, amount: 2000, amountRefunded: 500 }));
    await deliverRepeatedly(first);
    expect(await balanceOf(user.id)).toBe(2000);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "completed", refunded_credits: 500, refund_shortfall_credits: 0 });

    const second = stripeEvent("charge.refunded", chargeObject({ id: chargeId, paymentIntent, customer, amount: 2000, amountRefunded: 1500 }));
    await deliverRepeatedly(second);
    await deliverOk(first); // a late redelivery of the first refund changes nothing
    expect(await balanceOf(user.id)).toBe(1000);
    expect((await ledgerOf(user.id, "admin_adjustment")).map((e) => e.delta)).toEqual([-500, -1000]);
    expect(await paymentRow(paymentId)).toMatchObject({ refunded_credits: 1500, refund_shortfall_credits: 0 });
    await expectLedgerConsistent(user.id);
  });

  it("two different partial refunds of one charge delivered at once take the right total", async () => {
    const user = await signupUser();
    const { paymentIntent, paymentId, customer } = await buyPack(user, "handful", 2000);
    const chargeId = rid("ch");
    const a = stripeEvent("charge.refunded", chargeObject({ id: chargeId, paymentIntent, customer, amount: 2000, amountRefunded: 500 }));
    const b = stripeEvent("charge.refunded", chargeObject({ id: chargeId, paymentIntent, customer, amount: 2000, amountRefunded: 1500 }));
    // Force the interleaving: both handlers read the payment before either writes (each holds its
    // first write batch until the other has reached its own).
    const deps = { ...billingDeps(), db: createDb(gatedD1(2)) };
    const handler = EVENT_HANDLERS["charge.refunded"]!;
    const outcomes = await Promise.all([handler(deps, a as never), handler(deps, b as never)]);
    expect(outcomes.map((o) => o.status)).toEqual(["processed", "processed"]);
    expect(await balanceOf(user.id)).toBe(2500 - 1500);
    expect(await paymentRow(paymentId)).toMatchObject({ refunded_credits: 1500, refund_shortfall_credits: 0 });
    // And through the webhook, all at once, with redeliveries.
    const c = stripeEvent("charge.refunded", chargeObject({ id: chargeId, paymentIntent, customer, amount: 2000, amountRefunded: 2000 }));
    const responses = await Promise.all([a, c, b, c, a].map((event) => deliver(event)));
    for (const response of responses) expect(response.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(500);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "refunded", refunded_credits: 2000 });
    await expectLedgerConsistent(user.id);
  });

  it("refunds of plan payments and of unknown charges are ignored", async () => {
    const user = await signupUser();
    await deliverOk(
      stripeEvent("charge.refunded", chargeObject({ id: rid("ch"), paymentIntent: rid("pi"), customer: rid("cus"), amount: 500, amountRefunded: 500 })),
      "ignored",
    );
    expect(await balanceOf(user.id)).toBe(500);
  });
});
