import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { http } from "msw";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { BASE, call, expectError, expectLedgerConsistent, json, signupUser, UUID_PATTERN } from "../helpers";
import { checkoutPack, checkoutPlan, customerOf, paymentRow, paymentsOf, requestsTo, server, STRIPE, stripeError, price, useFakeProcessor } from "./helpers";

useFakeProcessor();

/** Calls the worker with some bindings removed (a server where the processor is not configured). */
async function callWithout(unset: string[], path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> }) {
  const headers: Record<string, string> = { "CF-Connecting-IP": "203.0.113.7", ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  const overridden = { ...env, ...Object.fromEntries(unset.map((name) => [name, undefined])) };
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(BASE + path, { method: init.method ?? "POST", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
    overridden as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

describe("POST /api/billing/checkout (pack)", () => {
  it("creates the customer once, writes a pending payment and returns the hosted checkout URL", async () => {
    const user = await signupUser();
    const first = await checkoutPack(user, "handful");
    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    // The customer: created with the user's email and id, and remembered.
    const created = requestsTo("POST", "/v1/customers");
    expect(created).toHaveLength(1);
    expect(created[0]!.params.get("email")).toBe(user.email);
    expect(created[0]!.params.get("metadata[user_id]")).toBe(user.id);
    expect(created[0]!.idempotencyKey).toBeTruthy();
    expect(created[0]!.authorization).toBe(`Bearer ${env.STRIPE_SECRET_KEY}`);
    const customer = await customerOf(user.id);
    expect(customer).toMatch(/^cus_/);

    // The session: payment mode, the pack's price, our payment id, URLs under the dashboard.
    const params = first.sent.params;
    expect(params.get("mode")).toBe("payment");
    expect(params.get("customer")).toBe(customer);
    expect(params.get("line_items[0][price]")).toBe(price("HANDFUL"));
    expect(params.get("line_items[0][quantity]")).toBe("1");
    expect(params.has("line_items[1][price]")).toBe(false);
    expect(params.get("metadata[payment_id]")).toMatch(UUID_PATTERN);
    expect(params.get("metadata[user_id]")).toBe(user.id);
    expect(params.get("payment_intent_data[metadata][payment_id]")).toBe(first.paymentId);
    expect(params.get("payment_intent_data[setup_future_usage]")).toBe("off_session");
    expect(params.get("success_url")!.startsWith(`${env.DASHBOARD_URL}/`)).toBe(true);
    expect(params.get("cancel_url")!.startsWith(`${env.DASHBOARD_URL}/`)).toBe(true);
    expect(params.get("success_url")).toContain("{CHECKOUT_SESSION_ID}");

    // The pending row, visible in the history.
    const row = await paymentRow(first.paymentId);
    expect(row).toMatchObject({
      user_id: user.id,
      status: "pending",
      kind: "pack",
      pack_id: "handful",
      pack_credits: 2000,
      pack_amount_cents: 2000,
      processor_session_id: first.sessionId,
    });
    const history = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(history).toEqual([
      expect.objectContaining({ id: first.paymentId, status: "pending", pack_credits: 2000, pack_amount_cents: 2000, completed_at: null }),
    ]);

    // A second checkout reuses the stored customer.
    const second = await checkoutPack(user, "starter");
    expect(requestsTo("POST", "/v1/customers")).toHaveLength(1);
    expect(second.sent.params.get("customer")).toBe(customer);
    expect(second.paymentId).not.toBe(first.paymentId);
    expect(await paymentsOf(user.id)).toHaveLength(2);
    await expectLedgerConsistent(user.id);
  });

  it("answers 400 for an unknown pack, and for both or neither of pack_id and plan_id, writing nothing", async () => {
    const user = await signupUser();
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "no-such-pack" } }), 400, "invalid_request");
    await expectError(
      await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter", plan_id: "developer" } }),
      400,
      "invalid_request",
    );
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: {} }), 400, "invalid_request");
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: { plan_id: "no-such-plan" } }), 400, "invalid_request");
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: { plan_id: "free" } }), 400, "invalid_request");
    await expectError(
      await call("/api/billing/checkout", { token: user.accessToken, rawBody: "{not json", headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_request",
    );
    expect(stripeRequests()).toBe(0);
    expect(await paymentsOf(user.id)).toHaveLength(0);
  });

  it("answers 401 without a JWT", async () => {
    await expectError(await call("/api/billing/checkout", { body: { pack_id: "starter" } }), 401, "unauthorized");
    expect(stripeRequests()).toBe(0);
  });

  it("answers 500 payment_processor_not_configured when no secret key is set, writing nothing", async () => {
    const user = await signupUser();
    const response = await callWithout(["STRIPE_SECRET_KEY"], "/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter" } });
    await expectError(response, 500, "payment_processor_not_configured");
    expect(stripeRequests()).toBe(0);
    expect(await paymentsOf(user.id)).toHaveLength(0);
  });

  it("answers 502 payment_processor_error when the processor refuses the session, and the payment is failed", async () => {
    const user = await signupUser();
    server.use(
      http.post(`${STRIPE}/v1/checkout/sessions`, () =>
        stripeError(400, "invalid_request_error", "resource_missing", "No such price: 'price_starter_test'", { param: "line_items[0][price]" }),
      ),
    );
    const body = await expectError(
      await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter" } }),
      502,
      "payment_processor_error",
    );
    expect(body.error.message).toContain("No such price");
    const [row] = await paymentsOf(user.id);
    expect(row).toMatchObject({ status: "failed", kind: "pack" });
    expect(row!.error).toEqual(expect.any(String));
    const history = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(history).toEqual([expect.objectContaining({ id: row!.id, status: "failed" })]);
    await expectLedgerConsistent(user.id);
  });

  it("answers 502 (not 500) when the processor refuses to create the customer", async () => {
    const user = await signupUser();
    server.use(http.post(`${STRIPE}/v1/customers`, () => stripeError(400, "invalid_request_error", "email_invalid", `Invalid email address: ${user.email}`)));
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "starter" } }), 502, "payment_processor_error");
    expect(await customerOf(user.id)).toBeNull();
    expect(requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(0);
  });

  it("answers 502 after the processor keeps failing (retried server errors), and the payment is failed", async () => {
    const user = await signupUser();
    const keys: (string | null)[] = [];
    server.use(
      http.post(`${STRIPE}/v1/checkout/sessions`, ({ request }) => {
        keys.push(request.headers.get("Idempotency-Key"));
        return stripeError(500, "api_error", "internal_error", "Something went wrong on Stripe's end.");
      }),
    );
    await expectError(await call("/api/billing/checkout", { token: user.accessToken, body: { pack_id: "warehouse" } }), 502, "payment_processor_error");
    // The SDK retried (up to 2 more times) with the same idempotency key, so a retry can never open two sessions.
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
    const [row] = await paymentsOf(user.id);
    expect(row).toMatchObject({ status: "failed", pack_id: "warehouse" });
  });
});

