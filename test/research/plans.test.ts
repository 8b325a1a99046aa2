import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CorpusSearch } from "../../src/research/providers/search/corpus";
import type { SearchQuery } from "../../src/research/providers/types";
import { call, dbAll, dbFirst, dbRun, expectError, expectLedgerConsistent, json } from "../helpers";
import { type ApiCaller, apiCaller, balanceOf, corpusLoaded, research, waitForTerminal } from "./helpers";

/**
 * POST /v1/research/plan and POST /v1/research with plan_id (issue 45, item 2). How we know the
 * reviewed plan is the plan that runs: the corpus search provider records every query it receives
 * (a lite job has one wave, so every search of the job is its first wave's), and a job run with an
 * edited plan searched exactly the edited queries, none of the engine's own.
 */

const Q = "What ended the Nullification Crisis?";

const plan = (caller: ApiCaller, body: Record<string, unknown>) => call("/v1/research/plan", { token: caller.key, body });
const quote = (caller: ApiCaller, body: Record<string, unknown>) => call("/v1/research/quote", { token: caller.key, body });

/** Every query the search provider received while installed. */
let received: string[] = [];
const original = CorpusSearch.prototype.search;
beforeEach(() => {
  received = [];
  CorpusSearch.prototype.search = function (this: CorpusSearch, query: SearchQuery) {
    received.push(query.query);
    return original.call(this, query);
  };
});
afterEach(() => {
  CorpusSearch.prototype.search = original;
});

async function expectNothingWritten(caller: ApiCaller, balance = 500) {
  expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toEqual([]);
  expect(await balanceOf(caller)).toBe(balance);
  await expectLedgerConsistent(caller.id);
}

async function madePlan(caller: ApiCaller, body: Record<string, unknown> = { question: Q, mode: "lite" }) {
  const response = await plan(caller, body);
  expect(response.status).toBe(200);
  return json(response);
}

describe("POST /v1/research/plan", () => {
  it("answers the plan, its envelope and the quote endpoint's quote, and costs nothing: no job, no ledger entry, no search", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const body = { question: Q, mode: "standard" };
    const planned = await madePlan(caller, body);
    expect(planned).toMatchObject({ question: Q, mode: "standard", planner: "engine", sub_questions: [], max_queries: 4 });
    expect(planned.queries.length).toBeGreaterThan(0);
    expect(planned.queries.length).toBeLessThanOrEqual(4);
    expect(planned.queries[0]).toBe(Q);
    expect(planned.quote).toEqual(await json(await quote(caller, body)));
    expect(planned.envelope).toEqual(planned.quote.envelope);
    expect(Date.parse(planned.expires_at) - Date.parse(planned.created_at)).toBe(3_600_000);
    expect(received).toEqual([]);
    await expectNothingWritten(caller);
    const row = await dbFirst("select user_id, used_by_job_id from research_plans where id = ?", planned.plan_id);
    expect(row).toEqual({ user_id: caller.id, used_by_job_id: null });
  });

  it("takes a submit body, not a plan's fields, and applies the submit's checks", async () => {
    const caller = await apiCaller();
    await expectError(await plan(caller, { question: Q, mode: "lite", plan_id: crypto.randomUUID() }), 400, "invalid_request");
    await expectError(await plan(caller, { question: Q, mode: "max" }), 400, "invalid_request");
    await expectError(await plan(caller, { question: "" }), 400, "invalid_request");
    expect(await dbAll("select id from research_plans where user_id = ?", caller.id)).toEqual([]);
  });

  it("is served to the dashboard's playground too", async () => {
    const caller = await apiCaller();
    const response = await call("/api/playground/research/plan", { token: caller.accessToken, body: { question: Q, mode: "lite" } });
    expect(response.status).toBe(200);
    expect((await json(response)).max_queries).toBe(2);
  });
});

