/**
 * Overage that failed to reach Stripe's billing meter is sent again by the cron sweep, with the same
 * `identifier`, within Stripe's window for meter events (issue 41, item 7). The window, from
 * https://docs.stripe.com/api/billing/meter-event/create (and the installed SDK's
 * MeterEventCreateParams): `identifier` unique "within a rolling period of at least 24 hours";
 * `timestamp` "within the past 35 calendar days".
 */
import { env } from "cloudflare:workers";
import { http } from "msw";
import { describe, expect, it } from "vitest";
import { DAY, HOUR, MINUTE } from "../../src/lib/time";
import { sweepOverageReports } from "../../src/services/billing/overage-reports";
import { reserveCredits } from "../../src/services/billing/reservations";
import { STRIPE_API_VERSION } from "../../src/services/billing/stripe-version";
import { adminUser, call, expectLedgerConsistent, json, signupUser, type TestUser } from "../helpers";
import { billingDeps, collector, requestsTo, rid, STRIPE, server, stripeError, subscribeUser, useFakeProcessor } from "./helpers";

useFakeProcessor();

const meterEvents = () => requestsTo("POST", "/v1/billing/meter_events");
const reportOf = async (userId: string) => (await env.DB.prepare("select * from overage_reports where user_id = ?").bind(userId).first<Record<string, any>>())!;
const age = (id: string, ms: number) =>
  env.DB.prepare("update overage_reports set created_at = ? where id = ?")
    .bind(new Date(Date.now() - ms).toISOString(), id)
    .run();

/** A paid-plan user whose overage report failed: Stripe answered `status` to the first send. */
async function failedReport(status: 400 | 500) {
  const user = await signupUser();
  await subscribeUser(user, "developer");
  const refusedIdentifiers: (string | null)[] = [];
  server.use(
    http.post(`${STRIPE}/v1/billing/meter_events`, async ({ request }) => {
      refusedIdentifiers.push(new URLSearchParams(await request.text()).get("identifier"));
      return status === 400
        ? stripeError(400, "invalid_request_error", "resource_missing", "No active meter found for event_name")
        : stripeError(500, "api_error", "internal", "An unknown error occurred");
    }),
  );
  const background = collector();
  const outcome = await reserveCredits(billingDeps(), user.id, 800, rid("job"), background.defer);
  await background.settle();
  expect(outcome).toMatchObject({ status: "reserved", overageCredits: 300 });
  server.resetHandlers();
  const report = await reportOf(user.id);
  expect(report).toMatchObject({ status: "failed", attempts: 1, in_doubt: status === 500 ? 1 : 0 });
  return { user, report, refusedIdentifiers };
}

/** Runs the sweep at `now` and returns the meter requests made for this report. */
async function sweepFor(reportId: string, now: number) {
  const before = meterEvents().length;
  const headers: (string | null)[] = [];
  server.use(
    http.post(`${STRIPE}/v1/billing/meter_events`, ({ request }) => {
      headers.push(request.headers.get("Stripe-Version"));
      return undefined; // falls through to the recording default handler
    }),
  );
  await sweepOverageReports(billingDeps(), now);
  const sent = meterEvents()
    .slice(before)
    .filter((r) => r.params.get("identifier") === reportId);
  return { sent, headers };
}

