import { beforeAll, describe, expect, it } from "vitest";
import { adminUser, auditOf, call, dbFirst, dbRun, expectError, expectLedgerConsistent, json, postSignedWebhook, signupUser, type TestUser } from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const as = (path: string, options: Parameters<typeof call>[1] = {}) => call(path, { token: admin.accessToken, ...options });
const replay = (id: string) => as(`/api/admin/processor-events/${encodeURIComponent(id)}/replay`, { method: "POST" });
const unique = (prefix: string) => `${prefix}_test${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/** A pending pack purchase and the processor's checkout.session.completed event for it (Stripe's shapes). */
async function paidCheckout(user: TestUser) {
  const paymentId = crypto.randomUUID();
  const sessionId = unique("cs");
  await dbRun(
    "insert into payments (id, user_id, kind, status, pack_id, pack_credits, pack_amount_cents, processor_session_id, created_at) values (?, ?, 'pack', 'pending', 'starter', 500, 500, ?, ?)",
    paymentId,
    user.id,
    sessionId,
    new Date().toISOString(),
  );
  const event = {
    id: unique("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type: "checkout.session.completed",
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: sessionId,
        object: "checkout.session",
        amount_total: 500,
        currency: "usd",
        customer: unique("cus"),
        client_reference_id: user.id,
        metadata: { payment_id: paymentId, user_id: user.id, pack_id: "starter" },
        mode: "payment",
        payment_intent: unique("pi"),
        payment_status: "paid",
        status: "complete",
      },
    },
  };
  return { event, paymentId };
}

const balance = async (userId: string) => (await dbFirst<{ credits: number }>("select credits from users where id = ?", userId))!.credits;

describe("GET /api/admin/processor-events", () => {
  it("lists stored events newest first with has_body, paged", async () => {
    const user = await signupUser();
    const { event } = await paidCheckout(user);
    expect((await postSignedWebhook(event)).status).toBe(200);
    const bodiless = unique("evt");
    await dbRun(
      "insert into processor_events (id, type, received_at, body) values (?, 'invoice.paid', ?, null)",
      bodiless,
      new Date(Date.now() + 1000).toISOString(),
    );

    const rows = await json<any[]>(await as("/api/admin/processor-events"));
    expect(rows[0]).toEqual({
      id: bodiless,
      event_type: "invoice.paid",
      received_at: expect.any(String),
      has_body: false,
      status: "received",
      error: null,
      attempts: 0,
    });
    expect(rows[1]).toEqual({
      id: event.id,
      event_type: "checkout.session.completed",
      received_at: expect.any(String),
      has_body: true,
      status: "processed",
      error: null,
      attempts: 1,
    });
    expect((await json<any[]>(await as("/api/admin/processor-events?limit=1&offset=1"))).map((r) => r.id)).toEqual([event.id]);
    await expectError(await as("/api/admin/processor-events?limit=101"), 400, "invalid_request");
  });
});

describe("POST /api/admin/processor-events/{id}/replay", () => {
  it("re-applies through the idempotent handler: a replay never credits twice", async () => {
    const user = await signupUser();
    const { event, paymentId } = await paidCheckout(user);
    expect((await postSignedWebhook(event)).status).toBe(200);
    expect(await balance(user.id)).toBe(1000);
    const attempts = (await dbFirst<{ attempts: number }>("select attempts from processor_events where id = ?", event.id))!.attempts;

    const responses = await Promise.all([replay(event.id), replay(event.id)]);
    for (const r of responses) {
      expect(r.status).toBe(200);
      expect(await r.text()).toBe("");
    }
    expect(await balance(user.id)).toBe(1000);
    expect(await expectLedgerConsistent(user.id)).toBe(1000);
    expect((await dbFirst<{ n: number }>("select count(*) as n from ledger_entries where related_id = ? and kind = 'purchase'", paymentId))!.n).toBe(1);
    expect(await dbFirst<{ attempts: number; status: string }>("select attempts, status from processor_events where id = ?", event.id)).toEqual({
      attempts: attempts + 2,
      status: "processed",
    });
    const audit = await auditOf(event.id);
    expect(audit.map((a) => a.action)).toEqual(["processor_event.replay", "processor_event.replay"]);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ outcome: "processed" });
  });

  it("applies a stored event that was never applied (e.g. it failed before)", async () => {
    const user = await signupUser();
    const { event } = await paidCheckout(user);
    // Stored but not applied, as after a crash between storing and applying.
    await dbRun(
      "insert into processor_events (id, type, received_at, body, status) values (?, ?, ?, ?, 'failed')",
      event.id,
      event.type,
      new Date().toISOString(),
      JSON.stringify(event),
    );
    expect((await replay(event.id)).status).toBe(200);
    expect(await balance(user.id)).toBe(1000);
    expect((await replay(event.id)).status).toBe(200);
    expect(await balance(user.id)).toBe(1000);
  });

  it("answers 404 for an unknown event or one without a stored body", async () => {
    await expectError(await replay(unique("evt")), 404, "not_found");
    const bodiless = unique("evt");
    await dbRun("insert into processor_events (id, type, received_at, body) values (?, 'charge.refunded', ?, null)", bodiless, new Date().toISOString());
    await expectError(await replay(bodiless), 404, "not_found");
    expect(await auditOf(bodiless)).toHaveLength(0);
  });
});
