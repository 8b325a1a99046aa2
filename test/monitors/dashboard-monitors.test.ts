import { beforeAll, describe, expect, it } from "vitest";
import { call, dbFirst, expectError, json, signupUser, type TestUser } from "../helpers";
import { corpusLoaded, eventually } from "../research/helpers";

/**
 * The dashboard's monitor operations (/api/monitors with the access token, the Monitors page):
 * createDashboardMonitor, updateDashboardMonitor, runDashboardMonitor and deleteDashboardMonitor.
 * They share their handlers with /v1/monitors (test/monitors/monitors.test.ts covers the runs and
 * their diffs); here: what each answers on this surface, that it is what a read sees next, and
 * that another account's monitor id is 404 with the owner's monitor untouched.
 */

const QUESTION = "What was the Tariff of 1828?";

beforeAll(async () => {
  await corpusLoaded();
});

async function createMonitor(user: TestUser, body: Record<string, unknown>) {
  const response = await call("/api/monitors", { token: user.accessToken, body });
  expect(response.status).toBe(201);
  return json(response);
}

async function readMonitor(user: TestUser, id: string) {
  const response = await call(`/api/monitors/${id}`, { token: user.accessToken });
  expect(response.status).toBe(200);
  return json(response);
}

/** The job a run started, read through the dashboard, once it has ended (no run left going on). */
async function finishedJob(user: TestUser, jobId: string) {
  return eventually(async () => {
    const response = await call(`/api/playground/research/${jobId}`, { token: user.accessToken });
    expect(response.status).toBe(200);
    const job = await json(response);
    return ["succeeded", "failed", "cancelled"].includes(job.status) ? job : null;
  }, `job ${jobId} to end`);
}