describe("overage report retries", () => {
  it("the sweep sends a failed report again with the same identifier, and it is marked reported", async () => {
    const { user, report, refusedIdentifiers } = await failedReport(500);
    // The failed send (and the SDK's own retries of it) used the report id as identifier.
    expect(new Set(refusedIdentifiers)).toEqual(new Set([report.id]));

    // Not due yet: the next attempt is a minute after the failure.
    expect((await sweepFor(report.id, Date.now())).sent).toHaveLength(0);

    const { sent, headers } = await sweepFor(report.id, Date.now() + 2 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params.get("identifier")).toBe(report.id);
    expect(sent[0]!.params.get("payload[value]")).toBe("300");
    // Dated when the overage happened (within its period), not when the retry ran.
    expect(Number(sent[0]!.params.get("timestamp"))).toBe(Math.floor(Date.parse(report.created_at) / 1000));
    expect(headers.at(-1)).toBe(STRIPE_API_VERSION);
    expect(await reportOf(user.id)).toMatchObject({ status: "reported", attempts: 2, error: null, next_attempt_at: null });

    // Reported: later sweeps leave it alone.
    expect((await sweepFor(report.id, Date.now() + HOUR)).sent).toHaveLength(0);
    await expectLedgerConsistent(user.id);
  });

  it("a retry that fails again is scheduled later (backoff), then sent", async () => {
    const { user, report } = await failedReport(400);
    server.use(http.post(`${STRIPE}/v1/billing/meter_events`, () => stripeError(429, "rate_limit_error", "rate_limit", "Too many requests")));
    await sweepOverageReports(billingDeps(), Date.now() + 2 * MINUTE);
    server.resetHandlers();
    const again = await reportOf(user.id);
    expect(again).toMatchObject({ status: "failed", attempts: 2, in_doubt: 0 });
    expect(Date.parse(again.next_attempt_at) - Date.now()).toBeGreaterThan(6 * MINUTE); // 2 minutes ahead + 5 minutes
    expect((await sweepFor(report.id, Date.now() + 3 * MINUTE)).sent).toHaveLength(0);
    expect((await sweepFor(report.id, Date.now() + 8 * MINUTE)).sent).toHaveLength(1);
    expect(await reportOf(user.id)).toMatchObject({ status: "reported", attempts: 3 });
    await expectLedgerConsistent(user.id);
  });

  it("gives up a report older than Stripe's 35-day window, without sending it", async () => {
    const { user, report } = await failedReport(400);
    await age(report.id, 35 * DAY + MINUTE);
    const { sent } = await sweepFor(report.id, Date.now() + 2 * MINUTE);
    expect(sent).toHaveLength(0);
    const given = await reportOf(user.id);
    expect(given).toMatchObject({ status: "abandoned", next_attempt_at: null });
    expect(given.error).toContain("35-day window");
    // The overage stays granted and in the ledger: only its billing was lost, and the admin sees it.
    await expectLedgerConsistent(user.id);
  });

  it("past 24 hours, retries a report Stripe refused but gives up one that may have reached it", async () => {
    const refused = await failedReport(400);
    await age(refused.report.id, 2 * DAY);
    expect((await sweepFor(refused.report.id, Date.now() + 2 * MINUTE)).sent).toHaveLength(1);
    expect(await reportOf(refused.user.id)).toMatchObject({ status: "reported" });

    const inDoubt = await failedReport(500);
    await age(inDoubt.report.id, 25 * HOUR);
    expect((await sweepFor(inDoubt.report.id, Date.now() + 2 * MINUTE)).sent).toHaveLength(0);
    const given = await reportOf(inDoubt.user.id);
    expect(given).toMatchObject({ status: "abandoned" });
    expect(given.error).toContain(`identifier ${inDoubt.report.id}`);
    await expectLedgerConsistent(refused.user.id);
    await expectLedgerConsistent(inDoubt.user.id);
  });

  it("admins see the reports not yet billed: GET /api/admin/overage-reports", async () => {
    const admin: TestUser = await adminUser();
    const { user, report } = await failedReport(400);
    const rows = await json<any[]>(await call("/api/admin/overage-reports?limit=100", { token: admin.accessToken }));
    expect(rows.find((r) => r.id === report.id)).toEqual({
      id: report.id,
      user_id: user.id,
      user_email: user.email,
      credits: 300,
      status: "failed",
      attempts: 1,
      in_doubt: false,
      error: expect.stringContaining("No active meter"),
      created_at: report.created_at,
      next_attempt_at: expect.any(String),
      reported_at: null,
    });
    await sweepOverageReports(billingDeps(), Date.now() + 2 * MINUTE);
    const unbilled = await json<any[]>(await call("/api/admin/overage-reports?limit=100", { token: admin.accessToken }));
    expect(unbilled.some((r) => r.id === report.id)).toBe(false);
    const reported = await json<any[]>(await call("/api/admin/overage-reports?status=reported&limit=100", { token: admin.accessToken }));
    expect(reported.find((r) => r.id === report.id)).toMatchObject({ status: "reported", attempts: 2 });
    const other = await call("/api/admin/overage-reports?status=lost", { token: admin.accessToken });
    expect(other.status).toBe(400);
  });

  it("a report with no Stripe customer to bill is skipped, says why to the admin, and the sweep never sends it", async () => {
    const admin: TestUser = await adminUser();
    const user = await signupUser();
    await subscribeUser(user, "developer");
    await env.DB.prepare("update users set processor_customer_id = null where id = ?").bind(user.id).run();
    const background = collector();
    expect(await reserveCredits(billingDeps(), user.id, 800, rid("job"), background.defer)).toMatchObject({ status: "reserved", overageCredits: 300 });
    await background.settle();
    const report = await reportOf(user.id);
    expect(report).toMatchObject({ status: "skipped", attempts: 0, next_attempt_at: null });
    expect(meterEvents()).toHaveLength(0);

    const rows = await json<any[]>(await call("/api/admin/overage-reports?status=skipped&limit=100", { token: admin.accessToken }));
    expect(rows.find((r) => r.id === report.id)).toMatchObject({
      status: "skipped",
      error: "not sent: the user has no Stripe customer to bill (no billing account); not retried, bill it by hand if it is owed",
    });
    await sweepOverageReports(billingDeps(), Date.now() + DAY);
    expect(meterEvents()).toHaveLength(0);
    expect((await reportOf(user.id)).status).toBe("skipped");
    await expectLedgerConsistent(user.id);
  });
});