describe("POST /api/billing/checkout (plan)", () => {
  it("opens a subscription-mode session with the plan's price and its metered overage price", async () => {
    const user = await signupUser();
    const checkout = await checkoutPlan(user, "startup");
    const params = checkout.sent.params;
    expect(params.get("mode")).toBe("subscription");
    expect(params.get("line_items[0][price]")).toBe(price("STARTUP"));
    expect(params.get("line_items[0][quantity]")).toBe("1");
    expect(params.get("line_items[1][price]")).toBe(price("STARTUP_OVERAGE"));
    expect(params.has("line_items[1][quantity]")).toBe(false); // metered prices take no quantity
    expect(params.get("subscription_data[metadata][payment_id]")).toBe(checkout.paymentId);
    expect(params.get("subscription_data[metadata][user_id]")).toBe(user.id);
    expect(params.get("subscription_data[metadata][plan_id]")).toBe("startup");
    expect([...params.keys()].some((key) => key.startsWith("payment_intent_data"))).toBe(false);
    expect(params.get("success_url")!.startsWith(`${env.DASHBOARD_URL}/`)).toBe(true);
    expect(await paymentRow(checkout.paymentId)).toMatchObject({
      kind: "plan_checkout",
      status: "pending",
      plan_id: "startup",
      pack_credits: 25000,
      pack_amount_cents: 14900,
    });
  });
});

describe("POST /api/billing/portal", () => {
  it("is 400 before the user has a billing account and 200 with the portal URL after", async () => {
    const user = await signupUser();
    await expectError(await call("/api/billing/portal", { method: "POST", token: user.accessToken }), 400, "invalid_request");
    expect(requestsTo("POST", "/v1/billing_portal/sessions")).toHaveLength(0);

    const { customer } = await checkoutPack(user);
    const response = await call("/api/billing/portal", { method: "POST", token: user.accessToken });
    expect(response.status).toBe(200);
    const { url } = await json(response);
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const [sent] = requestsTo("POST", "/v1/billing_portal/sessions");
    expect(sent!.params.get("customer")).toBe(customer);
    expect(sent!.params.get("return_url")!.startsWith(`${env.DASHBOARD_URL}/`)).toBe(true);
  });

  it("is 401 without a JWT and 500 when the processor is not configured", async () => {
    await expectError(await call("/api/billing/portal", { method: "POST" }), 401, "unauthorized");
    const user = await signupUser();
    await expectError(await callWithout(["STRIPE_SECRET_KEY"], "/api/billing/portal", { token: user.accessToken }), 500, "payment_processor_not_configured");
  });

  it("is 502 when the processor refuses the portal session", async () => {
    const user = await signupUser();
    await checkoutPack(user);
    server.use(
      http.post(`${STRIPE}/v1/billing_portal/sessions`, () =>
        stripeError(
          400,
          "invalid_request_error",
          "resource_missing",
          "You can't create a portal session in test mode until you save your customer portal settings.",
        ),
      ),
    );
    await expectError(await call("/api/billing/portal", { method: "POST", token: user.accessToken }), 502, "payment_processor_error");
  });
});

