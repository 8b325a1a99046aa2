import { describe, expect, it } from "vitest";
import { callConfigured, PRODUCTION_JWT_SECRET } from "./configured-call";
import { call, createKey, dbAll, expectError, expectLedgerConsistent, json, latestEmail, signupUser, type TestUser, tokenFromLink } from "./helpers";
import { waitForTerminal } from "./research/helpers";

/**
 * Issue 39, item 9c: until its email is verified, research may not take an account's balance
 * below its signup bonus less UNVERIFIED_SPEND_LIMIT (100 by default in production), checked in
 * the reservation's own statement; beyond it 403 `email_not_verified`, nothing reserved.
 * Verifying lifts it. Development has no bound unless the variable is set (npm start mails nothing).
 */
const LIMITED = { UNVERIFIED_SPEND_LIMIT: "100" };
const Q = "What did presidents say about railroads?";

interface Account extends TestUser {
  key: string;
}

async function account(): Promise<Account> {
  const user = await signupUser();
  return { ...user, key: (await createKey(user)).plaintext };
}

function submit(vars: Record<string, string | undefined>, caller: Account, body: Record<string, unknown>) {
  return callConfigured(vars, "/v1/research", { token: caller.key, body: { question: Q, async: true, ...body } });
}

/** The lowest balance the account's ledger ever recorded. */
async function lowestBalance(userId: string): Promise<number> {
  const rows = await dbAll<{ balance_after: number }>("select balance_after from ledger_entries where user_id = ?", userId);
  return Math.min(...rows.map((row) => row.balance_after));
}

async function verify(user: TestUser): Promise<void> {
  const mail = await latestEmail(user.email, "Confirm your email");
  const token = tokenFromLink(mail!.text, /verify-email\?token=(\S+)/);
  expect((await call(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(302);
}

describe("what an unverified account may spend", () => {
  it("refuses research past the limit with 403 email_not_verified, reserving nothing; exactly the limit passes; verifying lifts it", async () => {
    const caller = await account();
    const refused = await expectError(await submit(LIMITED, caller, { mode: "pro" }), 403, "email_not_verified");
    expect(refused.error.message).toMatch(/Verify your email address/);
    expect(refused.error.message).toMatch(/needs 200 credits and 100 can be spent now/);
    await expectError(await submit(LIMITED, caller, { mode: "max", max_credits: 101 }), 403, "email_not_verified");
    expect(await json(await call("/v1/credits", { token: caller.key }))).toMatchObject({ credits: 500 });
    expect(await json(await call("/v1/research", { token: caller.key }))).toEqual([]);

    // The whole allowance at once is allowed: the balance lands on the floor, not below it.
    const accepted = await submit(LIMITED, caller, { mode: "max", max_credits: 100 });
    expect(accepted.status).toBe(202);
    await waitForTerminal({ ...caller }, (await json(accepted)).id);

    await verify(caller);
    const pro = await submit(LIMITED, caller, { mode: "pro" });
    expect(pro.status).toBe(202);
    await waitForTerminal({ ...caller }, (await json(pro)).id);
    await expectLedgerConsistent(caller.id);
  });

  it("a quote says what the submit would: not covered past the bound, with the 403's message; covered within it and once verified", async () => {
    const caller = await account();
    const quote = async (body: Record<string, unknown>) =>
      json(await callConfigured(LIMITED, "/v1/research/quote", { token: caller.key, body: { question: Q, ...body } }));
    const pro = await quote({ mode: "pro" });
    expect(pro).toMatchObject({ covered: false, covered_by: null, balance_credits: 500 });
    expect(pro.insufficient_credits).toMatch(/^Verify your email address .*needs 200 credits and 100 can be spent now/);
    expect(await quote({ mode: "max", max_credits: 100 })).toMatchObject({ covered: true, covered_by: "balance", insufficient_credits: null });
    await verify(caller);
    expect(await quote({ mode: "pro" })).toMatchObject({ covered: true, covered_by: "balance", insufficient_credits: null });
  });

  it("holds under concurrency: 8 submits of the whole allowance at once never take the balance below the floor", async () => {
    const caller = await account();
    const answers = await Promise.all(Array.from({ length: 8 }, () => submit(LIMITED, caller, { mode: "max", max_credits: 100 })));
    const accepted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 403);
    expect(accepted.length + refused.length).toBe(8);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) expect((await json(answer)).error.code).toBe("email_not_verified");
    for (const answer of accepted) await waitForTerminal({ ...caller }, (await json(answer)).id);
    // Not one reservation passed the floor, whatever settled in between.
    expect(await lowestBalance(caller.id)).toBeGreaterThanOrEqual(400);
    await expectLedgerConsistent(caller.id);
  });

  it("bounds the dashboard's playground the same way", async () => {
    const user = await signupUser();
    const response = await callConfigured(LIMITED, "/api/playground/research", { token: user.accessToken, body: { question: Q, mode: "pro", async: true } });
    await expectError(response, 403, "email_not_verified");
    await expectLedgerConsistent(user.id);
  });

  it("production bounds it by default (100 credits); development without the variable does not (npm start)", async () => {
    const caller = await account();
    const production = { ENVIRONMENT: "production", JWT_SECRET: PRODUCTION_JWT_SECRET };
    await expectError(await submit(production, caller, { mode: "pro" }), 403, "email_not_verified");
    const local = await submit({}, caller, { mode: "pro" });
    expect(local.status).toBe(202);
    await waitForTerminal({ ...caller }, (await json(local)).id);
    await expectLedgerConsistent(caller.id);
  });
});
