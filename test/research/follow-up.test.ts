import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, dbFirst, dbRun, expectError, json } from "../helpers";
import { MAX_THREAD_JOBS } from "../../src/research/submit/follow-up";
import { apiCaller, balanceOf, ensureCorpus, holdStage, jobLedger, jobStubOf, research, waitForTerminal, type ApiCaller } from "./helpers";

/**
 * Follow-ups (issue 45, item 1) through HTTP in the Workers runtime: a job with `previous_job_id`
 * starts from the previous job's evidence and never reads those pages again (the fan-out's task log
 * of its Durable Object is where every search and read it ran is recorded), costs less than the
 * question asked fresh, cites old and new sources in one numbering and shows its thread; another
 * account's job, an unfinished one and a thread at its bound are refused with nothing reserved.
 */

const HISTORY = ["history.example.org"];
const BOTH = ["history.example.org", "econ.example.com"];
const FIRST = { question: "What did South Carolina do about the Tariff of 1828?", mode: "lite", include_domains: HISTORY } as const;
const FOLLOW = { question: "What did critics say about United States tariffs?", mode: "lite", include_domains: BOTH } as const;

async function succeeded(caller: ApiCaller, body: Record<string, unknown>) {
  const response = await research(caller, body);
  expect(response.status).toBe(200);
  const result = await json(response);
  expect(result.status).toBe("succeeded");
  return result;
}

/** What a job's Durable Object dispatched to the fan-out: the URLs it read and the queries it searched. */
async function tasksOf(jobId: string): Promise<{ reads: string[]; searches: string[] }> {
  const keys = await runInDurableObject(jobStubOf(jobId), (_instance, state) =>
    state.storage.sql
      .exec<{ key: string }>("SELECT key FROM tasks")
      .toArray()
      .map((row) => row.key),
  );
  return {
    reads: keys.filter((key) => key.startsWith("read:")).map((key) => JSON.parse(key.slice(5)) as string),
    searches: keys.filter((key) => key.startsWith("search:")).map((key) => (JSON.parse(key.slice(7)) as { query: string }).query),
  };
}

