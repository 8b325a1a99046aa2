import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { call, dbAll, dbFirst, dbRun, expectError, json, nextPage } from "../helpers";
import { apiCaller, type ApiCaller, balanceOf, corpusLoaded, eventually, hmacHex, setBalance, waitForTerminal } from "../research/helpers";
import { DAM, ENGINEER, QUESTION } from "../fixtures/marigold-dam";

const HOOKS = "https://hooks.example.test";
const received: { path: string; headers: Headers; body: string }[] = [];
const server = setupServer(
  http.post(`${HOOKS}/monitor/*`, async ({ request }) => {
    received.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.text() });
    return HttpResponse.json({ ok: true });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

async function sweep() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function collectionWith(caller: ApiCaller, documents: unknown[]): Promise<string> {
  const { id } = await json(await call("/v1/collections", { token: caller.key, body: { name: "Dam archive" } }));
  expect((await call(`/v1/collections/${id}/documents`, { token: caller.key, body: { documents } })).status).toBe(200);
  return id;
}

async function createMonitor(caller: ApiCaller, body: Record<string, unknown>) {
  const response = await call("/v1/monitors", { token: caller.key, body });
  expect(response.status).toBe(201);
  return json(response);
}

async function runs(caller: ApiCaller, monitorId: string): Promise<any[]> {
  const response = await call(`/v1/monitors/${monitorId}/runs`, { token: caller.key });
  expect(response.status).toBe(200);
  return json(response);
}

/** The run of `jobId` once its job ended and the run was settled (GET .../runs settles it). */
async function settledRun(caller: ApiCaller, monitorId: string, jobId: string) {
  await waitForTerminal(caller, jobId);
  const run = (await runs(caller, monitorId)).find((r) => r.job_id === jobId);
  expect(run.status).not.toBe("running");
  return run;
}

async function runNow(caller: ApiCaller, monitorId: string) {
  const response = await call(`/v1/monitors/${monitorId}/run`, { token: caller.key, method: "POST" });
  expect(response.status).toBe(202);
  return json(response);
}

beforeAll(async () => {
  await corpusLoaded();
});

const countRows = async (table: string, userId: string) => (await dbFirst<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`, userId))!.n;

describe("monitors", () => {
  it("reports exactly the added source and the changed answer, signed as monitor.changed; an unchanged run sends nothing", async () => {
    const caller = await apiCaller();
    const collection = await collectionWith(caller, [DAM]);
    const hook = `/monitor/${crypto.randomUUID()}`;
    const monitor = await createMonitor(caller, {
      question: QUESTION,
      mode: "standard",
      collections: [collection],
      schedule: { every: "1d" },
      webhook_url: `${HOOKS}${hook}`,
    });
    expect(monitor).toMatchObject({ status: "active", schedule: { every: "1d", cron: null }, credits_per_run: 60, paused_reason: null });

    // The first run is due at once: the sweep starts it; it is the baseline (no diff).
    await sweep();
    const [first] = await runs(caller, monitor.id);
    expect(first).toMatchObject({ trigger: "schedule", status: "running" });
    const baseline = await settledRun(caller, monitor.id, first.job_id);
    expect(baseline).toMatchObject({ status: "succeeded", diff: null, changed: null });
    const firstJob = await waitForTerminal(caller, first.job_id);
    expect(baseline.credits_charged).toBe(firstJob.credits_charged);
    const after = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }));
    expect(Date.parse(after.next_run_at) - Date.now()).toBeGreaterThan(23 * 3600_000);

    // The collection gains the engineer's page: the next run cites it and answers differently.
    expect((await call(`/v1/collections/${collection}/documents`, { token: caller.key, body: { documents: [ENGINEER] } })).status).toBe(200);
    const second = await runNow(caller, monitor.id);
    expect(second).toMatchObject({ trigger: "manual", status: "running", diff: null });
    const secondJob = await waitForTerminal(caller, second.job_id);
    const changed = await settledRun(caller, monitor.id, second.job_id);
    expect(changed.status).toBe("succeeded");
    expect(changed.changed).toBe(true);
    expect(changed.diff.previous_run_id).toBe(first.id);
    expect(changed.diff.sources_added).toEqual([{ url: ENGINEER.url, title: ENGINEER.title }]);
    expect(changed.diff.sources_removed).toEqual([]);
    expect(changed.diff.answer.changed).toBe(true);
    expect(changed.diff.answer.previous).toBe(firstJob.answer?.text ?? null);
    expect(changed.diff.answer.current).toBe(secondJob.answer.text);
    expect(changed.diff.answer.current).toContain("Szeged");
    expect(changed.diff.claims_added.some((claim: string) => claim.includes("Szeged"))).toBe(true);
    expect(changed.credits_charged).toBe(secondJob.credits_charged);

    // monitor.changed: once, to the monitor's webhook_url, signed both ways, the diff in its body.
    await eventually(() => received.some((r) => r.path === hook), "the monitor.changed delivery");
    const delivery = received.find((r) => r.path === hook)!;
    expect(delivery.headers.get("x-service-event")).toBe("monitor.changed");
    expect(delivery.headers.get("webhook-id")).toBe(`${second.job_id}:monitor.changed`);
    const secret = (await json(await call("/api/settings/webhook-secret", { token: caller.accessToken }))).secret;
    expect(delivery.headers.get("x-service-signature")).toBe(`sha256=${await hmacHex(secret, delivery.body)}`);
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({ type: "monitor.changed", job_id: second.job_id, data: { monitor_id: monitor.id, run_id: changed.id, question: QUESTION } });
    expect(event.data.diff).toEqual(changed.diff);

    // Nothing changed since: the third run says so and no webhook is enqueued for it.
    const third = await runNow(caller, monitor.id);
    await waitForTerminal(caller, third.job_id);
    const same = await settledRun(caller, monitor.id, third.job_id);
    expect(same).toMatchObject({ status: "succeeded", changed: false });
    expect(same.diff).toMatchObject({ previous_run_id: changed.id, sources_added: [], sources_removed: [], claims_added: [], claims_withdrawn: [] });
    expect(same.diff.answer.changed).toBe(false);
    await sweep(); // settling again changes nothing
    const outbox = await dbAll<{ delivery_id: string }>(
      "SELECT delivery_id FROM webhook_outbox WHERE job_id IN (?, ?, ?)",
      first.job_id,
      second.job_id,
      third.job_id,
    );
    expect(outbox.map((row) => row.delivery_id)).toEqual([`${second.job_id}:monitor.changed`]);
    expect(received.filter((r) => r.path === hook)).toHaveLength(1);
    // Every run is kept, newest first.
    expect((await runs(caller, monitor.id)).map((r) => r.id)).toEqual([same.id, changed.id, first.id]);
  });

  it("pauses itself and charges nothing when the balance does not cover a run", async () => {
    const caller = await apiCaller();
    const monitor = await createMonitor(caller, { question: "What was the Tariff of 1828?", mode: "lite", schedule: { every: "6h" } });
    await setBalance(caller.id, 10); // a lite run reserves 15
    const jobsBefore = await countRows("research_jobs", caller.id);
    await sweep();
    const paused = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }));
    expect(paused).toMatchObject({ status: "paused", paused_reason: "insufficient_credits", next_run_at: null });
    expect(await runs(caller, monitor.id)).toEqual([]);
    expect(await countRows("research_jobs", caller.id)).toBe(jobsBefore);
    expect(await balanceOf(caller)).toBe(10);
    // Run now is refused the same way, with nothing charged.
    await expectError(await call(`/v1/monitors/${monitor.id}/run`, { token: caller.key, method: "POST" }), 402, "insufficient_credits");
    expect(await balanceOf(caller)).toBe(10);
    expect(await countRows("research_jobs", caller.id)).toBe(jobsBefore);
    // A paused monitor is not run by the sweep; resumed, it is due at once (no run was ever made).
    await sweep();
    expect(await runs(caller, monitor.id)).toEqual([]);
    const resumed = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "PATCH", body: { status: "active" } }));
    expect(resumed).toMatchObject({ status: "active", paused_reason: null });
    expect(Date.parse(resumed.next_run_at)).toBeLessThanOrEqual(Date.now());
  });

  it("a run made now while the monitor is due is its due run: the sweep starts no second, charged one after it", async () => {
    const caller = await apiCaller();
    const monitor = await createMonitor(caller, { question: "What was the Tariff of 1828?", mode: "lite", schedule: { every: "1d" } });
    // A new monitor is due at once; "Run now" before the sweep came round makes that run.
    expect(Date.parse(monitor.next_run_at)).toBeLessThanOrEqual(Date.now());
    const before = Date.now();
    const manual = await runNow(caller, monitor.id);
    await waitForTerminal(caller, manual.job_id);
    await sweep();
    await sweep();
    const made = await runs(caller, monitor.id);
    expect(made.map((run) => run.trigger)).toEqual(["manual"]);
    const after = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }));
    expect(Date.parse(after.next_run_at)).toBeGreaterThanOrEqual(before + 86_400_000);
    // Not due (its next time a day away), a run now leaves the schedule as it is.
    const again = await runNow(caller, monitor.id);
    await waitForTerminal(caller, again.job_id);
    expect((await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }))).next_run_at).toBe(after.next_run_at);
  });

  it("makes a run missed during an outage once, not once per missed time, and schedules the next from now", async () => {
    const caller = await apiCaller();
    const monitor = await createMonitor(caller, { question: "What was the Tariff of 1828?", mode: "lite", schedule: { every: "1h" } });
    // Its last run was five days ago and nothing ran since: 120 hourly runs missed.
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString();
    await dbRun(
      "UPDATE monitors SET last_run_at = ?, next_run_at = ? WHERE id = ?",
      fiveDaysAgo,
      new Date(Date.parse(fiveDaysAgo) + 3600_000).toISOString(),
      monitor.id,
    );
    const before = Date.now();
    await sweep();
    await sweep();
    await sweep();
    const made = await runs(caller, monitor.id);
    expect(made).toHaveLength(1);
    const after = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }));
    expect(Date.parse(after.next_run_at)).toBeGreaterThanOrEqual(before + 3600_000);
    expect(Date.parse(after.next_run_at)).toBeLessThanOrEqual(Date.now() + 3600_000);
    await waitForTerminal(caller, made[0].job_id);
  });

  it("a cron schedule runs at its next time; more often than hourly is refused", async () => {
    const caller = await apiCaller();
    const monitor = await createMonitor(caller, { question: "What was the Tariff of 1828?", mode: "lite", schedule: { cron: "30 9 * * 1" } });
    expect(monitor.schedule).toEqual({ every: null, cron: "30 9 * * 1" });
    await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "PATCH", body: { status: "paused" } });
    // Rescheduled while paused: stays paused; its next time is computed when it resumes.
    const patched = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "PATCH", body: { schedule: { every: "2d" } } }));
    expect(patched).toMatchObject({ status: "paused", paused_reason: "paused_by_owner", schedule: { every: "2d", cron: null }, next_run_at: null });
  });

  it("every new id is 404 to another account, and the owner's monitor is untouched", async () => {
    const owner = await apiCaller();
    const other = await apiCaller();
    const monitor = await createMonitor(owner, { question: "What was the Tariff of 1828?", mode: "lite", schedule: { every: "1d" } });
    await call(`/v1/monitors/${monitor.id}`, { token: owner.key, method: "PATCH", body: { status: "paused" } });
    const run = await runNow(owner, monitor.id);
    await expectError(await call(`/v1/monitors/${monitor.id}`, { token: other.key }), 404, "not_found");
    await expectError(await call(`/v1/monitors/${monitor.id}/runs`, { token: other.key }), 404, "not_found");
    await expectError(await call(`/v1/monitors/${monitor.id}/run`, { token: other.key, method: "POST" }), 404, "not_found");
    await expectError(await call(`/v1/monitors/${monitor.id}`, { token: other.key, method: "PATCH", body: { status: "active" } }), 404, "not_found");
    await expectError(await call(`/v1/monitors/${monitor.id}`, { token: other.key, method: "DELETE" }), 404, "not_found");
    await expectError(await call(`/v1/research/${run.job_id}`, { token: other.key }), 404, "not_found");
    expect(await json(await call("/v1/monitors", { token: other.key }))).toEqual([]);
    // The dashboard's routes (JWT) are the same monitors, scoped the same way.
    await expectError(await call(`/api/monitors/${monitor.id}`, { token: other.accessToken }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}/runs`, { token: other.accessToken }), 404, "not_found");
    expect((await json(await call("/api/monitors", { token: owner.accessToken }))).map((m: any) => m.id)).toEqual([monitor.id]);
    expect(await countRows("research_jobs", other.id)).toBe(0);
    const still = await json(await call(`/v1/monitors/${monitor.id}`, { token: owner.key }));
    expect(still).toMatchObject({ id: monitor.id, status: "paused" });
    await waitForTerminal(owner, run.job_id);
    expect(await runs(owner, monitor.id)).toHaveLength(1);
    // Deleted, it is 404 to its owner too; its run's job stays.
    expect((await call(`/v1/monitors/${monitor.id}`, { token: owner.key, method: "DELETE" })).status).toBe(200);
    await expectError(await call(`/v1/monitors/${monitor.id}`, { token: owner.key }), 404, "not_found");
    expect((await call(`/v1/research/${run.job_id}`, { token: owner.key })).status).toBe(200);
  });

  it("lists monitors newest first, paged with a Link header", async () => {
    const caller = await apiCaller();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createMonitor(caller, { question: `Tariff question ${i}?`, mode: "lite", schedule: { every: "1d" } })).id);
    const first = await call("/v1/monitors?limit=2", { token: caller.key });
    expect((await json(first)).map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    const next = nextPage(first);
    expect(next).toContain("offset=2");
    const second = await call(next!, { token: caller.key });
    expect((await json(second)).map((m: any) => m.id)).toEqual([ids[0]]);
    expect(nextPage(second)).toBeNull();
    for (const id of ids) await call(`/v1/monitors/${id}`, { token: caller.key, method: "DELETE" });
  });

  it("bad input is 400 (404 for another account's collection) with nothing written", async () => {
    const caller = await apiCaller();
    const stranger = await apiCaller();
    const foreign = await collectionWith(stranger, [DAM]);
    const base = { question: "What was the Tariff of 1828?", mode: "lite" };
    const refused: [Record<string, unknown>, number][] = [
      [{ ...base }, 400],
      [{ ...base, schedule: {} }, 400],
      [{ ...base, schedule: { every: "30m" } }, 400],
      [{ ...base, schedule: { every: "0h" } }, 400],
      [{ ...base, schedule: { every: "31d" } }, 400],
      [{ ...base, schedule: { every: "6h", cron: "0 * * * *" } }, 400],
      [{ ...base, schedule: { cron: "* * * * *" } }, 400],
      [{ ...base, schedule: { cron: "*/5 * * * *" } }, 400],
      [{ ...base, schedule: { cron: "0 25 * * *" } }, 400],
      [{ ...base, schedule: { cron: "0 0 30 2 *" } }, 400],
      [{ ...base, schedule: { cron: "0 0 * *" } }, 400],
      [{ ...base, schedule: { every: "1d" }, max_credits_per_run: 5 }, 400],
      [{ ...base, mode: "max", schedule: { every: "1d" } }, 400],
      [{ ...base, schedule: { every: "1d" }, webhook_url: "ftp://example.com/hook" }, 400],
      [{ ...base, schedule: { every: "1d" }, surprise: true }, 400],
      [{ question: "", mode: "lite", schedule: { every: "1d" } }, 400],
      [{ ...base, schedule: { every: "1d" }, collections: [foreign] }, 404],
    ];
    for (const [body, status] of refused) {
      const response = await call("/v1/monitors", { token: caller.key, body });
      await expectError(response, status, status === 400 ? "invalid_request" : "not_found");
    }
    expect(await countRows("monitors", caller.id)).toBe(0);
    const monitor = await createMonitor(caller, { ...base, schedule: { every: "1d" } });
    const unchanged = await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }));
    for (const body of [{}, { status: "sleeping" }, { schedule: { every: "10m" } }, { max_credits_per_run: 1 }, { webhook_url: "not a url" }, { nope: 1 }]) {
      await expectError(await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "PATCH", body }), 400, "invalid_request");
    }
    await expectError(await call("/v1/monitors/not-a-uuid", { token: caller.key }), 400, "invalid_request");
    expect(await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }))).toEqual(unchanged);
    expect(await countRows("monitor_runs", caller.id)).toBe(0);
    await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "DELETE" });
  });
});
