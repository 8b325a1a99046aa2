import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { applyLedgerChange } from "../../src/services/ledger";
import { adminUser, auditOf, call, dbAll, expectError, expectLedgerConsistent, insertJob, json, signupUser, type TestUser } from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const as = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { token: admin.accessToken, ...options });
const refund = (jobId: string, body: unknown) => as(`/api/admin/jobs/${jobId}/refund`, { body });
const MISSING = "7f3a9c1e-0000-4000-8000-000000000002";
const refundsOf = (jobId: string) =>
  dbAll<{ delta: number; user_id: string; note: string }>("select delta, user_id, note from ledger_entries where kind = 'refund' and related_id = ?", jobId);

describe("GET /api/admin/jobs", () => {
  it("lists every user's jobs newest first with user_email, filtered by user_email and status", async () => {
    const alice = await signupUser();
    const bob = await signupUser();
    const a1 = await insertJob(alice.id, { createdAt: new Date(Date.now() - 120_000).toISOString() });
    const a2 = await insertJob(alice.id, { status: "failed" });
    const b1 = await insertJob(bob.id, { status: "running", createdAt: new Date(Date.now() - 60_000).toISOString() });

    const all = await json<any[]>(await as("/api/admin/jobs?limit=100"));
    const ids = all.map((r) => r.id);
    expect(ids.indexOf(a2)).toBeLessThan(ids.indexOf(b1));
    expect(ids.indexOf(b1)).toBeLessThan(ids.indexOf(a1));
    expect(all.find((r) => r.id === a1)).toEqual({
      id: a1,
      user_id: alice.id,
      user_email: alice.email.toLowerCase(),
      created_at: expect.any(String),
      status: "succeeded",
      question: "What changed in EU tariff policy in 2025?",
      credits_charged: 60,
      cost_usd_micros: 212_000,
      latency_ms: 14_250,
    });
    expect(all.find((r) => r.id === b1).latency_ms).toBeNull();

    const byEmail = await json<any[]>(await as(`/api/admin/jobs?user_email=${encodeURIComponent(alice.email.toUpperCase())}`));
    expect(byEmail.map((r) => r.id)).toEqual([a2, a1]);
    const failed = await json<any[]>(await as(`/api/admin/jobs?user_email=${encodeURIComponent(alice.email)}&status=failed`));
    expect(failed.map((r) => r.id)).toEqual([a2]);
    const running = await json<any[]>(await as("/api/admin/jobs?status=running&limit=100"));
    expect(running.every((r) => r.status === "running")).toBe(true);
    expect(running.map((r) => r.id)).toContain(b1);
    expect((await json<any[]>(await as(`/api/admin/jobs?user_email=${encodeURIComponent(alice.email)}&limit=1&offset=1`))).map((r) => r.id)).toEqual([a1]);
    expect(await json(await as("/api/admin/jobs?user_email=nobody%40example.com"))).toEqual([]);
  });

  it("answers 400 for an unknown status or bad paging", async () => {
    await expectError(await as("/api/admin/jobs?status=ready"), 400, "invalid_request");
    await expectError(await as("/api/admin/jobs?limit=0"), 400, "invalid_request");
  });
});

describe("GET /api/admin/jobs/{id}", () => {
  it("shows the raw request and response objects and credits_reserved", async () => {
    const user = await signupUser();
    const id = await insertJob(user.id, { creditsReserved: 60, creditsCharged: 60 });
    const detail = await json(await as(`/api/admin/jobs/${id}`));
    expect(detail).toEqual({
      id,
      user_id: user.id,
      user_email: user.email.toLowerCase(),
      created_at: expect.any(String),
      completed_at: expect.any(String),
      status: "succeeded",
      question: "What changed in EU tariff policy in 2025?",
      credits_reserved: 60,
      credits_charged: 60,
      cost_usd_micros: 212_000,
      error: null,
      latency_ms: 14_250,
      source_count: 1,
      wave_count: 2,
      request: { question: "What changed in EU tariff policy in 2025?", mode: "standard" },
      response: expect.objectContaining({ id, status: "succeeded", brief: "A cited brief.", credits_charged: 60 }),
      // Written offline (insertJob writes no model report): none.
      write_report: null,
    });
  });

  it("has a null response while pending, and 404 / 400 for unknown / malformed ids", async () => {
    const user = await signupUser();
    const id = await insertJob(user.id, { status: "pending", creditsCharged: 0 });
    const detail = await json(await as(`/api/admin/jobs/${id}`));
    expect(detail).toMatchObject({ status: "pending", response: null, completed_at: null, credits_reserved: 60, credits_charged: 0 });
    await expectError(await as(`/api/admin/jobs/${MISSING}`), 404, "not_found");
    await expectError(await as("/api/admin/jobs/123"), 400, "invalid_request");
  });
});

