import { describe, expect, it } from "vitest";
import { budgetsForMode, creditsCharged, impossibleBudgetReason, llmCostUsd, OP_PRICES, opCostUsd, reservationCredits } from "../../src/research/pricing";

describe("op prices", () => {
  it("lists every metered operation once, with a note", () => {
    const ops = OP_PRICES.map((price) => price.op);
    expect(new Set(ops).size).toBe(ops.length);
    expect(ops).toEqual(expect.arrayContaining(["search", "page_read", "llm_input_1k_tokens", "llm_output_1k_tokens"]));
    for (const price of OP_PRICES) {
      expect(price.credits).toBeGreaterThanOrEqual(0);
      expect(price.note.length).toBeGreaterThan(10);
    }
  });

  it("prices in USD at 0.01 USD per credit", () => {
    expect(opCostUsd("search")).toBeCloseTo(0.005, 9);
    expect(opCostUsd("search", 3)).toBeCloseTo(0.015, 9);
    expect(llmCostUsd(2000, 500)).toBeCloseTo(opCostUsd("llm_input_1k_tokens", 2) + opCostUsd("llm_output_1k_tokens", 0.5), 9);
  });
});

describe("mode envelopes", () => {
  it("follows the spec Limits and decisions.md per mode", () => {
    expect(budgetsForMode("lite")).toEqual({
      branches: 2,
      max_cost_usd: 0.15,
      max_pages: 5,
      max_searches: 4,
      max_wallclock_secs: 60,
      max_waves: 1,
      synthesis_cost_reserve_usd: 0.0225,
      synthesis_time_reserve_secs: 10,
    });
    expect(budgetsForMode("standard")).toMatchObject({
      branches: 4,
      max_cost_usd: 0.6,
      max_pages: 20,
      max_searches: 12,
      max_wallclock_secs: 180,
      max_waves: 2,
      synthesis_time_reserve_secs: 20,
    });
    expect(budgetsForMode("pro")).toMatchObject({
      branches: 6,
      max_cost_usd: 2,
      max_pages: 60,
      max_searches: 30,
      max_wallclock_secs: 360,
      max_waves: 3,
      synthesis_time_reserve_secs: 40,
    });
    expect(budgetsForMode("max", { maxCredits: 1000 })).toMatchObject({
      branches: 8,
      max_cost_usd: 10,
      max_pages: 120,
      max_searches: 60,
      max_wallclock_secs: 600,
      max_waves: 4,
      synthesis_cost_reserve_usd: 1.5,
      synthesis_time_reserve_secs: 60,
    });
    expect(budgetsForMode("standard", { maxWallclockSecs: 30 }).max_wallclock_secs).toBe(30);
    expect(() => budgetsForMode("max")).toThrow();
  });

  it("charges fixed prices, and max metered up to max_credits", () => {
    expect(reservationCredits("lite")).toBe(15);
    expect(reservationCredits("standard")).toBe(60);
    expect(reservationCredits("pro")).toBe(200);
    expect(reservationCredits("max", 300)).toBe(300);
    expect(creditsCharged("standard", 0.01)).toBe(60);
    expect(creditsCharged("max", 0.0731, 300)).toBe(8);
    expect(creditsCharged("max", 0.07, 300)).toBe(7);
    expect(creditsCharged("max", 5, 300)).toBe(300);
  });

  it("names impossible budgets", () => {
    expect(impossibleBudgetReason(budgetsForMode("standard"))).toBeNull();
    expect(impossibleBudgetReason(budgetsForMode("max", { maxCredits: 0 }))).toMatch(/cannot cover/);
    expect(impossibleBudgetReason(budgetsForMode("pro", { maxWallclockSecs: 30 }))).toMatch(/at least 40 seconds/);
  });
});
