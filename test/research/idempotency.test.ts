import { describe, expect, it } from "vitest";
import { dbAll, dbRun, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, research, setBalance, waitForTerminal } from "./helpers";

const Q = "What ended the Nullification Crisis?";
const jobsOf = (userId: string) => dbAll<{ id: string }>("select id from research_jobs where user_id = ?", userId);

describe("Idempotency-Key", () => {
  it("same key and body: the original job, no new charge (sync)", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const first = await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "sync-1" });
    expect(first.status).toBe(200);
    const original = await json(first);
    const again = await research(caller, { mode: "lite", question: Q }, { "Idempotency-Key": "sync-1" });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(original);
    expect(await jobsOf(caller.id)).toHaveLength(1);
    expect(await balanceOf(caller)).toBe(485);
    await expectLedgerConsistent(caller.id);
  });

  it("same key and body: the same 202 for an async job", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const first = await json(await research(caller, { question: Q }, { "Idempotency-Key": "async-1" }));
    const again = await research(caller, { question: Q }, { "Idempotency-Key": "async-1" });
    expect(again.status).toBe(202);
    expect(await json(again)).toEqual(first);
    await waitForTerminal(caller, first.id);
    expect(await jobsOf(caller.id)).toHaveLength(1);
    expect(await balanceOf(caller)).toBe(440);
  });

  it("same key, different body: 422 idempotency_key_reused, nothing charged", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    expect((await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "k" })).status).toBe(200);
    await expectError(await research(caller, { question: `${Q} Explain.`, mode: "lite" }, { "Idempotency-Key": "k" }), 422, "idempotency_key_reused");
    await expectError(await research(caller, { question: Q, mode: "standard" }, { "Idempotency-Key": "k" }), 422, "idempotency_key_reused");
    expect(await jobsOf(caller.id)).toHaveLength(1);
    expect(await balanceOf(caller)).toBe(485);
    await expectLedgerConsistent(caller.id);
  });

  it("5 parallel identical submits with one key: one job, one charge", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const responses = await Promise.all(Array.from({ length: 5 }, () => research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "parallel" })));
    const ids = new Set<string>();
    // Every replay answers what the first request finally answered: the finished job.
    for (const response of responses) {
      expect(response.status).toBe(200);
      ids.add((await json(response)).id);
    }
    expect(ids.size).toBe(1);
    expect(await jobsOf(caller.id)).toHaveLength(1);
    expect(await balanceOf(caller)).toBe(485);
    await expectLedgerConsistent(caller.id);
  });

  it("keys are scoped per account", async () => {
    await corpusLoaded();
    const alice = await apiCaller();
    const bob = await apiCaller();
    const a = await json(await research(alice, { question: Q, mode: "lite" }, { "Idempotency-Key": "shared" }));
    const b = await json(await research(bob, { question: `${Q} In brief.`, mode: "lite" }, { "Idempotency-Key": "shared" }));
    expect(a.status).toBe("succeeded");
    expect(b.status).toBe("succeeded");
    expect(b.id).not.toBe(a.id);
    expect(await balanceOf(alice)).toBe(485);
    expect(await balanceOf(bob)).toBe(485);
  });

  it("an expired key starts a new job", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const first = await json(await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "old" }));
    await dbRun("update research_jobs set idempotency_expires_at = ? where id = ?", new Date(Date.now() - 1000).toISOString(), first.id);
    const second = await json(await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "old" }));
    expect(second.status).toBe("succeeded");
    expect(second.id).not.toBe(first.id);
    expect(await jobsOf(caller.id)).toHaveLength(2);
    expect(await balanceOf(caller)).toBe(470);
    // The new job now holds the key.
    const third = await json(await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "old" }));
    expect(third.id).toBe(second.id);
    await expectLedgerConsistent(caller.id);
  });

  // Issue 26: the first request of a key that is refused for credits must not leave its
  // concurrent replays holding a 202 for a job that never existed.
  it("20 parallel async submits with one key on a short balance: all 402, no phantom job", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    await setBalance(caller.id, 10);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => research(caller, { question: Q, mode: "lite", async: true }, { "Idempotency-Key": "short-balance" })),
    );
    for (const response of responses) await expectError(response, 402, "insufficient_credits");
    expect(await jobsOf(caller.id)).toHaveLength(0);
    expect(await balanceOf(caller)).toBe(10);
    await expectLedgerConsistent(caller.id);
  });

  it("the same race in the sync form: every answer is the 402, none a 409", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    await setBalance(caller.id, 10);
    const responses = await Promise.all(Array.from({ length: 10 }, () => research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "short-sync" })));
    for (const response of responses) await expectError(response, 402, "insufficient_credits");
    expect(await jobsOf(caller.id)).toHaveLength(0);
    await expectLedgerConsistent(caller.id);
  });

  it("20 parallel async submits with one key that fit: every answer is the same 202 for a job that exists", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => research(caller, { question: Q, mode: "lite", async: true }, { "Idempotency-Key": "fits" })),
    );
    const ids = new Set<string>();
    for (const response of responses) {
      expect(response.status).toBe(202);
      ids.add((await json(response)).id);
    }
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await waitForTerminal(caller, id!)).status).toBe("succeeded");
    expect(await jobsOf(caller.id)).toHaveLength(1);
    expect(await balanceOf(caller)).toBe(485);
    await expectLedgerConsistent(caller.id);
  });

  it("400 for an Idempotency-Key that is not printable ASCII or too long", async () => {
    const caller = await apiCaller();
    await expectError(await research(caller, { question: Q, mode: "lite" }, { "Idempotency-Key": "x".repeat(256) }), 400, "invalid_request");
    expect(await jobsOf(caller.id)).toHaveLength(0);
  });
});
