import { beforeAll, describe, expect, it } from "vitest";
import {
  adminUser,
  auditOf,
  call,
  createKey,
  dbAll,
  dbFirst,
  dbRun,
  expectError,
  expectLedgerConsistent,
  insertJob,
  json,
  login,
  nextPage,
  signupUser,
  type TestUser,
  UUID_PATTERN,
} from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const as = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { token: admin.accessToken, ...options });
const adjust = (userId: string, body: unknown) => as(`/api/admin/users/${userId}/credits`, { body });
const MISSING = "7f3a9c1e-0000-4000-8000-000000000001";

describe("GET /api/admin/users", () => {
  it("lists users newest first with the AdminUserRow fields", async () => {
    const a = await signupUser();
    const b = await signupUser();
    const rows = await json<any[]>(await as("/api/admin/users?limit=100"));
    const ids = rows.map((r) => r.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(rows.find((r) => r.id === a.id)).toEqual({
      id: a.id,
      email: a.email.toLowerCase(),
      first_name: "Ada",
      last_name: "Lovelace",
      is_admin: false,
      created_at: expect.any(String),
      credits: 500,
      suspended_at: null,
    });
  });

  it("q matches an email substring (case-insensitively) or exactly a full UUID", async () => {
    const user = await signupUser();
    const local = user.email.split("@")[0]!;
    const bySubstring = await json<any[]>(await as(`/api/admin/users?q=${encodeURIComponent(local.slice(5, 20).toUpperCase())}`));
    expect(bySubstring.map((r) => r.id)).toEqual([user.id]);
    const byId = await json<any[]>(await as(`/api/admin/users?q=${user.id}`));
    expect(byId.map((r) => r.id)).toEqual([user.id]);
    // A partial UUID is an email substring, which matches nobody.
    expect(await json(await as(`/api/admin/users?q=${user.id.slice(0, 8)}`))).toEqual([]);
    // LIKE wildcards are not wildcards here.
    expect(await json(await as(`/api/admin/users?q=${encodeURIComponent("%")}`))).toEqual([]);
  });

  it("pages (limit, offset) and rejects bad paging with 400", async () => {
    for (let i = 0; i < 3; i++) await signupUser();
    const all = await json<any[]>(await as("/api/admin/users?limit=3"));
    const second = await json<any[]>(await as("/api/admin/users?limit=2&offset=1"));
    expect(second.map((r) => r.id)).toEqual(all.slice(1, 3).map((r) => r.id));
    expect(nextPage(await as("/api/admin/users?limit=2&offset=1"))).toBe("/api/admin/users?limit=2&offset=3");
    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=abc", "limit=1.5"]) {
      await expectError(await as(`/api/admin/users?${query}`), 400, "invalid_request");
    }
  });
});

describe("GET /api/admin/users/{id}", () => {
  it("shows jobs_count, open_tickets (not closed), processor_customer_id, suspended_at and storage", async () => {
    const user = await signupUser();
    const key = (await json(await call("/api/keys", { token: user.accessToken, body: { name: "k" } }))).plaintext;
    const { id: collectionId } = await json(await call("/v1/collections", { token: key, body: { name: "Notes" } }));
    await call(`/v1/collections/${collectionId}/documents`, {
      token: key,
      body: {
        documents: [
          { title: "One", text: "12345" },
          { title: "Two", text: "1234567890" },
        ],
      },
    });
    await insertJob(user.id);
    await insertJob(user.id, { status: "failed" });
    for (const subject of ["a", "b", "c"]) {
      await call("/api/support", { token: user.accessToken, body: { category: "technical", subject, body: "help" } });
    }
    await dbRun("update tickets set status = 'closed' where user_id = ? and subject = 'c'", user.id);
    await dbRun("update tickets set status = 'answered' where user_id = ? and subject = 'b'", user.id);
    await dbRun("update users set processor_customer_id = 'cus_TEST123' where id = ?", user.id);

    const detail = await json(await as(`/api/admin/users/${user.id}`));
    expect(detail).toEqual({
      id: user.id,
      email: user.email.toLowerCase(),
      first_name: "Ada",
      last_name: "Lovelace",
      email_verified: false,
      marketing_emails_enabled: false,
      is_admin: false,
      created_at: expect.any(String),
      credits: 500 - 60 - 1, // two jobs' charges, one ingest
      jobs_count: 2,
      open_tickets: 2,
      processor_customer_id: "cus_TEST123",
      suspended_at: null,
      storage: { collections: 1, documents: 2, bytes: 15, quota_bytes: 50 * 1024 * 1024 },
    });
  });

  it("answers 404 for an unknown user and 400 for a malformed id", async () => {
    await expectError(await as(`/api/admin/users/${MISSING}`), 404, "not_found");
    await expectError(await as("/api/admin/users/not-a-uuid"), 400, "invalid_request");
  });
});

