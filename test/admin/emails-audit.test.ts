import { beforeAll, describe, expect, it } from "vitest";
import { adminUser, call, dbRun, expectError, json, signupUser, type TestUser } from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const as = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { token: admin.accessToken, ...options });

describe("GET /api/admin/emails", () => {
  it("lists the outbox newest first (id, to, subject, text, created_at, delivery), filtered by to, paged", async () => {
    const user = await signupUser(); // sends the verification email
    await call("/api/support", { token: user.accessToken, body: { category: "other", subject: "Hello", body: "Just saying hi." } });
    const rows = await json<any[]>(await as(`/api/admin/emails?to=${encodeURIComponent(user.email.toUpperCase())}`));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      to: user.email.toLowerCase(),
      subject: "We received your request: Hello",
      text: expect.stringContaining("Just saying hi."),
      created_at: expect.any(String),
      // No provider in the tests: recorded only, never attempted.
      delivery_status: "outbox",
      delivery_error: null,
      attempts: 0,
      next_attempt_at: null,
    });
    expect(rows[1].subject).toMatch(/verify|confirm/i);
    const page = await json<any[]>(await as(`/api/admin/emails?to=${encodeURIComponent(user.email)}&limit=1&offset=1`));
    expect(page.map((r) => r.id)).toEqual([rows[1].id]);
    const everyone = await json<any[]>(await as("/api/admin/emails?limit=100"));
    expect(everyone.length).toBeGreaterThanOrEqual(2);
    expect(await json(await as("/api/admin/emails?to=nobody%40example.com"))).toEqual([]);
    await expectError(await as("/api/admin/emails?offset=x"), 400, "invalid_request");
  });
});

describe("GET /api/admin/audit", () => {
  it("lists every kind of admin mutation, newest first, with admin, action, target, details and time", async () => {
    const user = await signupUser();
    await as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: 5, note: "audit me" } });
    await as(`/api/admin/users/${user.id}/suspend`, { method: "POST" });
    await as(`/api/admin/users/${user.id}/unsuspend`, { method: "POST" });
    await as("/api/admin/corpus", { body: { documents: [{ url: "https://audit.example.org/a", title: "A", text: "Audited corpus text." }] } });
    await as("/api/admin/corpus?domain=audit.example.org", { method: "DELETE" });

    const rows = await json<any[]>(await as("/api/admin/audit?limit=5"));
    expect(rows.map((r) => r.action)).toEqual(["corpus.delete_domain", "corpus.ingest", "user.unsuspend", "user.suspend", "user.credits_adjust"]);
    expect(rows[4]).toEqual({
      id: expect.any(String),
      admin_id: admin.id,
      admin_email: admin.email,
      action: "user.credits_adjust",
      target_type: "user",
      target_id: user.id,
      details: expect.objectContaining({ delta_credits: 5, note: "audit me", balance_after: 505 }),
      created_at: expect.any(String),
    });
    expect(rows[0]).toMatchObject({ target_type: "corpus", target_id: "audit.example.org", details: { deleted: 1 } });
    expect(rows[1]).toMatchObject({ target_type: "corpus", details: { ingested: 1, urls: ["https://audit.example.org/a"] } });

    const forUser = await json<any[]>(await as(`/api/admin/audit?target_type=user&target_id=${user.id}`));
    expect(forUser.map((r) => r.action)).toEqual(["user.unsuspend", "user.suspend", "user.credits_adjust"]);
    expect((await json<any[]>(await as("/api/admin/audit?limit=1&offset=1"))).map((r) => r.action)).toEqual(["corpus.ingest"]);
    await expectError(await as("/api/admin/audit?limit=0"), 400, "invalid_request");
  });

  it("writes a row only with a mutation that changed something (same batch): repeats and resubmits add none", async () => {
    const user = await signupUser();
    const audit = async () => (await json<any[]>(await as(`/api/admin/audit?target_id=${user.id}`))).map((r) => [r.action, r.details?.balance_after ?? null]);
    for (let i = 0; i < 2; i++) {
      expect((await as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: 7, note: "once", idempotency_key: "k1" } })).status).toBe(200);
      expect((await as(`/api/admin/users/${user.id}/suspend`, { method: "POST" })).status).toBe(200);
    }
    expect(await audit()).toEqual([
      ["user.suspend", null],
      ["user.credits_adjust", 507],
    ]);
    // A debit the ledger refuses (below zero) is a 400, and leaves no row either.
    await expectError(await as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: -10_000, note: "too much" } }), 400, "invalid_request");
    expect(await audit()).toHaveLength(2);
  });

  it("a mutation whose audit row cannot be written does not happen (one transaction)", async () => {
    const user = await signupUser();
    const trigger = `audit_down_${user.id.replaceAll("-", "_")}`;
    await dbRun(`create trigger ${trigger} before insert on audit_log when new.target_id = '${user.id}' begin select raise(abort, 'audit down'); end`);
    try {
      expect((await as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: 9, note: "lost?" } })).status).toBe(500);
      expect((await as(`/api/admin/users/${user.id}/suspend`, { method: "POST" })).status).toBe(500);
    } finally {
      await dbRun(`drop trigger ${trigger}`);
    }
    const detail = await json(await as(`/api/admin/users/${user.id}`));
    expect(detail).toMatchObject({ credits: 500, suspended_at: null });
    expect(await json(await as(`/api/admin/users/${user.id}/ledger`))).toHaveLength(1); // the signup bonus only
  });

  it("records nothing for a request that failed validation", async () => {
    const user = await signupUser();
    await dbRun("delete from audit_log where target_id = ?", user.id);
    await as(`/api/admin/users/${user.id}/credits`, { body: { delta_credits: 0, note: "zero" } });
    expect(await json(await as(`/api/admin/audit?target_id=${user.id}`))).toEqual([]);
  });
});
