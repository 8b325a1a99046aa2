import { beforeAll, describe, expect, it } from "vitest";
import { adminUser, auditOf, call, dbAll, dbFirst, expectError, json, latestEmail, signupUser, type TestUser, UUID_PATTERN } from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const as = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { token: admin.accessToken, ...options });
const MISSING = "7f3a9c1e-0000-4000-8000-000000000003";

async function submit(user: TestUser, fields: Partial<{ category: string; subject: string; body: string }> = {}): Promise<string> {
  const subject = fields.subject ?? `Subject ${crypto.randomUUID()}`;
  const response = await call("/api/support", {
    token: user.accessToken,
    body: { category: "technical", body: "The SSE stream stops after 30 s.", ...fields, subject },
  });
  expect(response.status).toBe(200);
  return (await dbFirst<{ id: string }>("select id from tickets where subject = ?", subject))!.id;
}

describe("GET /api/admin/tickets", () => {
  it("lists tickets newest first with reply_count, filtered by status and category", async () => {
    const user = await signupUser();
    const billing = await submit(user, { category: "billing" });
    const technical = await submit(user, { category: "technical" });
    await as(`/api/admin/tickets/${billing}/reply`, { body: { body: "Looking into it.", send_email: false } });
    await as(`/api/admin/tickets/${billing}/reply`, { body: { body: "Fixed.", send_email: false } });

    const all = await json<any[]>(await as("/api/admin/tickets?limit=100"));
    const ids = all.map((t) => t.id);
    expect(ids.indexOf(technical)).toBeLessThan(ids.indexOf(billing));
    expect(all.find((t) => t.id === billing)).toEqual({
      id: billing,
      user_id: user.id,
      email: user.email.toLowerCase(),
      category: "billing",
      subject: expect.any(String),
      status: "answered",
      created_at: expect.any(String),
      reply_count: 2,
    });
    expect(all.find((t) => t.id === technical)).toMatchObject({ status: "open", reply_count: 0 });

    const answered = await json<any[]>(await as("/api/admin/tickets?status=answered&limit=100"));
    expect(answered.every((t) => t.status === "answered")).toBe(true);
    expect(answered.map((t) => t.id)).toContain(billing);
    expect(answered.map((t) => t.id)).not.toContain(technical);
    const byCategory = await json<any[]>(await as("/api/admin/tickets?category=technical&status=open&limit=100"));
    expect(byCategory.map((t) => t.id)).toContain(technical);
    expect(byCategory.every((t) => t.category === "technical" && t.status === "open")).toBe(true);
    expect((await json<any[]>(await as("/api/admin/tickets?limit=1"))).length).toBe(1);
  });

  it("answers 400 for an unknown status or category", async () => {
    await expectError(await as("/api/admin/tickets?status=pending"), 400, "invalid_request");
    await expectError(await as("/api/admin/tickets?category=refunds"), 400, "invalid_request");
  });
});

describe("GET /api/admin/tickets/{id}", () => {
  it("shows the ticket with its replies, oldest first", async () => {
    const user = await signupUser();
    const id = await submit(user, { category: "account", subject: "Change my email", body: "Please move me to new@example.com." });
    await as(`/api/admin/tickets/${id}/reply`, { body: { body: "First", send_email: false } });
    await as(`/api/admin/tickets/${id}/reply`, { body: { body: "Second", send_email: true } });
    const detail = await json(await as(`/api/admin/tickets/${id}`));
    expect(detail).toEqual({
      id,
      user_id: user.id,
      email: user.email.toLowerCase(),
      category: "account",
      subject: "Change my email",
      body: "Please move me to new@example.com.",
      status: "answered",
      assigned_admin_id: admin.id,
      created_at: expect.any(String),
      replies: [
        { id: expect.stringMatching(UUID_PATTERN), admin_id: admin.id, body: "First", sent_email: false, created_at: expect.any(String) },
        { id: expect.stringMatching(UUID_PATTERN), admin_id: admin.id, body: "Second", sent_email: true, created_at: expect.any(String) },
      ],
    });
  });

  it("answers 404 for an unknown ticket and 400 for a malformed id", async () => {
    await expectError(await as(`/api/admin/tickets/${MISSING}`), 404, "not_found");
    await expectError(await as("/api/admin/tickets/abc"), 400, "invalid_request");
  });
});