describe("POST /api/admin/users/{id}/credits", () => {
  it("adds and removes credits as admin_adjustment entries with the note, answering balance_after", async () => {
    const user = await signupUser();
    const up = await adjust(user.id, { delta_credits: 250, note: "goodwill for outage" });
    expect(up.status).toBe(200);
    expect(await json(up)).toEqual({ balance_after: 750 });
    const down = await adjust(user.id, { delta_credits: -700, note: "chargeback" });
    expect(await json(down)).toEqual({ balance_after: 50 });

    const entries = await dbAll<any>(
      "select kind, delta, balance_after, note from ledger_entries where user_id = ? and kind = 'admin_adjustment' order by seq",
      user.id,
    );
    expect(entries).toEqual([
      { kind: "admin_adjustment", delta: 250, balance_after: 750, note: "goodwill for outage" },
      { kind: "admin_adjustment", delta: -700, balance_after: 50, note: "chargeback" },
    ]);
    expect(await expectLedgerConsistent(user.id)).toBe(50);
    const audit = await auditOf(user.id);
    expect(audit.map((a) => a.action)).toEqual(["user.credits_adjust", "user.credits_adjust"]);
    expect(audit[0]!.admin_id).toBe(admin.id);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ delta_credits: -700, note: "chargeback", balance_after: 50 });
  });

  it("never takes a balance below zero: 400 with a clear message, nothing written", async () => {
    const user = await signupUser();
    const body = await expectError(await adjust(user.id, { delta_credits: -501, note: "too much" }), 400, "invalid_request");
    expect(body.error.message).toMatch(/below zero.*500/);
    expect(await dbAll("select 1 from ledger_entries where user_id = ? and kind = 'admin_adjustment'", user.id)).toHaveLength(0);
    expect(await json(await adjust(user.id, { delta_credits: -500, note: "exactly all" }))).toEqual({ balance_after: 0 });
    expect(await expectLedgerConsistent(user.id)).toBe(0);
    expect(await auditOf(user.id)).toHaveLength(1);
  });

  it.each([
    ["zero", { delta_credits: 0, note: "n" }],
    ["a fraction", { delta_credits: 1.5, note: "n" }],
    ["a string", { delta_credits: "10", note: "n" }],
    ["more than 1,000,000", { delta_credits: 1_000_001, note: "n" }],
    ["less than -1,000,000", { delta_credits: -1_000_001, note: "n" }],
    ["a missing note", { delta_credits: 5 }],
    ["an empty note", { delta_credits: 5, note: "  " }],
    ["an unknown field", { delta_credits: 5, note: "n", reason: "x" }],
  ])("answers 400 for %s and writes nothing", async (_name, body) => {
    const user = await signupUser();
    await expectError(await adjust(user.id, body), 400, "invalid_request");
    expect(await dbAll("select 1 from ledger_entries where user_id = ? and kind = 'admin_adjustment'", user.id)).toHaveLength(0);
    expect(await auditOf(user.id)).toHaveLength(0);
  });

  it("accepts exactly ±1,000,000", async () => {
    const user = await signupUser();
    expect(await json(await adjust(user.id, { delta_credits: 1_000_000, note: "max" }))).toEqual({ balance_after: 1_000_500 });
    expect(await json(await adjust(user.id, { delta_credits: -1_000_000, note: "max back" }))).toEqual({ balance_after: 500 });
  });

  it("answers 404 for an unknown user", async () => {
    await expectError(await adjust(MISSING, { delta_credits: 5, note: "n" }), 404, "not_found");
  });

  it("with idempotency_key, a resubmit answers the first balance_after and applies nothing", async () => {
    const user = await signupUser();
    const body = { delta_credits: 100, note: "promo", idempotency_key: "ticket-42" };
    expect(await json(await adjust(user.id, body))).toEqual({ balance_after: 600 });
    // Another change in between: the resubmit still answers the first balance_after.
    expect(await json(await adjust(user.id, { delta_credits: 5, note: "other" }))).toEqual({ balance_after: 605 });
    expect(await json(await adjust(user.id, body))).toEqual({ balance_after: 600 });
    expect(await expectLedgerConsistent(user.id)).toBe(605);
    expect(await dbAll("select 1 from ledger_entries where user_id = ? and note = 'promo'", user.id)).toHaveLength(1);
    expect((await auditOf(user.id)).length).toBe(2);
    // The same key with another body is a mistake, not a resubmit.
    await expectError(await adjust(user.id, { ...body, delta_credits: 200 }), 422, "idempotency_key_reused");
    // Keys are per user: the same key on another user is a new adjustment.
    const other = await signupUser();
    expect(await json(await adjust(other.id, body))).toEqual({ balance_after: 600 });
  });

  it("concurrent resubmits of one body write one ledger entry and all answer the same balance_after", async () => {
    const user = await signupUser();
    const body = { delta_credits: 37, note: "concurrent", idempotency_key: `k-${crypto.randomUUID()}` };
    const responses = await Promise.all(Array.from({ length: 8 }, () => adjust(user.id, body)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const answers = await Promise.all(responses.map((r) => json(r)));
    expect(answers).toEqual(Array(8).fill({ balance_after: 537 }));
    expect(await dbAll("select 1 from ledger_entries where user_id = ? and kind = 'admin_adjustment'", user.id)).toHaveLength(1);
    expect(await expectLedgerConsistent(user.id)).toBe(537);
    expect(await auditOf(user.id)).toHaveLength(1);
  });

  it("concurrent debits without a key never overdraw: the ledger stays consistent", async () => {
    const user = await signupUser();
    const responses = await Promise.all(Array.from({ length: 6 }, () => adjust(user.id, { delta_credits: -200, note: "race" })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400]);
    expect(await expectLedgerConsistent(user.id)).toBe(100);
  });
});

