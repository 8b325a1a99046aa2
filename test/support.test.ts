import { describe, expect, it } from "vitest";
import { adminUser, call, dbAll, dbFirst, expectError, followPages, json, latestEmail, nextPage, signupUser, suspendUser } from "./helpers";

const ticket = { category: "billing", subject: "Charged twice", body: "My card shows two charges for the Starter pack." };

describe("POST /api/support", () => {
  it("stores the ticket as open and emails the user a confirmation", async () => {
    const user = await signupUser();
    const response = await call("/api/support", { token: user.accessToken, body: ticket });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");

    const row = await dbFirst<Record<string, unknown>>("select * from tickets where user_id = ?", user.id);
    expect(row).toMatchObject({ email: user.email.toLowerCase(), category: "billing", subject: "Charged twice", body: ticket.body, status: "open" });
    const mail = await latestEmail(user.email, "We received your request");
    expect(mail?.subject).toBe("We received your request: Charged twice");
    expect(mail?.text).toContain(String(row!.id));
    expect(mail?.text).toContain(ticket.body);
  });

  it("accepts every category and trims fields", async () => {
    const user = await signupUser();
    for (const category of ["billing", "technical", "account", "feature_request", "other"]) {
      const response = await call("/api/support", { token: user.accessToken, body: { category, subject: `  ${category} question  `, body: "  details  " } });
      expect(response.status).toBe(200);
    }
    const rows = await dbAll<{ subject: string; body: string }>("select subject, body from tickets where user_id = ?", user.id);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => !r.subject.startsWith(" ") && r.body === "details")).toBe(true);
  });

  it.each([
    ["an unknown category", { ...ticket, category: "refund" }],
    ["a missing category", { subject: ticket.subject, body: ticket.body }],
    ["an empty subject", { ...ticket, subject: "" }],
    ["a whitespace subject", { ...ticket, subject: "   \t " }],
    ["a whitespace body", { ...ticket, body: " \n " }],
    ["a subject over 200 characters", { ...ticket, subject: "x".repeat(201) }],
    ["a body over 10,000 characters", { ...ticket, body: "x".repeat(10_001) }],
    ["a multi-line subject", { ...ticket, subject: "one\ntwo" }],
    ["a non-string body", { ...ticket, body: 42 }],
    ["an unknown field", { ...ticket, priority: "urgent" }],
  ])("answers 400 invalid_request for %s and writes nothing", async (_name, body) => {
    const user = await signupUser();
    await expectError(await call("/api/support", { token: user.accessToken, body }), 400, "invalid_request");
    expect(await dbAll("select id from tickets where user_id = ?", user.id)).toHaveLength(0);
    expect(await dbAll("select id from outbox_emails where \"to\" = ? and subject like 'We received%'", user.email.toLowerCase())).toHaveLength(0);
  });

  it("accepts the limits exactly (200 / 10,000 characters)", async () => {
    const user = await signupUser();
    const response = await call("/api/support", { token: user.accessToken, body: { category: "other", subject: "s".repeat(200), body: "b".repeat(10_000) } });
    expect(response.status).toBe(200);
  });

  it("answers 400 for malformed JSON", async () => {
    const user = await signupUser();
    await expectError(
      await call("/api/support", { token: user.accessToken, method: "POST", rawBody: "{", headers: { "Content-Type": "application/json" } }),
      400,
      "invalid_request",
    );
  });

  it("needs a JWT (401) and refuses a suspended user (403)", async () => {
    await expectError(await call("/api/support", { body: ticket }), 401, "unauthorized");
    await expectError(await call("/api/support"), 401, "unauthorized");
    const user = await signupUser();
    await suspendUser(user.id);
    await expectError(await call("/api/support", { token: user.accessToken, body: ticket }), 403, "account_suspended");
  });
});

describe("GET /api/support", () => {
  it("lists only the caller's own tickets, newest first, with their replies", async () => {
    const alice = await signupUser();
    const bob = await signupUser();
    for (const subject of ["first", "second"]) {
      expect((await call("/api/support", { token: alice.accessToken, body: { ...ticket, subject } })).status).toBe(200);
    }
    expect((await call("/api/support", { token: bob.accessToken, body: { ...ticket, subject: "bob's" } })).status).toBe(200);

    // An admin answers Alice's first ticket.
    const first = await dbFirst<{ id: string }>("select id from tickets where user_id = ? and subject = 'first'", alice.id);
    const admin = await adminUser();
    expect(
      (await call(`/api/admin/tickets/${first!.id}/reply`, { token: admin.accessToken, body: { body: "Refunded the duplicate.", send_email: false } })).status,
    ).toBe(200);

    const list = await json<any[]>(await call("/api/support", { token: alice.accessToken }));
    expect(list.map((t) => t.subject)).toEqual(["second", "first"]);
    expect(list[1]).toMatchObject({ id: first!.id, category: "billing", status: "answered", body: ticket.body });
    expect(list[1].replies).toEqual([{ id: expect.any(String), body: "Refunded the duplicate.", created_at: expect.any(String) }]);
    expect(list[0].replies).toEqual([]);

    const bobs = await json<any[]>(await call("/api/support", { token: bob.accessToken }));
    expect(bobs.map((t) => t.subject)).toEqual(["bob's"]);
    expect(JSON.stringify(bobs)).not.toContain(first!.id);
  });

  it("pages with limit and offset and rejects bad paging", async () => {
    const user = await signupUser();
    for (const subject of ["a", "b", "c"]) await call("/api/support", { token: user.accessToken, body: { ...ticket, subject } });
    const page = await json<any[]>(await call("/api/support?limit=2&offset=1", { token: user.accessToken }));
    expect(page.map((t) => t.subject)).toEqual(["b", "a"]);
    // The body stays a bare array; the Link header points at the next page, and only while one exists.
    const first = await call("/api/support?limit=2", { token: user.accessToken });
    expect(nextPage(first)).toBe("/api/support?limit=2&offset=2");
    expect(nextPage(await call("/api/support?limit=2&offset=1", { token: user.accessToken }))).toBeNull();
    expect((await followPages("/api/support?limit=1", { token: user.accessToken })).map((t) => t.subject)).toEqual(["c", "b", "a"]);
    await expectError(await call("/api/support?limit=0", { token: user.accessToken }), 400, "invalid_request");
    await expectError(await call("/api/support?offset=-1", { token: user.accessToken }), 400, "invalid_request");
  });
});
