import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { maybeStartAutoTopup } from "../../src/services/billing/auto-topup";
import { reserveCredits } from "../../src/services/billing/reservations";
import { call, expectLedgerConsistent, json, signupUser, type TestUser } from "../helpers";
import {
  balanceOf,
  billingDeps,
  checkoutPack,
  checkoutSessionObject,
  collector,
  customerOf,
  deliverOk,
  fakeCards,
  ledgerOf,
  paymentIntentObject,
  paymentsOf,
  requestsTo,
  rid,
  server,
  STRIPE,
  stripeError,
  stripeEvent,
  stripeRequests,
  useFakeProcessor,
} from "./helpers";

useFakeProcessor();

/** A user who bought a Starter pack (so the processor has a customer with a saved card): balance 1000. */
async function customerUser(): Promise<TestUser> {
  const user = await signupUser();
  const checkout = await checkoutPack(user, "starter");
  await deliverOk(
    stripeEvent(
      "checkout.session.completed",
      checkoutSessionObject({ id: checkout.sessionId, paymentId: checkout.paymentId, userId: user.id, customer: checkout.customer, paymentIntent: rid("pi") }),
    ),
  );
  expect(await balanceOf(user.id)).toBe(1000);
  return user;
}

async function enableAutoTopup(user: TestUser, threshold: number, packId = "starter", enabled = true) {
  const response = await call("/api/billing/auto-topup", {
    method: "PUT",
    token: user.accessToken,
    body: { enabled, threshold_credits: threshold, pack_id: packId },
  });
  expect(response.status).toBe(200);
}

async function debit(user: TestUser, credits: number) {
  const background = collector();
  const outcome = await reserveCredits(billingDeps(), user.id, credits, rid("job"), background.defer);
  await background.settle();
  return outcome;
}

const intents = () => requestsTo("POST", "/v1/payment_intents");
const topupRows = async (userId: string) => (await paymentsOf(userId)).filter((p) => p.kind === "auto_topup");
const inFlight = async (user: TestUser) => (await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).in_flight as boolean;

/** Payment intents answer with `status` (e.g. processing) instead of succeeding at once. */
function intentsAnswer(status: string) {
  server.use(
    http.post(`${STRIPE}/v1/payment_intents`, async ({ request }) => {
      const params = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
      const intent = paymentIntentObject(params, status);
      recorded.push({ params, idempotencyKey: request.headers.get("Idempotency-Key"), intent });
      return HttpResponse.json(intent);
    }),
  );
}
const recorded: { params: URLSearchParams; idempotencyKey: string | null; intent: ReturnType<typeof paymentIntentObject> }[] = [];