describe("GET /api/admin/users/{id}/jobs and /ledger", () => {
  it("lists the user's jobs newest first as AdminUserJobRow, paged", async () => {
    const user = await signupUser();
    const old = await insertJob(user.id, { createdAt: new Date(Date.now() - 60_000).toISOString(), question: "older" });
    const recent = await insertJob(user.id, { status: "failed", question: "newer" });
    const other = await signupUser();
    await insertJob(other.id);
    const rows = await json<any[]>(await as(`/api/admin/users/${user.id}/jobs`));
    expect(rows.map((r) => r.id)).toEqual([recent, old]);
    expect(rows[1]).toEqual({
      id: old,
      created_at: expect.any(String),
      status: "succeeded",
      question: "older",
      credits_charged: 60,
      cost_usd_micros: 212_000,
      latency_ms: 14_250,
    });
    expect(rows[0]).toMatchObject({ status: "failed", credits_charged: 0 });
    expect((await json<any[]>(await as(`/api/admin/users/${user.id}/jobs?limit=1&offset=1`))).map((r) => r.id)).toEqual([old]);
    await expectError(await as(`/api/admin/users/${MISSING}/jobs`), 404, "not_found");
  });

  it("lists the ledger newest first as AdminLedgerRow, paged", async () => {
    const user = await signupUser();
    await adjust(user.id, { delta_credits: 10, note: "one", idempotency_key: "led-1" });
    const job = await insertJob(user.id, { creditsCharged: 15, creditsReserved: 15, mode: "lite" });
    const rows = await json<any[]>(await as(`/api/admin/users/${user.id}/ledger`));
    expect(rows.map((r) => r.kind)).toEqual(["reservation", "admin_adjustment", "signup_bonus"]);
    expect(rows[0]).toEqual({
      id: expect.stringMatching(UUID_PATTERN),
      created_at: expect.any(String),
      kind: "reservation",
      delta: -15,
      balance_after: 495,
      idempotency_key: `reservation:${job}`,
      note: null,
      related_id: job,
    });
    expect(rows[1]).toMatchObject({ delta: 10, balance_after: 510, note: "one", idempotency_key: "admin_adjustment:led-1" });
    expect((await json<any[]>(await as(`/api/admin/users/${user.id}/ledger?limit=1&offset=2`))).map((r) => r.kind)).toEqual(["signup_bonus"]);
    await expectError(await as(`/api/admin/users/${MISSING}/ledger`), 404, "not_found");
    await expectError(await as(`/api/admin/users/${user.id}/ledger?limit=500`), 400, "invalid_request");
  });
});