describe("POST /v1/research with plan_id", () => {
  it("runs the reviewed, edited plan: its first wave searches exactly the edited queries", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const planned = await madePlan(caller);
    const queries = ["Compromise Tariff of 1833", "Henry Clay lowered the rates"];
    expect(planned.queries).not.toEqual(queries);
    const sub_questions = ["What did the Compromise Tariff of 1833 do?"];
    const response = await research(caller, { question: Q, mode: "lite", plan_id: planned.plan_id, queries, sub_questions });
    expect(response.status).toBe(200);
    const result = await json(response);
    expect(result.status).toBe("succeeded");
    expect(received).toEqual(queries);
    for (const own of planned.queries) expect(received).not.toContain(own);
    expect(result.sources.some((source: { url: string }) => source.url.endsWith("/nullification-crisis"))).toBe(true);
    expect(await dbFirst("select used_by_job_id from research_plans where id = ?", planned.plan_id)).toEqual({ used_by_job_id: result.id });
    expect(await balanceOf(caller)).toBe(500 - result.credits_charged);
  });

  it("runs an unedited plan as planned: the plan's own queries are the ones searched", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const planned = await madePlan(caller);
    const response = await research(caller, { question: Q, mode: "lite", plan_id: planned.plan_id, async: true });
    expect(response.status).toBe(202);
    await waitForTerminal(caller, (await json(response)).id, 60_000);
    expect(received).toEqual(planned.queries);
  });

  it("runs a plan once: a second submit with it is 400 and writes nothing", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const planned = await madePlan(caller);
    const first = await json(await research(caller, { question: Q, mode: "lite", plan_id: planned.plan_id }));
    const balance = await balanceOf(caller);
    const again = await expectError(await research(caller, { question: Q, mode: "lite", plan_id: planned.plan_id }), 400, "invalid_request");
    expect(again.error.message).toContain("already ran");
    expect((await dbAll<{ id: string }>("select id from research_jobs where user_id = ?", caller.id)).map((row) => row.id)).toEqual([first.id]);
    expect(await balanceOf(caller)).toBe(balance);
  });

  it("refuses an expired plan with 404, and writes nothing", async () => {
    const caller = await apiCaller();
    const planned = await madePlan(caller);
    await dbRun("update research_plans set expires_at = ? where id = ?", new Date(Date.now() - 1000).toISOString(), planned.plan_id);
    const refused = await expectError(await research(caller, { question: Q, mode: "lite", plan_id: planned.plan_id }), 404, "not_found");
    expect(refused.error.message).toContain("expired");
    await expectNothingWritten(caller);
    expect(received).toEqual([]);
  });

  it("another account's plan, or an unknown one, is 404 and nothing is written", async () => {
    const owner = await apiCaller();
    const other = await apiCaller();
    const planned = await madePlan(owner);
    await expectError(await research(other, { question: Q, mode: "lite", plan_id: planned.plan_id }), 404, "not_found");
    await expectError(await research(other, { question: Q, mode: "lite", plan_id: crypto.randomUUID() }), 404, "not_found");
    await expectNothingWritten(other);
    expect(await dbFirst("select used_by_job_id from research_plans where id = ?", planned.plan_id)).toEqual({ used_by_job_id: null });
  });

  it.each([
    ["more queries than the mode's first wave", { queries: ["a", "b", "c"] }],
    ["an empty query", { queries: ["Compromise Tariff", "  "] }],
    ["a query longer than 200 characters", { queries: ["x".repeat(201)] }],
    ["no query", { queries: [] }],
    ["a repeated query", { queries: ["Henry Clay", "henry  clay"] }],
    ["more than 8 sub-questions", { sub_questions: Array.from({ length: 9 }, (_, i) => `sub-question ${i}?`) }],
    ["a sub-question longer than 500 characters", { sub_questions: ["y".repeat(501)] }],
    ["another question", { question: "What caused the Nullification Crisis?" }],
    ["another mode", { mode: "standard" }],
    ["edits without plan_id", { plan_id: undefined, queries: ["Henry Clay"] }],
    ["a plan_id that is not an id", { plan_id: "plan-1" }],
  ])("refuses bad edits with 400 and writes nothing: %s", async (_name, edits) => {
    const caller = await apiCaller();
    const planned = await madePlan(caller);
    const body = { question: Q, mode: "lite", plan_id: planned.plan_id, ...edits };
    await expectError(await research(caller, body), 400, "invalid_request");
    await expectNothingWritten(caller);
    expect(await dbFirst("select used_by_job_id from research_plans where id = ?", planned.plan_id)).toEqual({ used_by_job_id: null });
    expect(received).toEqual([]);
  });
});
