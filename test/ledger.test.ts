import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../src/db/client";
import { applyLedgerChange, balanceDto, getBalance, type LedgerChange, UnknownUserError } from "../src/services/ledger";
import { dbAll, dbRun, expectLedgerConsistent, uniqueEmail } from "./helpers";

const db = createDb(env.DB);

/** A user straight in D1 with a zero balance and no entries, optionally granted `credits` through the ledger. */
async function ledgerUser(credits = 0): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await dbRun("insert into users (id, email, created_at, updated_at) values (?, ?, ?, ?)", id, uniqueEmail("ledger"), now, now);
  if (credits > 0) {
    const result = await applyLedgerChange(db, id, { kind: "purchase", delta: credits, note: "test setup" });
    expect(result.status).toBe("applied");
  }
  return id;
}

async function entryCount(userId: string): Promise<number> {
  return (await dbAll("select seq from ledger_entries where user_id = ?", userId)).length;
}

describe("applyLedgerChange", () => {
  it("grants, reserves, releases and adjusts, recording each entry with its balance_after", async () => {
    const userId = await ledgerUser();
    const jobId = crypto.randomUUID();

    const grant = await applyLedgerChange(db, userId, { kind: "purchase", delta: 1000, idempotencyKey: "purchase:1", note: "pack" });
    expect(grant).toMatchObject({ status: "applied", balance: 1000 });
    if (grant.status !== "applied") throw new Error("unreachable");
    expect(grant.entry).toMatchObject({
      userId,
      kind: "purchase",
      delta: 1000,
      balanceAfter: 1000,
      idempotencyKey: "purchase:1",
      note: "pack",
      relatedId: null,
    });

    const reserve = await applyLedgerChange(db, userId, { kind: "reservation", delta: -300, relatedId: jobId, idempotencyKey: `reserve:${jobId}` });
    expect(reserve).toMatchObject({ status: "applied", balance: 700, entry: { kind: "reservation", delta: -300, balanceAfter: 700, relatedId: jobId } });

    const release = await applyLedgerChange(db, userId, { kind: "release", delta: 120, relatedId: jobId, idempotencyKey: `release:${jobId}` });
    expect(release).toMatchObject({ status: "applied", balance: 820, entry: { kind: "release", delta: 120, balanceAfter: 820 } });

    const adjust = await applyLedgerChange(db, userId, { kind: "admin_adjustment", delta: -20, note: "goodwill reversal" });
    expect(adjust).toMatchObject({ status: "applied", balance: 800, entry: { kind: "admin_adjustment", delta: -20, balanceAfter: 800 } });

    expect(await getBalance(db, userId)).toBe(800);
    expect(await entryCount(userId)).toBe(4);
    expect(await expectLedgerConsistent(userId)).toBe(800);
  });

  it("applies a change with an idempotency key once: a retry is `duplicate` with the original entry and changes nothing", async () => {
    const userId = await ledgerUser();
    const first = await applyLedgerChange(db, userId, { kind: "purchase", delta: 250, idempotencyKey: "pay_123" });
    expect(first.status).toBe("applied");
    // Even with a different amount, the key names the same money movement.
    const retry = await applyLedgerChange(db, userId, { kind: "purchase", delta: 999, idempotencyKey: "pay_123" });
    expect(retry.status).toBe("duplicate");
    if (first.status !== "applied" || retry.status !== "duplicate") throw new Error("unreachable");
    expect(retry.entry).toEqual(first.entry);
    expect(retry.balance).toBe(250);
    expect(await entryCount(userId)).toBe(1);
    expect(await expectLedgerConsistent(userId)).toBe(250);
  });

  it("reports a duplicate debit as duplicate, not insufficient, even when the balance no longer covers it", async () => {
    const userId = await ledgerUser(100);
    expect((await applyLedgerChange(db, userId, { kind: "reservation", delta: -80, idempotencyKey: "reserve:a" })).status).toBe("applied");
    const retry = await applyLedgerChange(db, userId, { kind: "reservation", delta: -80, idempotencyKey: "reserve:a" });
    expect(retry).toMatchObject({ status: "duplicate", balance: 20, entry: { delta: -80, balanceAfter: 20 } });
    expect(await expectLedgerConsistent(userId)).toBe(20);
  });

  it("scopes idempotency keys per user", async () => {
    const a = await ledgerUser();
    const b = await ledgerUser();
    expect((await applyLedgerChange(db, a, { kind: "purchase", delta: 10, idempotencyKey: "same-key" })).status).toBe("applied");
    expect((await applyLedgerChange(db, b, { kind: "purchase", delta: 20, idempotencyKey: "same-key" })).status).toBe("applied");
    expect(await expectLedgerConsistent(a)).toBe(10);
    expect(await expectLedgerConsistent(b)).toBe(20);
  });

  it("records changes without an idempotency key every time", async () => {
    const userId = await ledgerUser();
    for (let i = 0; i < 3; i++) expect((await applyLedgerChange(db, userId, { kind: "plan_grant", delta: 5 })).status).toBe("applied");
    expect(await entryCount(userId)).toBe(3);
    expect(await expectLedgerConsistent(userId)).toBe(15);
  });

  it("applies exactly one of 5 concurrent changes with the same idempotency key", async () => {
    const userId = await ledgerUser();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => applyLedgerChange(db, userId, { kind: "purchase", delta: 300, idempotencyKey: "checkout:abc" })),
    );
    const applied = results.filter((r) => r.status === "applied");
    const duplicates = results.filter((r) => r.status === "duplicate");
    expect(applied).toHaveLength(1);
    expect(duplicates).toHaveLength(4);
    const originalId = applied[0]!.status === "applied" ? applied[0]!.entry.id : "";
    for (const d of duplicates) expect(d.status === "duplicate" && d.entry.id).toBe(originalId);
    expect(await entryCount(userId)).toBe(1);
    expect(await expectLedgerConsistent(userId)).toBe(300);
  });

  it("refuses a debit beyond the balance: `insufficient`, nothing written", async () => {
    const userId = await ledgerUser(100);
    const result = await applyLedgerChange(db, userId, { kind: "reservation", delta: -101, idempotencyKey: "reserve:big" });
    expect(result).toEqual({ status: "insufficient", balance: 100 });
    expect(await entryCount(userId)).toBe(1);
    expect(await expectLedgerConsistent(userId)).toBe(100);

    // The refused change did not use up its idempotency key: once funded, the same key applies.
    expect((await applyLedgerChange(db, userId, { kind: "purchase", delta: 1 })).status).toBe("applied");
    const retry = await applyLedgerChange(db, userId, { kind: "reservation", delta: -101, idempotencyKey: "reserve:big" });
    expect(retry).toMatchObject({ status: "applied", balance: 0, entry: { balanceAfter: 0 } });
    expect(await expectLedgerConsistent(userId)).toBe(0);
  });

  it("allows a debit of exactly the balance, down to zero", async () => {
    const userId = await ledgerUser(40);
    expect(await applyLedgerChange(db, userId, { kind: "reservation", delta: -40 })).toMatchObject({ status: "applied", balance: 0 });
    expect(await applyLedgerChange(db, userId, { kind: "reservation", delta: -1 })).toEqual({ status: "insufficient", balance: 0 });
    expect(await expectLedgerConsistent(userId)).toBe(0);
  });

  it("with clampAtZero takes at most the whole balance and records the amount taken", async () => {
    const userId = await ledgerUser(100);
    const result = await applyLedgerChange(db, userId, { kind: "refund", delta: -250, clampAtZero: true, note: "processor refund" });
    expect(result).toMatchObject({ status: "applied", balance: 0, entry: { kind: "refund", delta: -100, balanceAfter: 0 } });
    expect(await expectLedgerConsistent(userId)).toBe(0);
  });

  it("with clampAtZero takes the full amount when the balance covers it", async () => {
    const userId = await ledgerUser(100);
    const result = await applyLedgerChange(db, userId, { kind: "refund", delta: -30, clampAtZero: true });
    expect(result).toMatchObject({ status: "applied", balance: 70, entry: { delta: -30, balanceAfter: 70 } });
    expect(await expectLedgerConsistent(userId)).toBe(70);
  });

  it("accepts exactly as many concurrent reservations as fit (100 credits, 12 × 15 → 6 succeed, 10 left)", async () => {
    const userId = await ledgerUser(100);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        applyLedgerChange(db, userId, { kind: "reservation", delta: -15, relatedId: `job-${i}`, idempotencyKey: `reserve:job-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === "applied")).toHaveLength(6);
    expect(results.filter((r) => r.status === "insufficient")).toHaveLength(6);
    expect(await getBalance(db, userId)).toBe(10);
    expect(await entryCount(userId)).toBe(7);
    expect(await expectLedgerConsistent(userId)).toBe(10);
  });

  it("keeps the invariants under a concurrent mix of grants, reservations and releases", async () => {
    const userId = await ledgerUser(50);
    const changes: LedgerChange[] = [];
    for (let i = 0; i < 10; i++) {
      changes.push({ kind: "reservation", delta: -20, idempotencyKey: `r${i}` });
      changes.push({ kind: i % 2 ? "release" : "purchase", delta: 7 });
    }
    const results = await Promise.all(changes.map((change) => applyLedgerChange(db, userId, change)));
    for (const result of results) expect(["applied", "insufficient"]).toContain(result.status);
    const balance = await expectLedgerConsistent(userId);
    const applied = results.filter((r) => r.status === "applied").length;
    expect(await entryCount(userId)).toBe(applied + 1);
    expect(balance).toBeGreaterThanOrEqual(0);
  });

  it("throws UnknownUserError for a user that does not exist, writing nothing", async () => {
    const ghost = crypto.randomUUID();
    await expect(applyLedgerChange(db, ghost, { kind: "purchase", delta: 10 })).rejects.toBeInstanceOf(UnknownUserError);
    expect(await entryCount(ghost)).toBe(0);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])("rejects a delta of %s", async (delta) => {
    const userId = await ledgerUser(10);
    await expect(applyLedgerChange(db, userId, { kind: "purchase", delta })).rejects.toBeInstanceOf(RangeError);
    expect(await expectLedgerConsistent(userId)).toBe(10);
  });
});

describe("balanceDto", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [50, "0.50"],
    [500, "5.00"],
    [1001, "10.01"],
    [123456, "1234.56"],
  ])("formats %i credits as %s USD", (credits, usd) => {
    expect(balanceDto(credits)).toEqual({ credits, usd });
  });
});
