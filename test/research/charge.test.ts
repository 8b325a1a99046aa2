import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { loadConfig } from "../../src/env";
import type { ResearchOutput } from "../../src/research/engine";
import { chargeOf, finalResult, type JobRecord, type JobSpec, type Outcome } from "../../src/research/job/job-state";
import { budgetsForMode, type ResearchMode, reservationCredits } from "../../src/research/pricing";
import { reserveCredits, settleReservation } from "../../src/services/billing/reservations";
import { expectLedgerConsistent, signupUser } from "../helpers";

/**
 * What a succeeded job is charged, decided by the charge rule (decideCharge, through chargeOf) (docs/decisions.md "Charges"): the mode's
 * price when its sources address the question, its metered work (never above that price) when
 * nothing read addresses it. Unit tests of the pure rule, then the same figure through the ledger.
 */

const MAX_CREDITS = 300;

function spec(mode: ResearchMode): JobSpec {
  const maxCredits = mode === "max" ? MAX_CREDITS : null;
  return {
    id: crypto.randomUUID(),
    userId: "user",
    origin: "api",
    mode,
    question: "Who won the 2022 FIFA World Cup?",
    input: { question: "Who won the 2022 FIFA World Cup?", mode, budgets: budgetsForMode(mode, { maxCredits }), include_sources: true },
    reservedCredits: reservationCredits(mode, maxCredits),
    maxCredits,
    notifiesWebhook: false,
    createdAt: new Date(0).toISOString(),
    deadlineAt: 60_000,
  };
}

const SOURCE = { url: "https://fifa.example.org/2022", title: "2022 FIFA World Cup final", domain: "fifa.example.org" };

/** A succeeded output: a brief citing one source that addresses the question, or one saying nothing read does (citing none). */
function succeeded(costUsd: number, addressed: boolean, sources = addressed ? [SOURCE] : []): Outcome {
  const output: ResearchOutput = {
    brief: addressed ? "Argentina won the final [1]." : "The sources read do not cover this question.",
    answer: addressed && sources.length > 0 ? { text: "Argentina", confidence: "high", citations: [0] } : null,
    addressed,
    typed: null,
    sources,
    citations: [],
    cost_usd: costUsd,
    wave_count: 1,
    searches: 4,
    pages: 5,
    stopped_reason: "no_new_evidence",
  };
  return { status: "succeeded", output };
}