describe("GET /api/billing/payment-history", () => {
  it("pages the caller's own payments, newest first", async () => {
    const user = await signupUser();
    const other = await signupUser();
    const ids: string[] = [];
    for (const pack of ["starter", "handful", "workshop"]) ids.push((await checkoutPack(user, pack)).paymentId);
    await checkoutPack(other, "warehouse");

    const all = await json<any[]>(await call("/api/billing/payment-history", { token: user.accessToken }));
    expect(all.map((p) => p.id)).toEqual([...ids].reverse());
    expect(all.map((p) => p.pack_credits)).toEqual([5000, 2000, 500]);
    for (const row of all) {
      expect(row).toMatchObject({ status: "pending", completed_at: null });
      expect(row.id).toMatch(UUID_PATTERN);
      expect(new Date(row.created_at).toISOString()).toBe(row.created_at);
    }

    const page = await json<any[]>(await call("/api/billing/payment-history?limit=1&offset=1", { token: user.accessToken }));
    expect(page.map((p) => p.id)).toEqual([ids[1]]);
    const past = await json<any[]>(await call("/api/billing/payment-history?limit=5&offset=3", { token: user.accessToken }));
    expect(past).toEqual([]);
  });

  it("answers 400 for out-of-range paging and 401 without a JWT", async () => {
    const user = await signupUser();
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=abc", "limit=1.5"]) {
      await expectError(await call(`/api/billing/payment-history?${query}`, { token: user.accessToken }), 400, "invalid_request");
    }
    expect((await call("/api/billing/payment-history?limit=100", { token: user.accessToken })).status).toBe(200);
    await expectError(await call("/api/billing/payment-history"), 401, "unauthorized");
  });
});

describe("PUT/GET /api/billing/auto-topup", () => {
  it("saves the settings and GET reflects them; disabled by default", async () => {
    const user = await signupUser();
    const initial = await json(await call("/api/billing/auto-topup", { token: user.accessToken }));
    expect(initial).toMatchObject({ enabled: false, in_flight: false });

    const put = await call("/api/billing/auto-topup", {
      method: "PUT",
      token: user.accessToken,
      body: { enabled: true, threshold_credits: 300, pack_id: "handful" },
    });
    expect(put.status).toBe(200);
    expect(await put.text()).toBe("");
    expect(await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).toEqual({
      enabled: true,
      threshold_credits: 300,
      pack_id: "handful",
      in_flight: false,
      card_on_file: false, // nothing bought yet: the page says no card can be charged
    });

    const again = await call("/api/billing/auto-topup", {
      method: "PUT",
      token: user.accessToken,
      body: { enabled: false, threshold_credits: 0, pack_id: "starter" },
    });
    expect(again.status).toBe(200);
    expect(await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).toMatchObject({
      enabled: false,
      threshold_credits: 0,
      pack_id: "starter",
    });
  });

  it("answers 400 for an unknown pack, a negative threshold or a missing field, and keeps the old settings", async () => {
    const user = await signupUser();
    const put = (body: unknown) => call("/api/billing/auto-topup", { method: "PUT", token: user.accessToken, body });
    expect((await put({ enabled: true, threshold_credits: 100, pack_id: "starter" })).status).toBe(200);
    await expectError(await put({ enabled: true, threshold_credits: 100, pack_id: "no-such-pack" }), 400, "invalid_request");
    await expectError(await put({ enabled: true, threshold_credits: -1, pack_id: "starter" }), 400, "invalid_request");
    await expectError(await put({ enabled: true, threshold_credits: 1.5, pack_id: "starter" }), 400, "invalid_request");
    await expectError(await put({ enabled: true, pack_id: "starter" }), 400, "invalid_request");
    await expectError(await put({ enabled: "yes", threshold_credits: 10, pack_id: "starter" }), 400, "invalid_request");
    expect(await json(await call("/api/billing/auto-topup", { token: user.accessToken }))).toMatchObject({
      enabled: true,
      threshold_credits: 100,
      pack_id: "starter",
    });
  });

  it("answers 401 without a JWT", async () => {
    await expectError(
      await call("/api/billing/auto-topup", { method: "PUT", body: { enabled: true, threshold_credits: 1, pack_id: "starter" } }),
      401,
      "unauthorized",
    );
    await expectError(await call("/api/billing/auto-topup"), 401, "unauthorized");
  });
});

describe("GET /api/billing/subscription", () => {
  it("shows the Free plan for a new user and is 401 without a JWT", async () => {
    const user = await signupUser();
    const response = await call("/api/billing/subscription", { token: user.accessToken });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      plan: { id: "free", name: "Free", included_credits: 500 },
      status: "active",
      current_period_end: null,
      overage_credits_this_period: 0,
      overage_usd_micros_this_period: 0,
    });
    await expectError(await call("/api/billing/subscription"), 401, "unauthorized");
  });
});

function stripeRequests(): number {
  return requestsTo("POST", "/v1/customers").length + requestsTo("POST", "/v1/checkout/sessions").length;
}
