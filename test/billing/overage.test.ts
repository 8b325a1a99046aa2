import { env } from "cloudflare:workers";
import { http } from "msw";
import { describe, expect, it } from "vitest";
import { reserveCredits, settleReservation } from "../../src/services/billing/reservations";
import { loadConfig } from "../../src/env";
import { call, expectLedgerConsistent, json, signupUser, type TestUser } from "../helpers";
import {
  balanceOf,
  billingDeps,
  collector,
  ledgerOf,
  requestsTo,
  rid,
  server,
  setBalance,
  STRIPE,
  stripeError,
  stripeEvent,
  deliverOk,
  subscribeUser,
  subscriptionObject,
  price,
  useFakeProcessor,
} from "./helpers";

useFakeProcessor();

async function reserve(user: TestUser, credits: number, jobId = rid("job")) {
  const background = collector();
  const outcome = await reserveCredits(billingDeps(), user.id, credits, jobId, background.defer);
  await background.settle();
  return outcome;
}

const meterEvents = () => requestsTo("POST", "/v1/billing/meter_events");
const overageReports = async (userId: string) =>
  (await env.DB.prepare("select * from overage_reports where user_id = ? order by created_at").bind(userId).all<Record<string, any>>()).results;

describe("plan overage", () => {
  it("covers a paid-plan user's shortfall with an overage entry and reports it to the billing meter", async () => {
    const user = await signupUser();
    const { customer } = await subscribeUser(user, "developer");
    await setBalance(user.id, 100);

    const jobId = rid("job");
    expect(await reserve(user, 600, jobId)).toEqual({ status: "reserved", balance: 0, overageCredits: 500 });
    expect(await balanceOf(user.id)).toBe(0);
    const entries = await ledgerOf(user.id);
    const overage = entries.filter((e) => e.kind === "overage");
    expect(overage).toEqual([expect.objectContaining({ delta: 500, balance_after: 600, related_id: jobId })]);
    expect(entries.at(-1)).toMatchObject({ kind: "reservation", delta: -600, balance_after: 0, related_id: jobId });

    // One meter event: the customer and the credit count.
    expect(meterEvents()).toHaveLength(1);
    const params = meterEvents()[0]!.params;
    expect(params.get("event_name")).toBe(loadConfig(env).STRIPE_METER_EVENT_NAME);
    expect(params.get("payload[stripe_customer_id]")).toBe(customer);
    expect(params.get("payload[value]")).toBe("500");
    expect(params.get("identifier")).toBeTruthy();
    expect(await overageReports(user.id)).toEqual([expect.objectContaining({ credits: 500, status: "reported", error: null })]);

    // The subscription view shows the overage of this period and what it will cost.
    const view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({ plan: { id: "developer" }, overage_credits_this_period: 500, overage_usd_micros_this_period: 500 * 9000 });

    // The same job reserved again changes nothing and reports nothing.
    expect(await reserve(user, 600, jobId)).toMatchObject({ status: "reserved", balance: 0 });
    expect(meterEvents()).toHaveLength(1);
    expect(await ledgerOf(user.id, "overage")).toHaveLength(1);

    // Settling gives back the unspent part as usual.
    await settleReservation(billingDeps(), user.id, jobId, 450);
    expect(await balanceOf(user.id)).toBe(150);
    await expectLedgerConsistent(user.id);
  });

  it("uses no overage when the balance covers the reservation", async () => {
    const user = await signupUser();
    await subscribeUser(user, "startup");
    expect(await reserve(user, 300)).toEqual({ status: "reserved", balance: 200, overageCredits: 0 });
    expect(await ledgerOf(user.id, "overage")).toHaveLength(0);
    expect(meterEvents()).toHaveLength(0);
    await expectLedgerConsistent(user.id);
  });

  it("a Free user is insufficient (402) and nothing is written", async () => {
    const user = await signupUser();
    const before = await ledgerOf(user.id);
    expect(await reserve(user, 501)).toEqual({ status: "insufficient", balance: 500 });
    expect(await ledgerOf(user.id)).toEqual(before);
    expect(await overageReports(user.id)).toHaveLength(0);
    expect(meterEvents()).toHaveLength(0);
    await expectLedgerConsistent(user.id);
  });

  it("a canceled plan is back to Free: insufficient again", async () => {
    const user = await signupUser();
    const { subscriptionId, customer, periodStart, periodEnd } = await subscribeUser(user, "developer");
    await deliverOk(
      stripeEvent(
        "customer.subscription.deleted",
        subscriptionObject({ id: subscriptionId, customer, userId: user.id, priceId: price("DEVELOPER"), status: "canceled", periodStart, periodEnd }),
        Math.floor(Date.now() / 1000) + 5,
      ),
    );
    expect(await reserve(user, 800)).toEqual({ status: "insufficient", balance: 500 });
    expect(await ledgerOf(user.id, "overage")).toHaveLength(0);
    await expectLedgerConsistent(user.id);
  });

  it("a failed meter report is recorded and never breaks the reservation", async () => {
    const user = await signupUser();
    await subscribeUser(user, "growth");
    server.use(
      http.post(`${STRIPE}/v1/billing/meter_events`, () =>
        stripeError(400, "invalid_request_error", "resource_missing", "No active meter found for event_name"),
      ),
    );
    expect(await reserve(user, 700)).toEqual({ status: "reserved", balance: 0, overageCredits: 200 });
    expect(await overageReports(user.id)).toEqual([
      expect.objectContaining({ credits: 200, status: "failed", error: expect.stringContaining("No active meter") }),
    ]);
    const view = await json(await call("/api/billing/subscription", { token: user.accessToken }));
    expect(view).toMatchObject({ overage_credits_this_period: 200, overage_usd_micros_this_period: 200 * 7000 });
    await expectLedgerConsistent(user.id);
  });

  it("concurrent reservations of a short paid-plan user each get exactly their shortfall", async () => {
    const user = await signupUser();
    await subscribeUser(user, "developer");
    await setBalance(user.id, 100);
    const outcomes = await Promise.all([reserve(user, 300), reserve(user, 300)]);
    expect(outcomes.map((o) => o.status)).toEqual(["reserved", "reserved"]);
    const overage = await ledgerOf(user.id, "overage");
    const totalOverage = overage.reduce((sum, e) => sum + e.delta, 0);
    expect(totalOverage).toBe(600 - 100);
    expect(await balanceOf(user.id)).toBe(0);
    const reported = meterEvents().reduce((sum, r) => sum + Number(r.params.get("payload[value]")), 0);
    expect(reported).toBe(totalOverage);
    await expectLedgerConsistent(user.id);
  });
});