describe("POST /api/admin/jobs/{id}/refund", () => {
  it("adds a refund ledger entry (related_id = job id) to the job's owner, up to what was charged", async () => {
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    expect(await expectLedgerConsistent(user.id)).toBe(440);

    const first = await refund(job, { credits: 25, note: "thin sources" });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("");
    expect(await refundsOf(job)).toEqual([{ delta: 25, user_id: user.id, note: "thin sources" }]);
    expect(await expectLedgerConsistent(user.id)).toBe(465);

    const tooMuch = await expectError(await refund(job, { credits: 36, note: "more" }), 400, "invalid_request");
    expect(tooMuch.error.message).toContain("At most 35 credits");
    expect(await refundsOf(job)).toHaveLength(1);

    expect((await refund(job, { credits: 35, note: "rest" })).status).toBe(200);
    await expectError(await refund(job, { credits: 1, note: "nothing left" }), 400, "invalid_request");
    expect(await expectLedgerConsistent(user.id)).toBe(500);

    const audit = await auditOf(job);
    expect(audit.map((a) => a.action)).toEqual(["job.refund", "job.refund"]);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ user_id: user.id, credits: 35, note: "rest", balance_after: 500 });
    expect(audit[0]!.admin_id).toBe(admin.id);
  });

  it.each([
    ["zero credits", { credits: 0, note: "n" }],
    ["negative credits", { credits: -5, note: "n" }],
    ["fractional credits", { credits: 2.5, note: "n" }],
    ["a missing note", { credits: 5 }],
    ["an empty note", { credits: 5, note: "" }],
    ["an unknown field", { credits: 5, note: "n", user_id: "x" }],
  ])("answers 400 for %s and writes nothing", async (_name, body) => {
    const user = await signupUser();
    const job = await insertJob(user.id);
    await expectError(await refund(job, body), 400, "invalid_request");
    expect(await refundsOf(job)).toHaveLength(0);
    expect(await auditOf(job)).toHaveLength(0);
  });

  it("refuses jobs that charged nothing or are not finished, and answers 404 for an unknown job", async () => {
    const user = await signupUser();
    const failed = await insertJob(user.id, { status: "failed" });
    await expectError(await refund(failed, { credits: 1, note: "n" }), 400, "invalid_request");
    const running = await insertJob(user.id, { status: "running" });
    const body = await expectError(await refund(running, { credits: 1, note: "n" }), 400, "invalid_request");
    expect(body.error.message).toMatch(/finished/);
    await expectError(await refund(MISSING, { credits: 1, note: "n" }), 404, "not_found");
    expect(await expectLedgerConsistent(user.id)).toBe(500);
  });

  it("concurrent refunds never add up to more than the charge", async () => {
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    // 10 × 10 credits against a 60-credit charge, all at once: exactly 6 succeed.
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => refund(job, { credits: 10, note: `race ${i}` })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
    for (const r of responses.filter((r) => r.status === 400)) await expectError(r, 400, "invalid_request");
    const refunds = await refundsOf(job);
    expect(refunds.reduce((sum, r) => sum + r.delta, 0)).toBe(60);
    expect(await expectLedgerConsistent(user.id)).toBe(500);
    expect(await auditOf(job)).toHaveLength(6);
  });

  it("concurrent refunds of uneven sizes stay within the charge", async () => {
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    const sizes = [25, 25, 25, 7, 7, 7, 30];
    await Promise.all(sizes.map((credits) => refund(job, { credits, note: "uneven" })));
    const total = (await refundsOf(job)).reduce((sum, r) => sum + r.delta, 0);
    expect(total).toBeLessThanOrEqual(60);
    expect(total).toBeGreaterThan(0);
    expect(await expectLedgerConsistent(user.id)).toBe(440 + total);
  });

  it("is enforced by the database, not only by the route's pre-check (the ledger_refund_within_charge trigger)", async () => {
    // Straight to the ledger, past every check in the service: the insert is still refused and
    // the whole batch (entry and balance) rolls back. This is what makes the concurrent case safe.
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    const db = createDb(env.DB);
    expect((await applyLedgerChange(db, user.id, { kind: "refund", delta: 50, relatedId: job })).status).toBe("applied");
    await expect(applyLedgerChange(db, user.id, { kind: "refund", delta: 11, relatedId: job })).rejects.toThrow(/refund_exceeds_charge/);
    expect((await applyLedgerChange(db, user.id, { kind: "refund", delta: 10, relatedId: job })).status).toBe("applied");
    expect(await expectLedgerConsistent(user.id)).toBe(500);
  });

  it("with idempotency_key a resubmit (also concurrent, also at the limit) refunds once", async () => {
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    const body = { credits: 60, note: "full refund", idempotency_key: "case-7" };
    const responses = await Promise.all(Array.from({ length: 5 }, () => refund(job, body)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await refundsOf(job)).toHaveLength(1);
    // At the limit now; the resubmit is still a duplicate, not "too much".
    expect((await refund(job, body)).status).toBe(200);
    await expectError(await refund(job, { ...body, credits: 30 }), 422, "idempotency_key_reused");
    await expectError(await refund(job, { ...body, idempotency_key: "case-8" }), 400, "invalid_request");
    expect(await expectLedgerConsistent(user.id)).toBe(500);
    expect(await auditOf(job)).toHaveLength(1);
  });

  it("keeps the ledger invariant across adjustments and refunds together", async () => {
    const user = await signupUser();
    const job = await insertJob(user.id, { creditsCharged: 60 });
    await Promise.all([
      refund(job, { credits: 20, note: "a" }),
      as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: -300, note: "b" } }),
      refund(job, { credits: 20, note: "c" }),
      as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: 1000, note: "d" } }),
    ]);
    expect(await expectLedgerConsistent(user.id)).toBe(440 + 40 - 300 + 1000);
  });
});