describe("chargeOf: a succeeded job", () => {
  // [mode, metered cost of the job in USD, charge when addressed, charge when nothing addresses the question]
  const cases: [ResearchMode, number, number, number][] = [
    ["lite", 0.034, 15, 4],
    ["standard", 0.087, 60, 9],
    ["pro", 0.3001, 200, 31],
    // max is metered either way: ceil(cost × 100), at most max_credits.
    ["max", 0.0731, 8, 8],
  ];
  for (const [mode, cost, paid, metered] of cases) {
    it(`${mode}: ${paid} credits when its sources address the question, ${metered} when nothing does`, () => {
      expect(chargeOf(spec(mode), succeeded(cost, true)).credits).toBe(paid);
      expect(chargeOf(spec(mode), succeeded(cost, false)).credits).toBe(metered);
    });
  }

  it("never charges more than the mode's price for nothing found, however much work it metered", () => {
    // A fixed-price job that spent its whole envelope (and a rounding hair beyond) pays the price, not more.
    expect(chargeOf(spec("lite"), succeeded(0.15, false)).credits).toBe(15);
    expect(chargeOf(spec("standard"), succeeded(0.6000004, false)).credits).toBe(60);
    expect(chargeOf(spec("pro"), succeeded(2.5, false)).credits).toBe(200);
    expect(chargeOf(spec("max"), succeeded(5, false)).credits).toBe(MAX_CREDITS);
    // Work that metered nothing costs nothing; an exact cent does not round up to the next.
    expect(chargeOf(spec("standard"), succeeded(0, false)).credits).toBe(0);
    expect(chargeOf(spec("standard"), succeeded(0.07, false)).credits).toBe(7);
  });

  it("charges the metered work when the brief cites no source, even when the engine judged the question addressed (issue 43)", () => {
    // "No source read covers Franklin Roosevelt's view on the four freedoms." cited nothing and was charged 60.
    expect(chargeOf(spec("standard"), succeeded(0.082, true, [])).credits).toBe(9);
    expect(chargeOf(spec("pro"), succeeded(0.117, true, [])).credits).toBe(12);
    expect(chargeOf(spec("lite"), succeeded(0.034, true, [])).credits).toBe(4);
  });

  it("says which rule decided the charge and why, with the figures", () => {
    expect(chargeOf(spec("standard"), succeeded(0.087, true)).basis).toEqual({
      rule: "mode_price",
      reason: "Charged the standard price, 60 credits ($0.60): the brief cites 1 source that addresses the question. Its metered work came to 8.7 credits.",
    });
    expect(chargeOf(spec("standard"), succeeded(0.087, false)).basis).toEqual({
      rule: "nothing_addressed",
      reason:
        "Charged only its metered work, 9 credits ($0.09), not the standard price of 60 credits: no source the job read addresses the question, so its brief cites none.",
    });
    expect(chargeOf(spec("lite"), succeeded(0.16, false)).basis.reason).toBe(
      "Charged only its metered work, 15 credits ($0.15) (its work came to 16 credits, capped at the lite price): no source the job read addresses the question, so its brief cites none.",
    );
    expect(chargeOf(spec("max"), succeeded(0.0731, true)).basis).toMatchObject({
      rule: "metered",
      reason: expect.stringMatching(/^Charged 8 credits \(\$0\.08\), its metered work: max mode/),
    });
    expect(chargeOf(spec("standard"), { status: "cancelled", costUsd: 0.021, waves: 1 })).toEqual({
      credits: 3,
      basis: {
        rule: "cancelled",
        reason: "Charged 3 credits ($0.03), the metered work done before the cancel stopped the job; the other 57 credits reserved went back to your balance.",
      },
    });
    expect(chargeOf(spec("pro"), { status: "failed", error: "x", costUsd: 0.1, waves: 1 })).toEqual({
      credits: 0,
      basis: { rule: "refunded", reason: "Nothing charged: the job failed, and the 200 credits reserved went back to your balance." },
    });
  });

  it("is the result's credits_charged, the figure the job settles its reservation with", () => {
    const job = spec("standard");
    const record: JobRecord = { spec: job, status: "running", startedAt: 0, cancelRequested: false, progress: null, sources: [], result: null, settled: false };
    const result = finalResult(record, succeeded(0.087, false), 1_000);
    expect(result).toMatchObject({ status: "succeeded", answer: null, credits_charged: 9, cost_usd: 0.087, charge_basis: { rule: "nothing_addressed" } });
    expect(finalResult(record, succeeded(0.087, true), 1_000)).toMatchObject({ answer: { text: "Argentina", confidence: "high" }, credits_charged: 60 });
  });
});

describe("the ledger of a job charged its metered work", () => {
  // How we know the ledger stays exact: ResearchJob.settle (src/research/job/job-lifecycle.ts) passes the final
  // result's credits_charged, which finalResult takes from chargeOf, to settleReservation; that
  // releases `reserved - charged` from the job's own reservation entry. Here the same two calls
  // run against D1 with the figure chargeOf gives for a standard job that found nothing.
  it("reserves the price, releases all but the metered charge, and balances", async () => {
    const user = await signupUser();
    const deps = { db: createDb(env.DB), config: loadConfig(env) };
    const job = { ...spec("standard"), userId: user.id };
    const before = await expectLedgerConsistent(user.id);

    const reserved = await reserveCredits(deps, user.id, job.reservedCredits, job.id, () => {});
    expect(reserved).toMatchObject({ status: "reserved", balance: before - 60 });
    const charged = chargeOf(job, succeeded(0.087, false)).credits;
    expect(charged).toBe(9);
    await settleReservation(deps, user.id, job.id, charged);

    const entries = await env.DB.prepare("select kind, delta from ledger_entries where user_id = ? and related_id = ? order by seq")
      .bind(user.id, job.id)
      .all();
    expect(entries.results).toEqual([
      { kind: "reservation", delta: -60 },
      { kind: "release", delta: 51 },
    ]);
    expect(await expectLedgerConsistent(user.id)).toBe(before - 9);
    // Settling twice (an alarm retry) gives nothing back again.
    await settleReservation(deps, user.id, job.id, charged);
    expect(await expectLedgerConsistent(user.id)).toBe(before - 9);
  });
});