describe("POST /api/admin/tickets/{id}/reply", () => {
  it("with send_email, emails the reply to the ticket's address and records sent_email", async () => {
    const user = await signupUser();
    const id = await submit(user, { subject: "Webhook retries" });
    const response = await as(`/api/admin/tickets/${id}/reply`, { body: { body: "Retries run for an hour with backoff.", send_email: true } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    const mail = await latestEmail(user.email, "Re: Webhook retries");
    expect(mail?.subject).toBe("Re: Webhook retries");
    expect(mail?.text).toContain("Retries run for an hour with backoff.");
    expect(mail?.text).toContain(id);
    expect(await dbAll("select sent_email from ticket_replies where ticket_id = ?", id)).toEqual([{ sent_email: 1 }]);
    expect((await dbFirst<{ status: string }>("select status from tickets where id = ?", id))?.status).toBe("answered");
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(["ticket.reply"]);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ send_email: true, previous_status: "open" });
  });

  it("without send_email, sends nothing", async () => {
    const user = await signupUser();
    const id = await submit(user, { subject: "Quiet reply" });
    expect((await as(`/api/admin/tickets/${id}/reply`, { body: { body: "Internal answer", send_email: false } })).status).toBe(200);
    expect(await dbAll("select 1 from outbox_emails where subject = 'Re: Quiet reply'")).toHaveLength(0);
    expect(await dbAll("select sent_email from ticket_replies where ticket_id = ?", id)).toEqual([{ sent_email: 0 }]);
  });

  it.each([
    ["an empty body", { body: "", send_email: false }],
    ["a whitespace body", { body: "  \n ", send_email: true }],
    ["a missing send_email", { body: "hi" }],
    ["a non-boolean send_email", { body: "hi", send_email: "yes" }],
  ])("answers 400 for %s and writes nothing", async (_name, body) => {
    const user = await signupUser();
    const id = await submit(user);
    await expectError(await as(`/api/admin/tickets/${id}/reply`, { body }), 400, "invalid_request");
    expect(await dbAll("select 1 from ticket_replies where ticket_id = ?", id)).toHaveLength(0);
    expect((await dbFirst<{ status: string }>("select status from tickets where id = ?", id))?.status).toBe("open");
    expect(await auditOf(id)).toHaveLength(0);
  });

  it("answers 404 for an unknown ticket", async () => {
    await expectError(await as(`/api/admin/tickets/${MISSING}/reply`, { body: { body: "hi", send_email: true } }), 404, "not_found");
  });
});

describe("POST /api/admin/tickets/{id}/close and /reopen", () => {
  it("close sets closed, reopen sets open; both are audited", async () => {
    const user = await signupUser();
    const id = await submit(user);
    const status = async () => (await dbFirst<{ status: string }>("select status from tickets where id = ?", id))?.status;
    const close = await as(`/api/admin/tickets/${id}/close`, { method: "POST" });
    expect(close.status).toBe(200);
    expect(await close.text()).toBe("");
    expect(await status()).toBe("closed");
    // The user sees it too.
    expect((await json<any[]>(await call("/api/support", { token: user.accessToken })))[0].status).toBe("closed");
    expect((await as(`/api/admin/tickets/${id}/reopen`, { method: "POST" })).status).toBe(200);
    expect(await status()).toBe("open");
    // Closing twice is fine and audited once.
    await as(`/api/admin/tickets/${id}/close`, { method: "POST" });
    await as(`/api/admin/tickets/${id}/close`, { method: "POST" });
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["ticket.close", "ticket.reopen", "ticket.close"]);
  });

  it("answers 404 for an unknown ticket", async () => {
    await expectError(await as(`/api/admin/tickets/${MISSING}/close`, { method: "POST" }), 404, "not_found");
    await expectError(await as(`/api/admin/tickets/${MISSING}/reopen`, { method: "POST" }), 404, "not_found");
  });
});
