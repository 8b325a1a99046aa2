import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { grantFreeMonth } from "../../src/services/billing/free-plan";
import { applyLedgerChange } from "../../src/services/ledger";
import { dbRun, expectLedgerConsistent, signupUser } from "../helpers";

const db = createDb(env.DB);
const entries = (userId: string, key: string) =>
  env.DB.prepare("select delta from ledger_entries where user_id = ? and idempotency_key = ?").bind(userId, key).all<{ delta: number }>();

describe("Free plan monthly credits", () => {
  it("tops a Free account up to 500 once per month, and not an account created this month", async () => {
    const old = await signupUser();
    const fresh = await signupUser();
    await dbRun("update users set created_at = '2026-01-15T00:00:00.000Z' where id = ?", old.id);
    await applyLedgerChange(db, old.id, { kind: "reservation", delta: -320 });
    const now = new Date();
    await grantFreeMonth(db, now);
    await grantFreeMonth(db, now); // a second tick the same month changes nothing
    const key = `free:${now.toISOString().slice(0, 7)}`;
    expect((await entries(old.id, key)).results).toEqual([{ delta: 320 }]);
    expect((await entries(fresh.id, key)).results).toEqual([]);
    expect(await expectLedgerConsistent(old.id)).toBe(500);
  });

  it("records the month (with nothing added) for an account already at 500 or more, and skips paid plans", async () => {
    const rich = await signupUser();
    const paid = await signupUser();
    await dbRun("update users set created_at = '2026-01-15T00:00:00.000Z' where id in (?, ?)", rich.id, paid.id);
    await dbRun(
      "insert into subscriptions (user_id, plan_id, status, processor_subscription_id, updated_at) values (?, 'developer', 'active', ?, ?)",
      paid.id,
      `sub_${paid.id}`,
      new Date().toISOString(),
    );
    const now = new Date();
    await grantFreeMonth(db, now);
    const key = `free:${now.toISOString().slice(0, 7)}`;
    expect((await entries(rich.id, key)).results).toEqual([{ delta: 0 }]);
    expect((await entries(paid.id, key)).results).toEqual([]);
    await expectLedgerConsistent(rich.id);
  });
});
