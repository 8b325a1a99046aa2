import { beforeAll, describe, expect, it } from "vitest";
import { adminUser, call, dbFirst, dbRun, insertJob, json, signupUser, suspendUser, type TestUser } from "../helpers";

let admin: TestUser;
beforeAll(async () => {
  admin = await adminUser();
});

const stats = async () => {
  const response = await call("/api/admin/stats", { token: admin.accessToken });
  expect(response.status).toBe(200);
  return json<any>(response);
};
const DAY = 86_400_000;
const utcMidnight = (msAgo: number) => {
  const d = new Date(Date.now() - msAgo);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())).toISOString();
};
const bucket = (buckets: any[], day: string) => buckets.find((b) => b.day === day);

async function insertPayment(userId: string, fields: { kind: string; status: string; cents: number; completedAt: string | null }) {
  await dbRun(
    "insert into payments (id, user_id, kind, status, pack_id, pack_credits, pack_amount_cents, created_at, completed_at) values (?, ?, ?, ?, 'starter', 500, ?, ?, ?)",
    crypto.randomUUID(),
    userId,
    fields.kind,
    fields.status,
    fields.cents,
    fields.completedAt ?? new Date().toISOString(),
    fields.completedAt,
  );
}

describe("GET /api/admin/stats", () => {
  it("has 30 zero-filled daily UTC buckets ending today", async () => {
    const s = await stats();
    for (const series of [s.signups_last_30d, s.jobs_last_30d]) {
      expect(series).toHaveLength(30);
      expect(series[29].day).toBe(utcMidnight(0));
      expect(series[0].day).toBe(utcMidnight(29 * DAY));
      for (let i = 1; i < 30; i++) expect(Date.parse(series[i].day) - Date.parse(series[i - 1].day)).toBe(DAY);
    }
    expect(s.jobs_last_30d[0]).toEqual({
      day: expect.any(String),
      count: expect.any(Number),
      credits_charged_sum: expect.any(Number),
      cost_usd_micros_sum: expect.any(Number),
    });
    expect(Object.keys(s).sort()).toEqual(
      [
        "in_flight_jobs",
        "jobs_last_30d",
        "ledger_balance_outstanding",
        "open_tickets",
        "signups_last_30d",
        "suspended_users",
        "topup_revenue_last_30d_cents",
        "total_users",
      ].sort(),
    );
  });

  it("counts what was added, each figure from the database", async () => {
    const before = await stats();
    const fiveDaysAgo = utcMidnight(5 * DAY);
    const threeDaysAgo = utcMidnight(3 * DAY);

    const a = await signupUser();
    const b = await signupUser();
    await dbRun("update users set created_at = ? where id = ?", new Date(Date.parse(fiveDaysAgo) + 3_600_000).toISOString(), b.id);
    const old = await signupUser();
    await dbRun("update users set created_at = ? where id = ?", new Date(Date.now() - 45 * DAY).toISOString(), old.id); // outside the window
    await suspendUser(b.id);

    const at3 = new Date(Date.parse(threeDaysAgo) + 7_200_000).toISOString();
    await insertJob(a.id, { createdAt: at3, creditsCharged: 60, costUsdMicros: 200_000 });
    await insertJob(a.id, { createdAt: at3, status: "failed", costUsdMicros: 15_000 });
    await insertJob(a.id, { status: "running" });
    await insertJob(b.id, { status: "pending" });
    await insertJob(b.id, { createdAt: new Date(Date.now() - 40 * DAY).toISOString(), creditsCharged: 15, creditsReserved: 15 }); // outside

    await call("/api/support", { token: a.accessToken, body: { category: "billing", subject: "s1", body: "b" } });
    await call("/api/support", { token: a.accessToken, body: { category: "billing", subject: "s2", body: "b" } });
    await dbRun("update tickets set status = 'closed' where user_id = ? and subject = 's2'", a.id);

    const now = new Date().toISOString();
    await insertPayment(a.id, { kind: "pack", status: "completed", cents: 500, completedAt: now });
    await insertPayment(a.id, { kind: "auto_topup", status: "completed", cents: 2000, completedAt: new Date(Date.now() - 10 * DAY).toISOString() });
    await insertPayment(a.id, { kind: "pack", status: "completed", cents: 9900, completedAt: new Date(Date.now() - 31 * DAY).toISOString() }); // too old
    await insertPayment(a.id, { kind: "pack", status: "pending", cents: 700, completedAt: null });
    await insertPayment(a.id, { kind: "pack", status: "failed", cents: 800, completedAt: null });
    await insertPayment(a.id, { kind: "plan_invoice", status: "completed", cents: 2900, completedAt: now }); // subscription, not a top-up

    const after = await stats();
    expect(after.total_users - before.total_users).toBe(3);
    expect(after.suspended_users - before.suspended_users).toBe(1);
    expect(after.open_tickets - before.open_tickets).toBe(1);
    expect(after.in_flight_jobs - before.in_flight_jobs).toBe(2);
    expect(after.topup_revenue_last_30d_cents - before.topup_revenue_last_30d_cents).toBe(2500);
    // Three signups (+1500), jobs charged 60 and 15.
    expect(after.ledger_balance_outstanding - before.ledger_balance_outstanding).toBe(1500 - 75);

    const diff = (series: string, day: string, field: string) => bucket(after[series], day)[field] - bucket(before[series], day)[field];
    expect(diff("signups_last_30d", utcMidnight(0), "count")).toBe(1);
    expect(diff("signups_last_30d", fiveDaysAgo, "count")).toBe(1);
    expect(diff("jobs_last_30d", threeDaysAgo, "count")).toBe(2);
    expect(diff("jobs_last_30d", threeDaysAgo, "credits_charged_sum")).toBe(60);
    expect(diff("jobs_last_30d", threeDaysAgo, "cost_usd_micros_sum")).toBe(215_000);
    expect(diff("jobs_last_30d", utcMidnight(0), "count")).toBe(2);

    // The absolute figures agree with the tables.
    const truth = await dbFirst<any>(
      `select (select count(*) from users) as total, (select coalesce(sum(credits), 0) from users) as balance,
              (select count(*) from research_jobs where status in ('pending', 'running')) as in_flight,
              (select count(*) from tickets where status != 'closed') as open_tickets`,
    );
    expect(after).toMatchObject({
      total_users: truth.total,
      ledger_balance_outstanding: truth.balance,
      in_flight_jobs: truth.in_flight,
      open_tickets: truth.open_tickets,
    });
  });
});