describe("POST /v1/research with previous_job_id", () => {
  it("starts from the first job's evidence without reading it again, costs less than asked fresh, and numbers old and new sources together", async () => {
    await ensureCorpus();
    const caller = await apiCaller();
    const first = await succeeded(caller, FIRST);
    expect(first.previous_job_id).toBeNull();
    expect(first.thread).toEqual([]);
    const firstTasks = await tasksOf(first.id);
    expect(firstTasks.reads.length).toBeGreaterThan(0);

    // The quote says what it costs and why, before anything is reserved.
    const quoteResponse = await call("/v1/research/quote", { token: caller.key, body: { ...FOLLOW, previous_job_id: first.id } });
    expect(quoteResponse.status).toBe(200);
    const quote = await json(quoteResponse);
    expect(quote.credits_reserved).toBe(4 + 7);
    expect(quote.follow_up).toEqual({
      previous_job_id: first.id,
      thread: [first.id],
      fresh_credits: 15,
      base_credits: 4,
      max_work_credits: 7,
      reason: expect.stringContaining("at most 11 credits, against 15 asked fresh"),
    });
    const freshQuote = await json(await call("/v1/research/quote", { token: caller.key, body: FOLLOW }));
    expect(freshQuote.follow_up).toBeNull();
    expect(freshQuote.credits_reserved).toBe(15);

    const before = await balanceOf(caller);
    const follow = await succeeded(caller, { ...FOLLOW, previous_job_id: first.id });
    expect(follow.previous_job_id).toBe(first.id);
    expect(follow.thread).toEqual([first.id]);

    // No page the first job read was read again, and no query it searched was searched again.
    const followTasks = await tasksOf(follow.id);
    for (const url of firstTasks.reads) expect(followTasks.reads).not.toContain(url);
    for (const query of firstTasks.searches) expect(followTasks.searches).not.toContain(query);
    // It read something new: the page the first job's domain filter kept it from.
    expect(followTasks.reads).toContain("https://econ.example.com/smoot-hawley");

    // One numbering: old sources (from_job_id) and new ones in one list, [n] is sources[n - 1].
    const old = follow.sources.filter((source: any) => source.from_job_id === first.id);
    const fresh = follow.sources.filter((source: any) => source.from_job_id === undefined);
    expect(old.length).toBeGreaterThan(0);
    expect(fresh.length).toBeGreaterThan(0);
    for (const source of old) expect(firstTasks.reads).toContain(source.url);
    for (const source of fresh) expect(firstTasks.reads).not.toContain(source.url);
    const cited = new Set<number>(follow.citations.map((citation: any) => citation.source));
    for (const index of cited) expect(index).toBeLessThan(follow.sources.length);
    expect([...cited].some((index) => follow.sources[index].from_job_id === first.id)).toBe(true);
    expect([...cited].some((index) => follow.sources[index].from_job_id === undefined)).toBe(true);
    for (const index of cited) expect(follow.brief).toContain(`[${index + 1}]`);

    // Priced by what it adds: the quarter of the lite price plus its work, below the fresh price.
    expect(follow.charge_basis.rule).toBe("follow_up");
    expect(follow.credits_charged).toBe(4 + Math.ceil(follow.cost_usd * 100 - 1e-9));
    expect(await balanceOf(caller)).toBe(before - follow.credits_charged);
    const askedFresh = await succeeded(caller, FOLLOW);
    expect(askedFresh.charge_basis.rule).toBe("mode_price");
    expect(follow.credits_charged).toBeLessThan(askedFresh.credits_charged);

    // GET shows the thread; a follow-up of the follow-up carries the whole chain, oldest first.
    const read = await json(await call(`/v1/research/${follow.id}`, { token: caller.key }));
    expect(read.previous_job_id).toBe(first.id);
    expect(read.thread).toEqual([first.id]);
    const third = await succeeded(caller, { question: "What did the McKinley Tariff do?", mode: "lite", include_domains: BOTH, previous_job_id: follow.id });
    expect(third.thread).toEqual([first.id, follow.id]);
    const thirdTasks = await tasksOf(third.id);
    for (const url of [...firstTasks.reads, ...followTasks.reads]) expect(thirdTasks.reads).not.toContain(url);
  });

  it("asked again as a follow-up, a question searches and reads nothing: its answer comes from the evidence it starts from", async () => {
    await ensureCorpus();
    const caller = await apiCaller();
    const first = await succeeded(caller, FIRST);
    const again = await succeeded(caller, { ...FIRST, previous_job_id: first.id });
    expect(await tasksOf(again.id)).toEqual({ reads: [], searches: [] });
    expect(again.sources.length).toBeGreaterThan(0);
    for (const source of again.sources) expect(source.from_job_id).toBe(first.id);
    expect(again.charge_basis.rule).toBe("follow_up");
    expect(again.credits_charged).toBe(4 + Math.ceil(again.cost_usd * 100 - 1e-9));
    expect(again.credits_charged).toBeLessThan(first.credits_charged);
  });

  it("refuses another account's job (404), an unknown one (404) and a job that has not succeeded (400), with nothing reserved or charged", async () => {
    await ensureCorpus();
    const owner = await apiCaller();
    const first = await succeeded(owner, FIRST);
    const other = await apiCaller();
    const balance = await balanceOf(other);
    await expectError(await research(other, { ...FOLLOW, previous_job_id: first.id }), 404, "not_found");
    await expectError(await call("/v1/research/quote", { token: other.key, body: { ...FOLLOW, previous_job_id: first.id } }), 404, "not_found");
    await expectError(await research(other, { ...FOLLOW, previous_job_id: crypto.randomUUID() }), 404, "not_found");
    await expectError(await research(other, { ...FOLLOW, previous_job_id: "not-a-job" }), 400, "invalid_request");
    expect(await balanceOf(other)).toBe(balance);

    // A job still running: held at its "searching" report, so it is unfinished by state, not by timing.
    const hold = holdStage("searching");
    try {
      const accepted = await json(await research(owner, { ...FIRST, async: true }));
      await expect.poll(() => hold.reached(accepted.id)).toBe(true);
      const ownerBalance = await balanceOf(owner);
      const body = await expectError(await research(owner, { ...FOLLOW, previous_job_id: accepted.id }), 400, "invalid_request");
      expect(body.error.details).toEqual({ field: "previous_job_id", reason: "previous_job_not_succeeded", status: "running" });
      expect(body.error.message).toMatch(/is running; a follow-up starts from a job that succeeded \(wait for it to finish\)/);
      expect(await balanceOf(owner)).toBe(ownerBalance);
      await hold.release();
      expect((await waitForTerminal(owner, accepted.id)).status).toBe("succeeded");
    } finally {
      await hold.release();
    }
    // A cancelled or failed job is refused too: a job cancelled at once.
    const cancelHold = holdStage("searching");
    try {
      const accepted = await json(await research(owner, { ...FIRST, async: true }));
      await expect.poll(() => cancelHold.reached(accepted.id)).toBe(true);
      const cancelling = call(`/v1/research/${accepted.id}`, { token: owner.key, method: "DELETE" });
      await cancelHold.release();
      expect((await cancelling).status).toBe(200);
      const ownerBalance = await balanceOf(owner);
      const body = await expectError(await research(owner, { ...FOLLOW, previous_job_id: accepted.id }), 400, "invalid_request");
      expect(body.error.details).toMatchObject({ reason: "previous_job_not_succeeded", status: "cancelled" });
      expect(await balanceOf(owner)).toBe(ownerBalance);
    } finally {
      await cancelHold.release();
    }
  });

  it("follows a job whose result was handed out while its row still says running (its settlement's D1 write failed and is retried), and settles that job once", async () => {
    await ensureCorpus();
    const caller = await apiCaller();
    // The settlement's final-row write fails, as a busy or unreachable D1 makes it fail: the object
    // is terminal and shows its result, and it retries the write from an alarm. Held by a trigger
    // on this caller's first job, so the lag is a state of the database, not a race with a timer.
    const trigger = `hold_settle_${caller.id.replaceAll("-", "")}`;
    await dbRun(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE OF status ON research_jobs
       WHEN OLD.user_id = '${caller.id}' AND OLD.previous_job_id IS NULL AND NEW.status = 'succeeded'
       BEGIN SELECT RAISE(ABORT, 'D1 is unavailable'); END`,
    );
    let first: Record<string, any>;
    try {
      first = await succeeded(caller, FIRST);
      expect(await dbFirst("select status, result_json from research_jobs where id = ?", first.id)).toEqual({ status: "running", result_json: null });

      // The caller was handed "succeeded": its follow-up is quoted and runs, not refused as running.
      const quote = await json(await call("/v1/research/quote", { token: caller.key, body: { ...FOLLOW, previous_job_id: first.id } }));
      expect(quote.follow_up).toMatchObject({ previous_job_id: first.id, thread: [first.id] });
      const follow = await succeeded(caller, { ...FOLLOW, previous_job_id: first.id });
      expect(follow.thread).toEqual([first.id]);
    } finally {
      await dbRun(`DROP TRIGGER IF EXISTS ${trigger}`);
    }

    // The retry (the object's alarm, run here rather than waited for) writes the row and settles the
    // reservation once: one reservation and one release on the ledger, however often it ran.
    await runInDurableObject(jobStubOf(first.id), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
    expect(await dbFirst("select status from research_jobs where id = ?", first.id)).toEqual({ status: "succeeded" });
    expect((await jobLedger(caller.id, first.id)).map((entry) => entry.kind)).toEqual(["reservation", "release"]);
  });

  it(`refuses a thread of ${MAX_THREAD_JOBS} jobs with nothing reserved`, async () => {
    await ensureCorpus();
    const caller = await apiCaller();
    let previous = await succeeded(caller, FIRST);
    for (let n = 2; n <= MAX_THREAD_JOBS; n += 1) previous = await succeeded(caller, { ...FIRST, previous_job_id: previous.id });
    expect(previous.thread).toHaveLength(MAX_THREAD_JOBS - 1);
    const balance = await balanceOf(caller);
    const body = await expectError(await research(caller, { ...FIRST, previous_job_id: previous.id }), 400, "invalid_request");
    expect(body.error.details).toEqual({ field: "previous_job_id", reason: "thread_too_long", max_jobs: MAX_THREAD_JOBS });
    await expectError(await call("/v1/research/quote", { token: caller.key, body: { ...FIRST, previous_job_id: previous.id } }), 400, "invalid_request");
    expect(await balanceOf(caller)).toBe(balance);
    const jobs = await json(await call("/v1/research?limit=50", { token: caller.key }));
    expect(jobs).toHaveLength(MAX_THREAD_JOBS);
    expect(await jobLedger(caller.id, previous.id)).not.toHaveLength(0);
  });
});