describe("POST /api/admin/users/{id}/suspend and /unsuspend", () => {
  it("suspends (login, JWT and API-key calls answer 403 account_suspended) and unsuspends", async () => {
    const user = await signupUser();
    const key = await createKey(user);
    const response = await as(`/api/admin/users/${user.id}/suspend`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    const row = await dbFirst<{ suspended_at: string | null }>("select suspended_at from users where id = ?", user.id);
    expect(row?.suspended_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await json(await as(`/api/admin/users/${user.id}`))).suspended_at).toBe(row!.suspended_at);

    await expectError(await login(user.email, user.password), 403, "account_suspended");
    await expectError(await call("/api/credits/balance", { token: user.accessToken }), 403, "account_suspended");
    await expectError(await call("/v1/credits", { token: key.plaintext }), 403, "account_suspended");

    // Suspending again keeps the first time and writes no second audit entry.
    expect((await as(`/api/admin/users/${user.id}/suspend`, { method: "POST" })).status).toBe(200);
    expect((await dbFirst<{ suspended_at: string }>("select suspended_at from users where id = ?", user.id))?.suspended_at).toBe(row!.suspended_at);

    expect((await as(`/api/admin/users/${user.id}/unsuspend`, { method: "POST" })).status).toBe(200);
    expect((await dbFirst<{ suspended_at: string | null }>("select suspended_at from users where id = ?", user.id))?.suspended_at).toBeNull();
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await call("/api/credits/balance", { token: user.accessToken })).status).toBe(200);
    expect((await call("/v1/credits", { token: key.plaintext })).status).toBe(200);

    expect((await auditOf(user.id)).map((a) => a.action)).toEqual(["user.unsuspend", "user.suspend"]);
  });

  it("answers 404 for an unknown user and refuses to suspend the acting admin", async () => {
    await expectError(await as(`/api/admin/users/${MISSING}/suspend`, { method: "POST" }), 404, "not_found");
    await expectError(await as(`/api/admin/users/${MISSING}/unsuspend`, { method: "POST" }), 404, "not_found");
    await expectError(await as(`/api/admin/users/${admin.id}/suspend`, { method: "POST" }), 400, "invalid_request");
    expect((await dbFirst<{ s: string | null }>("select suspended_at as s from users where id = ?", admin.id))?.s).toBeNull();
  });
});
