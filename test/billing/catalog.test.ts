import { describe, expect, it } from "vitest";
import { developerPlanExample, freePlanExample, packsExample, subscriptionExample } from "../../src/routes/api/billing/examples";
import { call, expectError, json, signupUser } from "../helpers";

describe("GET /api/billing/packs", () => {
  it("is 401 without a JWT", async () => {
    await expectError(await call("/api/billing/packs"), 401, "unauthorized");
    await expectError(await call("/api/billing/packs", { token: "not.a.jwt" }), 401, "unauthorized");
  });

  it("lists the four packs with the spec's amounts, smallest first, without the processor price variable", async () => {
    const user = await signupUser();
    const response = await call("/api/billing/packs", { token: user.accessToken });
    expect(response.status).toBe(200);
    const packs = await json<Record<string, unknown>[]>(response);
    expect(packs.map(({ name, price_cents, credits }) => ({ name, price_cents, credits }))).toEqual([
      { name: "Starter", price_cents: 500, credits: 500 },
      { name: "Handful", price_cents: 2000, credits: 2000 },
      { name: "Workshop", price_cents: 5000, credits: 5000 },
      { name: "Warehouse", price_cents: 20000, credits: 20000 },
    ]);
    for (const pack of packs) {
      expect(Object.keys(pack).sort()).toEqual(["blurb", "credits", "id", "name", "price_cents"]);
      expect(pack.id).toEqual(expect.any(String));
      expect((pack.blurb as string).length).toBeGreaterThan(20);
    }
    expect(JSON.stringify(packs)).not.toMatch(/processor|STRIPE_/i);
    expect(new Set(packs.map((p) => p.id)).size).toBe(4);
  });
});

describe("GET /api/billing/plans", () => {
  it("needs no auth and lists Free, Developer, Startup and Growth with the spec's amounts", async () => {
    const response = await call("/api/billing/plans");
    expect(response.status).toBe(200);
    const plans = await json<Record<string, any>[]>(response);
    expect(plans.map(({ name, monthly_price_cents, included_credits }) => ({ name, monthly_price_cents, included_credits }))).toEqual([
      { name: "Free", monthly_price_cents: 0, included_credits: 500 },
      { name: "Developer", monthly_price_cents: 2900, included_credits: 4000 },
      { name: "Startup", monthly_price_cents: 14900, included_credits: 25000 },
      { name: "Growth", monthly_price_cents: 49900, included_credits: 100000 },
    ]);
    const byName = Object.fromEntries(plans.map((p) => [p.name, p]));
    expect(byName.Developer.breakeven_credits).toBe(2900);
    expect(byName.Startup.breakeven_credits).toBe(14900);
    expect(byName.Growth.breakeven_credits).toBe(49900);
    for (const plan of plans) {
      expect(Object.keys(plan).sort()).toEqual(
        ["blurb", "breakeven_credits", "features", "id", "included_credits", "monthly_price_cents", "name", "overage_micros"].sort(),
      );
      expect(plan.blurb.length).toBeGreaterThan(20);
      expect(plan.features.length).toBeGreaterThan(0);
      for (const feature of plan.features) expect(feature).toEqual(expect.stringMatching(/\S/));
      expect(Number.isInteger(plan.overage_micros)).toBe(true);
    }
    // Paid plans charge overage per credit, and below pay-as-you-go's 10,000 micro-USD per credit.
    for (const name of ["Developer", "Startup", "Growth"]) {
      expect(byName[name].overage_micros).toBeGreaterThan(0);
      expect(byName[name].overage_micros).toBeLessThan(10_000);
    }
    expect(JSON.stringify(plans)).not.toMatch(/STRIPE_|processor_price/);
  });
});

describe("GET /api/billing/op-prices", () => {
  it("needs no auth and lists every metered operation with a positive price and a note", async () => {
    const response = await call("/api/billing/op-prices");
    expect(response.status).toBe(200);
    const prices = await json<{ op: string; credits: number; note: string }[]>(response);
    expect(prices.length).toBeGreaterThan(0);
    const ops = prices.map((p) => p.op);
    expect(new Set(ops).size).toBe(ops.length);
    expect(ops).toEqual(expect.arrayContaining(["search", "page_read", "llm_input_1k_tokens", "llm_output_1k_tokens"]));
    for (const price of prices) {
      expect(Object.keys(price).sort()).toEqual(["credits", "note", "op"]);
      expect(price.credits).toBeGreaterThan(0);
      expect(price.note.length).toBeGreaterThan(5);
    }
  });
});

describe("GET /api/billing/modes", () => {
  it("needs no auth and gives each mode the spec's price and limits, and whether it is async by default", async () => {
    const response = await call("/api/billing/modes");
    expect(response.status).toBe(200);
    const modes = await json<Record<string, unknown>[]>(response);
    expect(modes.map((m) => [m.mode, m.credits, m.max_cost_usd, m.max_wallclock_secs, m.max_sources, m.async_by_default])).toEqual([
      ["lite", 15, 0.15, 60, 5, false],
      ["standard", 60, 0.6, 180, 20, true],
      ["pro", 200, 2, 360, 60, true],
      ["max", null, null, 600, 120, true],
    ]);
    expect(modes.map((m) => m.critic)).toEqual([false, false, true, true]);
  });
});

describe("the reference's pack and plan examples", () => {
  // The catalog is migrations/0004_billing_catalog.sql's rows, which the test database is built
  // from: an example copied by hand that drifts from it fails here.
  it("are the catalog's packs, every one of them, as GET /api/billing/packs answers them", async () => {
    const user = await signupUser();
    const packs = await json<unknown[]>(await call("/api/billing/packs", { token: user.accessToken }));
    expect(packsExample).toEqual(packs);
  });

  it("are the catalog's Free and Developer plans, as GET /api/billing/plans answers them (the subscription's example too)", async () => {
    const plans = await json<{ id: string }[]>(await call("/api/billing/plans"));
    expect([freePlanExample, developerPlanExample]).toEqual(plans.filter((plan) => plan.id === "free" || plan.id === "developer"));
    expect(subscriptionExample.plan).toEqual(plans.find((plan) => plan.id === "developer"));
  });
});
