import { describe, expect, it } from "vitest";
import { dbAll, expectError, expectLedgerConsistent, json } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, research, setBalance, waitForTerminal } from "./helpers";

describe("concurrent jobs on a small balance", () => {
  it("accepts exactly as many as fit, rejects the rest with 402, never goes negative", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    await setBalance(caller.id, 50);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => research(caller, { question: `What was the Tariff of 1828? (${i})`, mode: "lite" })),
    );
    const accepted = responses.filter((response) => response.status === 200);
    const rejected = responses.filter((response) => response.status !== 200);
    expect(accepted).toHaveLength(Math.floor(50 / 15));
    for (const response of rejected) await expectError(response, 402, "insufficient_credits");
    let charged = 0;
    for (const response of accepted) {
      const body = await json(response);
      expect(body.status).toBe("succeeded");
      charged += body.credits_charged;
    }
    expect(charged).toBe(45);
    expect(await balanceOf(caller)).toBe(5);
    expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toHaveLength(3);
    await expectLedgerConsistent(caller.id);
  });

  it("async jobs racing for the balance: exactly as many reserved as fit", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    await setBalance(caller.id, 130);
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => research(caller, { question: `What ended the Nullification Crisis? (${i})` })));
    const accepted = responses.filter((response) => response.status === 202);
    expect(accepted).toHaveLength(2);
    expect(responses.filter((response) => response.status === 402)).toHaveLength(4);
    expect(await balanceOf(caller)).toBeGreaterThanOrEqual(10);
    await expectLedgerConsistent(caller.id);
    // Run to their end here: a job still running when the runtime closes was the suite's
    // "EnvironmentTeardownError: Closing rpc while "resolve" was pending" (issue 38).
    for (const response of accepted) await waitForTerminal(caller, (await json(response)).id);
    await expectLedgerConsistent(caller.id);
  });
});