describe("dashboard monitors (/api/monitors, JWT)", () => {
  it("creates a monitor from the body, answers it whole and lists it for its owner only", async () => {
    const owner = await signupUser();
    const other = await signupUser();
    const before = Date.now();
    const monitor = await createMonitor(owner, {
      question: QUESTION,
      mode: "lite",
      schedule: { cron: "0 9 * * 1-5" },
      include_domains: ["example.org"],
      webhook_url: "https://hooks.example.test/monitor/dashboard",
    });
    expect(monitor).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      question: QUESTION,
      mode: "lite",
      include_domains: ["example.org"],
      exclude_domains: null,
      collections: null,
      web: expect.any(Boolean),
      schedule: { every: null, cron: "0 9 * * 1-5" },
      webhook_url: "https://hooks.example.test/monitor/dashboard",
      max_credits_per_run: null,
      credits_per_run: 15, // a lite job's price
      status: "active",
      paused_reason: null,
      next_run_at: expect.any(String),
      last_run_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // Its first run (the baseline) is due at once.
    expect(Date.parse(monitor.next_run_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(monitor.created_at)).toBeGreaterThanOrEqual(before - 1000);
    // Stored for the account whose token made it, and the same monitor on /api and in the list.
    const row = await dbFirst<{ user_id: string; api_key_id: string | null }>("SELECT user_id, api_key_id FROM monitors WHERE id = ?", monitor.id);
    expect(row).toEqual({ user_id: owner.id, api_key_id: null });
    expect(await readMonitor(owner, monitor.id)).toEqual(monitor);
    expect((await json(await call("/api/monitors", { token: owner.accessToken }))).map((m: any) => m.id)).toEqual([monitor.id]);
    expect(await json(await call("/api/monitors", { token: other.accessToken }))).toEqual([]);
    // A body the /v1 route refuses is refused here the same way, with nothing written.
    await expectError(
      await call("/api/monitors", { token: owner.accessToken, body: { question: QUESTION, mode: "lite", schedule: { every: "30m" } } }),
      400,
      "invalid_request",
    );
    await expectError(await call("/api/monitors", { body: { question: QUESTION, mode: "lite", schedule: { every: "1d" } } }), 401, "unauthorized");
    expect((await dbFirst<{ n: number }>("SELECT count(*) AS n FROM monitors WHERE user_id = ?", owner.id))!.n).toBe(1);
  });

  it("pauses, reschedules and resumes a monitor, each change what the next read sees", async () => {
    const owner = await signupUser();
    const monitor = await createMonitor(owner, { question: QUESTION, mode: "lite", schedule: { every: "1d" } });

    const paused = await json(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "paused" } }));
    expect(paused).toMatchObject({ id: monitor.id, status: "paused", paused_reason: "paused_by_owner", next_run_at: null });
    expect(await readMonitor(owner, monitor.id)).toEqual(paused);

    const rescheduled = await call(`/api/monitors/${monitor.id}`, {
      token: owner.accessToken,
      method: "PATCH",
      body: { schedule: { every: "6h" }, webhook_url: "https://hooks.example.test/monitor/changed" },
    });
    expect(rescheduled.status).toBe(200);
    const changed = await json(rescheduled);
    // Rescheduled while paused it stays paused; the rest of the monitor is as it was.
    expect(changed).toMatchObject({
      status: "paused",
      schedule: { every: "6h", cron: null },
      webhook_url: "https://hooks.example.test/monitor/changed",
      question: QUESTION,
      mode: "lite",
      credits_per_run: 15,
    });
    expect(await readMonitor(owner, monitor.id)).toEqual(changed);

    const resumed = await json(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "active" } }));
    expect(resumed).toMatchObject({ status: "active", paused_reason: null, schedule: { every: "6h", cron: null } });
    // Never run, it is due at once on resuming.
    expect(Date.parse(resumed.next_run_at)).toBeLessThanOrEqual(Date.now());
    expect(await readMonitor(owner, monitor.id)).toEqual(resumed);

    // A change the route refuses writes nothing.
    await expectError(
      await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { schedule: { every: "10m" } } }),
      400,
      "invalid_request",
    );
    expect(await readMonitor(owner, monitor.id)).toEqual(resumed);
  });

  it("runs a monitor now: the run is answered, listed, and its research job exists for the owner", async () => {
    const owner = await signupUser();
    const monitor = await createMonitor(owner, { question: QUESTION, mode: "lite", schedule: { every: "1d" } });
    // Paused, so the schedule starts nothing meanwhile: only the manual run exists.
    await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "paused" } });

    const response = await call(`/api/monitors/${monitor.id}/run`, { token: owner.accessToken, method: "POST" });
    expect(response.status).toBe(202);
    const run = await json(response);
    expect(run).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      monitor_id: monitor.id,
      job_id: expect.any(String),
      trigger: "manual",
      status: "running",
      credits_charged: null,
      changed: null,
      diff: null,
      finished_at: null,
    });
    // The job is the owner's, of the monitor's question and mode.
    const job = await dbFirst<{ user_id: string; question: string; mode: string }>(
      "SELECT user_id, question, mode FROM research_jobs WHERE id = ?",
      run.job_id,
    );
    expect(job).toEqual({ user_id: owner.id, question: QUESTION, mode: "lite" });
    const finished = await finishedJob(owner, run.job_id);
    expect(finished.id).toBe(run.job_id);

    const runs = await json(await call(`/api/monitors/${monitor.id}/runs`, { token: owner.accessToken }));
    expect(runs.map((r: any) => [r.id, r.job_id, r.trigger])).toEqual([[run.id, run.job_id, "manual"]]);
    // Run now leaves a paused monitor paused, and records when it last ran.
    const after = await readMonitor(owner, monitor.id);
    expect(after).toMatchObject({ status: "paused", next_run_at: null, last_run_at: expect.any(String) });
  });

  it("deletes a monitor: 404 after, also to its owner; its run's job stays", async () => {
    const owner = await signupUser();
    const monitor = await createMonitor(owner, { question: QUESTION, mode: "lite", schedule: { every: "1d" } });
    await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "paused" } });
    const run = await json(await call(`/api/monitors/${monitor.id}/run`, { token: owner.accessToken, method: "POST" }));
    await finishedJob(owner, run.job_id);

    const deleted = await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toEqual({ deleted: true });
    await expectError(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}/runs`, { token: owner.accessToken }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "DELETE" }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "active" } }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}/run`, { token: owner.accessToken, method: "POST" }), 404, "not_found");
    expect(await json(await call("/api/monitors", { token: owner.accessToken }))).toEqual([]);
    expect(await dbFirst("SELECT id FROM monitor_runs WHERE monitor_id = ?", monitor.id)).toBeNull();
    expect((await call(`/api/playground/research/${run.job_id}`, { token: owner.accessToken })).status).toBe(200);
  });

  it("another account's monitor is 404 to update, run and delete, and stays as its owner left it", async () => {
    const owner = await signupUser();
    const other = await signupUser();
    const monitor = await createMonitor(owner, { question: QUESTION, mode: "lite", schedule: { every: "1d" } });
    const paused = await json(await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "PATCH", body: { status: "paused" } }));

    await expectError(await call(`/api/monitors/${monitor.id}`, { token: other.accessToken, method: "PATCH", body: { status: "active" } }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}/run`, { token: other.accessToken, method: "POST" }), 404, "not_found");
    await expectError(await call(`/api/monitors/${monitor.id}`, { token: other.accessToken, method: "DELETE" }), 404, "not_found");
    // An unknown id is the same 404: nothing tells the two apart.
    await expectError(await call(`/api/monitors/${crypto.randomUUID()}/run`, { token: other.accessToken, method: "POST" }), 404, "not_found");

    // Nothing was changed, run or deleted.
    expect(await readMonitor(owner, monitor.id)).toEqual(paused);
    expect(await json(await call(`/api/monitors/${monitor.id}/runs`, { token: owner.accessToken }))).toEqual([]);
    expect((await dbFirst<{ n: number }>("SELECT count(*) AS n FROM research_jobs WHERE user_id = ?", other.id))!.n).toBe(0);
    expect((await dbFirst<{ n: number }>("SELECT count(*) AS n FROM research_jobs WHERE user_id = ?", owner.id))!.n).toBe(0);
    await call(`/api/monitors/${monitor.id}`, { token: owner.accessToken, method: "DELETE" });
  });
});
