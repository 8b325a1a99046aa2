import { describe, expect, it } from "vitest";
import { call, dbAll, dbRun, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf, corpusLoaded, jobLedger, research, setBalance, waitForTerminal } from "./helpers";

/**
 * POST /v1/research/quote (issue 30): the price and envelope of a request before it runs, from the
 * submit's own code. How we know it agrees: each case quotes a body, then submits the same body and
 * compares the quote with the reservation the ledger shows and the status the submit answers; and
 * a quote alone leaves no job row, no ledger entry and the balance as it was.
 */

const Q = "Why was the Tariff of 1828 called the Tariff of Abominations?";

const quote = (caller: ApiCaller, body: Record<string, unknown>) => call("/v1/research/quote", { token: caller.key, body });

async function expectNothingWritten(caller: ApiCaller, balance: number) {
  expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toEqual([]);
  expect(await balanceOf(caller)).toBe(balance);
  expect(await dbAll("select id from ledger_entries where user_id = ? and kind <> 'signup_bonus'", caller.id)).toEqual([]);
  await expectLedgerConsistent(caller.id);
}

describe("POST /v1/research/quote", () => {
  it.each([
    ["lite, synchronous", { question: Q, mode: "lite" }, 200],
    ["standard, asynchronous by its wall clock", { question: Q, mode: "standard" }, 202],
    ["max, metered up to max_credits", { question: Q, mode: "max", max_credits: 120 }, 202],
    ["lite made asynchronous", { question: Q, mode: "lite", async: true }, 202],
  ] as const)("agrees with what a submit of the same body then reserves and answers: %s", async (_name, body, submitStatus) => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await quote(caller, body);
    expect(response.status).toBe(200);
    const priced = await json(response);
    await expectNothingWritten(caller, 500);

    const submitted = await research(caller, body);
    expect(submitted.status).toBe(submitStatus);
    expect(priced.runs).toBe(submitStatus === 200 ? "sync" : "async");
    const id = (await json(submitted)).id as string;
    const reservation = (await jobLedger(caller.id, id)).find((entry) => entry.kind === "reservation");
    expect(reservation?.delta).toBe(-priced.credits_reserved);
    expect(priced).toMatchObject({ mode: body.mode, balance_credits: 500, covered: true, covered_by: "balance", insufficient_credits: null });
    expect(priced.max_charge_credits).toBe(priced.credits_reserved);
    expect(priced.max_charge_usd).toBeCloseTo(priced.credits_reserved / 100, 6);
    expect(priced.metered).toBe(body.mode === "max");

    // What the job is charged never exceeds the quote's most.
    const finished = await waitForTerminal(caller, id, 120_000);
    expect(finished.credits_charged).toBeLessThanOrEqual(priced.max_charge_credits);
  });

  it("gives the envelope the job runs within", async () => {
    const caller = await apiCaller();
    const priced = await json(await quote(caller, { question: Q, mode: "standard", max_wallclock_secs: 90 }));
    expect(priced.envelope).toEqual({ max_waves: 2, max_searches: 12, max_pages: 20, max_wallclock_secs: 90 });
    expect(priced.runs).toBe("async");
  });

  it("a short balance is a field, not an error: covered false, with the message the submit's 402 carries", async () => {
    const caller = await apiCaller();
    await setBalance(caller.id, 10);
    const priced = await json(await quote(caller, { question: Q, mode: "lite" }));
    expect(priced).toMatchObject({ credits_reserved: 15, balance_credits: 10, covered: false, covered_by: null });
    const refused = await research(caller, { question: Q, mode: "lite" });
    expect(refused.status).toBe(402);
    expect(priced.insufficient_credits).toBe((await json(refused)).error.message);
  });

  it("a paid plan's overage covers what the balance lacks, as the submit's reservation would", async () => {
    const caller = await apiCaller();
    await setBalance(caller.id, 10);
    await dbRun(
      "insert into subscriptions (user_id, plan_id, status, current_period_start, current_period_end, updated_at) values (?, 'developer', 'active', ?, ?, ?)",
      caller.id,
      new Date().toISOString(),
      new Date(Date.now() + 30 * 86_400_000).toISOString(),
      new Date().toISOString(),
    );
    const priced = await json(await quote(caller, { question: Q, mode: "lite" }));
    expect(priced).toMatchObject({ balance_credits: 10, covered: true, covered_by: "plan_overage", insufficient_credits: null });
  });

  it("applies the submit's checks: 400 for a bad body or an impossible envelope, 404 for an unknown collection, and writes nothing", async () => {
    const caller = await apiCaller();
    await expectError(await quote(caller, { question: "" }), 400, "invalid_request");
    await expectError(await quote(caller, { question: Q, mode: "max" }), 400, "invalid_request");
    await expectError(await quote(caller, { question: Q, webhook_url: "https://10.0.0.8/hook" }), 400, "invalid_request");
    await expectError(await quote(caller, { question: Q, mode: "lite", max_wallclock_secs: 0 }), 400, "impossible_budget");
    await expectError(await quote(caller, { question: Q, collections: ["00000000-0000-4000-8000-000000000000"] }), 404, "not_found");
    await expectError(await call("/v1/research/quote", { body: { question: Q } }), 401, "unauthorized");
    await expectNothingWritten(caller, 500);
  });

  it("is on the playground too, with the dashboard's session", async () => {
    const caller = await apiCaller();
    const response = await call("/api/playground/research/quote", { token: caller.accessToken, body: { question: Q, mode: "pro" } });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ mode: "pro", credits_reserved: 200, covered: true, runs: "async" });
    await expectNothingWritten(caller, 500);
  });
});