describe("auto top-up", () => {
  it("says whether there is a card to charge: none before the first purchase (nor after a checkout left unpaid), one after a pack was paid", async () => {
    const settings = async (user: TestUser) => json(await call("/api/billing/auto-topup", { token: user.accessToken }));
    const newcomer = await signupUser();
    expect(await settings(newcomer)).toMatchObject({ enabled: false, card_on_file: false });
    // A checkout started but never paid makes a processor customer, not a card.
    await checkoutPack(newcomer, "starter");
    expect(await customerOf(newcomer.id)).toEqual(expect.any(String));
    expect((await settings(newcomer)).card_on_file).toBe(false);

    const buyer = await customerUser();
    expect((await settings(buyer)).card_on_file).toBe(true);
  });

  it("fires once when a debit leaves the balance below the threshold and credits the pack when the payment succeeds", async () => {
    const user = await customerUser();
    const customer = await customerOf(user.id);
    await enableAutoTopup(user, 300, "handful");

    // Still above the threshold: nothing.
    expect(await debit(user, 600)).toMatchObject({ status: "reserved", balance: 400 });
    expect(intents()).toHaveLength(0);

    // Below it: one off-session payment of the chosen pack on the saved card.
    expect(await debit(user, 200)).toMatchObject({ status: "reserved", balance: 200 });
    expect(intents()).toHaveLength(1);
    const params = intents()[0]!.params;
    expect(params.get("amount")).toBe("2000");
    expect(params.get("currency")).toBe("usd");
    expect(params.get("customer")).toBe(customer);
    expect(params.get("payment_method")).toBe(`pm_card_${customer}`);
    expect(params.get("off_session")).toBe("true");
    expect(params.get("confirm")).toBe("true");
    expect(params.get("metadata[kind]")).toBe("auto_topup");
    expect(intents()[0]!.idempotencyKey).toBeTruthy();

    expect(await balanceOf(user.id)).toBe(2200);
    const [credit] = await ledgerOf(user.id, "auto_topup");
    expect(credit).toMatchObject({ delta: 2000, balance_after: 2200 });
    const [row] = await topupRows(user.id);
    expect(row).toMatchObject({ status: "completed", pack_id: "handful", pack_credits: 2000, pack_amount_cents: 2000 });
    expect(params.get("metadata[payment_id]")).toBe(row!.id);
    expect(await inFlight(user)).toBe(false);

    // Back above the threshold: the next debit does not fire.
    await debit(user, 100);
    expect(intents()).toHaveLength(1);
    await expectLedgerConsistent(user.id);
  });

  it("does not start a second payment while one is in flight", async () => {
    const user = await customerUser();
    await enableAutoTopup(user, 900, "starter");
    recorded.length = 0;
    intentsAnswer("processing");

    await debit(user, 200); // 800 < 900
    expect(recorded).toHaveLength(1);
    expect(await inFlight(user)).toBe(true);
    await debit(user, 100);
    await debit(user, 100);
    const background = collector();
    const deps = billingDeps();
    expect(await Promise.all([maybeStartAutoTopup(deps, user.id), maybeStartAutoTopup(deps, user.id)])).toEqual(["skipped", "skipped"]);
    await background.settle();
    expect(recorded).toHaveLength(1);
    expect(await topupRows(user.id)).toEqual([expect.objectContaining({ status: "pending" })]);
    expect(await balanceOf(user.id)).toBe(600);
    await expectLedgerConsistent(user.id);
  });

  it("two concurrent checks start exactly one payment", async () => {
    const user = await customerUser();
    await enableAutoTopup(user, 2000, "starter");
    recorded.length = 0;
    intentsAnswer("processing");
    const deps = billingDeps();
    const results = await Promise.all([maybeStartAutoTopup(deps, user.id), maybeStartAutoTopup(deps, user.id), maybeStartAutoTopup(deps, user.id)]);
    expect(results.filter((r) => r === "started")).toHaveLength(1);
    expect(recorded).toHaveLength(1);
    expect(await topupRows(user.id)).toHaveLength(1);
  });

  it("a declined card is a failed payment in the history, frees the slot and never breaks the debit", async () => {
    const user = await customerUser();
    await enableAutoTopup(user, 500, "workshop");
    server.use(
      http.post(`${STRIPE}/v1/payment_intents`, () =>
        stripeError(402, "card_error", "card_declined", "Your card was declined.", {
          decline_code: "generic_decline",
          payment_intent: { id: rid("pi"), object: "payment_intent", status: "requires_payment_method" },
        }),
      ),
    );
    expect(await debit(user, 600)).toMatchObject({ status: "reserved", balance: 400 });
    const [row] = await topupRows(user.id);
    expect(row).toMatchObject({ status: "failed", pack_id: "workshop", pack_amount_cents: 5000 });
    expect(row!.error).toContain("declined");
    const history = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(history[0]).toMatchObject({ id: row!.id, kind: "auto_topup", status: "failed", error: expect.stringContaining("declined") });
    expect(await inFlight(user)).toBe(false);
    expect(await balanceOf(user.id)).toBe(400);

    // The slot is free again: the next debit below the threshold tries again (and succeeds).
    server.resetHandlers();
    await debit(user, 100);
    expect((await topupRows(user.id)).map((r) => r.status)).toEqual(["failed", "completed"]);
    expect(await balanceOf(user.id)).toBe(300 + 5000);
    await expectLedgerConsistent(user.id);
  });

  it("a card that needs authentication (requires_action) is a failed payment, not a stuck slot", async () => {
    const user = await customerUser();
    await enableAutoTopup(user, 500, "starter");
    recorded.length = 0;
    intentsAnswer("requires_action");
    await debit(user, 600);
    expect(recorded).toHaveLength(1);
    expect(await topupRows(user.id)).toEqual([expect.objectContaining({ status: "failed" })]);
    expect(await inFlight(user)).toBe(false);
    expect(await balanceOf(user.id)).toBe(400);
  });

  it("without a billing account it records a failed payment and calls nothing", async () => {
    const user = await signupUser();
    await enableAutoTopup(user, 400, "starter");
    expect(await debit(user, 200)).toMatchObject({ status: "reserved", balance: 300 });
    expect(intents()).toHaveLength(0);
    const [row] = await topupRows(user.id);
    expect(row).toMatchObject({ status: "failed" });
    expect(row!.error).toMatch(/payment method/);
    expect(await inFlight(user)).toBe(false);
    await expectLedgerConsistent(user.id);
  });

  it("falls back to the customer's saved cards when there is no default payment method", async () => {
    const user = await customerUser();
    fakeCards.set((await customerOf(user.id))!, null);
    await enableAutoTopup(user, 500, "starter");
    await debit(user, 600);
    expect(requestsTo("GET", "/v1/payment_methods")).toHaveLength(1);
    expect(requestsTo("GET", "/v1/payment_methods")[0]!.params.get("customer")).toBe(await customerOf(user.id));
    expect(intents()[0]!.params.get("payment_method")).toMatch(/^pm_/);
    expect(intents()[0]!.params.get("payment_method")).not.toBe(`pm_card_${await customerOf(user.id)}`);
    expect(await balanceOf(user.id)).toBe(900);
  });

  it("never throws when the processor fails, and is skipped when disabled", async () => {
    const user = await customerUser();
    await enableAutoTopup(user, 500, "starter", false);
    await debit(user, 600);
    expect(stripeCalls()).toBe(0);
    expect(await topupRows(user.id)).toHaveLength(0);

    await enableAutoTopup(user, 500, "starter", true);
    server.use(http.get(`${STRIPE}/v1/customers/:id`, () => stripeError(404, "invalid_request_error", "resource_missing", "No such customer")));
    await expect(maybeStartAutoTopup(billingDeps(), user.id)).resolves.toBe("started");
    expect(await topupRows(user.id)).toEqual([expect.objectContaining({ status: "failed", error: expect.stringContaining("No such customer") })]);
    expect(await inFlight(user)).toBe(false);
    await expectLedgerConsistent(user.id);
  });
});

function stripeCalls(): number {
  return stripeRequests.filter((r) => r.path.startsWith("/v1/customers/") || r.path.startsWith("/v1/payment")).length;
}
