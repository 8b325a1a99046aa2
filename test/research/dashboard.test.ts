import { describe, expect, it } from "vitest";
import { call, expectError, expectLedgerConsistent, insertJob, json, signupUser } from "../helpers";
import { env } from "cloudflare:workers";
import { apiCaller, balanceOf, corpusLoaded, eventually, holdTasks, jobLedger, research, setBalance } from "./helpers";

const Q = "What did the McKinley Tariff do?";

describe("playground", () => {
  it("POST /api/playground/research runs a job under JWT with the same charges, marked as playground", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await call("/api/playground/research", { token: caller.accessToken, body: { question: Q, mode: "lite" } });
    expect(response.status).toBe(200);
    const result = await json(response);
    expect(result).toMatchObject({ status: "succeeded", credits_charged: 15, question: Q });
    expect(await balanceOf(caller)).toBe(485);
    expect((await jobLedger(caller.id, result.id)).map((e) => e.kind)).toEqual(["reservation", "release"]);
    await expectLedgerConsistent(caller.id);

    const fetched = await call(`/api/playground/research/${result.id}`, { token: caller.accessToken });
    expect(fetched.status).toBe(200);
    expect(await json(fetched)).toEqual(result);

    // Marked as playground: the /v1 list shows API jobs only, the dashboard shows both.
    expect(await json(await call("/v1/research", { token: caller.key }))).toEqual([]);
    const logs = await json(await call("/api/logs", { token: caller.accessToken }));
    expect(logs.map((row: { id: string }) => row.id)).toEqual([result.id]);
  });

  it("202 with playground URLs for an async job; 400, 401 and 402 like the API", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const response = await call("/api/playground/research", { token: caller.accessToken, body: { question: Q, async: true, mode: "lite" } });
    expect(response.status).toBe(202);
    const accepted = await json(response);
    expect(accepted.status_url).toBe(`https://api.example.test/api/playground/research/${accepted.id}`);
    expect(accepted.events_url).toBe(`https://api.example.test/api/playground/research/${accepted.id}/events`);

    await expectError(await call("/api/playground/research", { token: caller.accessToken, body: { question: "" } }), 400, "invalid_request");
    await expectError(await call("/api/playground/research", { token: caller.key, body: { question: Q } }), 401, "unauthorized");
    await expectError(await call("/api/playground/research", { body: { question: Q } }), 401, "unauthorized");
    const poor = await apiCaller();
    await setBalance(poor.id, 10);
    await expectError(await call("/api/playground/research", { token: poor.accessToken, body: { question: Q, mode: "lite" } }), 402, "insufficient_credits");
    expect(await balanceOf(poor)).toBe(10);
  });

  it("honours Idempotency-Key like the API", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const first = await json(
      await call("/api/playground/research", { token: caller.accessToken, body: { question: Q, mode: "lite" }, headers: { "Idempotency-Key": "pg" } }),
    );
    const again = await json(
      await call("/api/playground/research", { token: caller.accessToken, body: { question: Q, mode: "lite" }, headers: { "Idempotency-Key": "pg" } }),
    );
    expect(again.id).toBe(first.id);
    expect(await balanceOf(caller)).toBe(485);
  });

  it("cancels and reads the deliveries of any of the account's jobs under a JWT; another account's id is 404", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const hold = holdTasks((task) => task.jobId === heldId);
    let heldId = "";
    try {
      // A job started with the account's API key, followed and cancelled from the dashboard.
      const accepted = await json(await research(caller, { question: Q, mode: "standard" }));
      heldId = accepted.id;
      await eventually(() => hold.heldFor(heldId).length > 0, "the first wave's tasks");
      const stranger = await apiCaller();
      await expectError(await call(`/api/playground/research/${heldId}`, { method: "DELETE", token: stranger.accessToken }), 404, "not_found");
      await expectError(await call(`/api/playground/research/${heldId}/deliveries`, { token: stranger.accessToken }), 404, "not_found");
      await expectError(await call(`/api/playground/research/${heldId}`, { method: "DELETE", token: caller.key }), 401, "unauthorized");

      const cancelled = await json(await call(`/api/playground/research/${heldId}`, { method: "DELETE", token: caller.accessToken }));
      expect(cancelled).toMatchObject({ id: heldId, status: "cancelled" });
      expect(await balanceOf(caller)).toBe(500 - cancelled.credits_charged);
      const deliveries = await call(`/api/playground/research/${heldId}/deliveries`, { token: caller.accessToken });
      expect(deliveries.status).toBe(200);
      expect(await json(deliveries)).toEqual(await json(await call(`/v1/research/${heldId}/deliveries`, { token: caller.key })));
      await expectLedgerConsistent(caller.id);
    } finally {
      await hold.release();
    }
  });
});

describe("GET /api/dashboard/recent", () => {
  it("lists the caller's jobs newest first (API and playground)", async () => {
    const user = await signupUser();
    const older = await insertJob(user.id, { createdAt: new Date(Date.now() - 3 * 3600_000).toISOString(), question: "older" });
    const newer = await insertJob(user.id, { createdAt: new Date(Date.now() - 3600_000).toISOString(), question: "newer", status: "failed" });
    const other = await signupUser();
    await insertJob(other.id);
    const response = await call("/api/dashboard/recent", { token: user.accessToken });
    expect(response.status).toBe(200);
    const rows = await json(response);
    expect(rows.map((row: { id: string }) => row.id)).toEqual([newer, older]);
    expect(Object.keys(rows[0]).sort()).toEqual(["created_at", "credits_charged", "id", "latency_ms", "question", "status"]);
    expect(rows[1]).toMatchObject({ question: "older", status: "succeeded", credits_charged: 60, latency_ms: 14_250 });
    await expectError(await call("/api/dashboard/recent"), 401, "unauthorized");
  });
});

describe("GET /api/dashboard/usage", () => {
  it("zero-filled daily UTC buckets between from and to", async () => {
    const user = await signupUser();
    await insertJob(user.id, { createdAt: "2025-03-02T10:00:00.000Z", creditsCharged: 60, costUsdMicros: 200_000 });
    await insertJob(user.id, { createdAt: "2025-03-02T23:59:59.000Z", creditsCharged: 15, costUsdMicros: 50_000, mode: "lite", creditsReserved: 15 });
    await insertJob(user.id, { createdAt: "2025-03-04T00:00:00.000Z", status: "failed" });
    await insertJob(user.id, { createdAt: "2025-03-06T00:00:00.000Z" }); // outside [from, to)
    const response = await call("/api/dashboard/usage?from=2025-03-01T00:00:00Z&to=2025-03-05T00:00:00Z", { token: user.accessToken });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual([
      { day: "2025-03-01T00:00:00.000Z", credits: 0, jobs: 0, cost_usd_micros: 0, plans: 0, monitor_runs: 0 },
      { day: "2025-03-02T00:00:00.000Z", credits: 75, jobs: 2, cost_usd_micros: 250_000, plans: 0, monitor_runs: 0 },
      { day: "2025-03-03T00:00:00.000Z", credits: 0, jobs: 0, cost_usd_micros: 0, plans: 0, monitor_runs: 0 },
      { day: "2025-03-04T00:00:00.000Z", credits: 0, jobs: 1, cost_usd_micros: 0, plans: 0, monitor_runs: 0 },
    ]);
  });

  it("defaults to the last 30 days, ending with today", async () => {
    const user = await signupUser();
    await insertJob(user.id, { creditsCharged: 60 });
    const buckets = await json(await call("/api/dashboard/usage", { token: user.accessToken }));
    expect(buckets.length).toBeGreaterThanOrEqual(30);
    expect(buckets.length).toBeLessThanOrEqual(31);
    const today = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect(buckets.at(-1)).toEqual({ day: today, credits: 60, jobs: 1, cost_usd_micros: 212_000, plans: 0, monitor_runs: 0 });
    for (let i = 1; i < buckets.length; i++) expect(Date.parse(buckets[i].day) - Date.parse(buckets[i - 1].day)).toBe(86_400_000);
    expect(buckets.slice(0, -1).every((b: { jobs: number }) => b.jobs === 0)).toBe(true);
  });

  it("reads a daily rollup that every write of a job keeps equal to the jobs themselves", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const usage = async () => (await json(await call("/api/dashboard/usage", { token: caller.accessToken }))).at(-1);
    /** What the jobs themselves say for today (the query the rollup replaced). */
    const fromJobs = async () => {
      const row = await env.DB.prepare(
        "SELECT count(*) AS jobs, coalesce(sum(credits_charged), 0) AS credits, coalesce(sum(cost_usd_micros), 0) AS cost FROM research_jobs WHERE user_id = ? AND substr(created_at, 1, 10) = ?",
      )
        .bind(caller.id, new Date().toISOString().slice(0, 10))
        .first<{ jobs: number; credits: number; cost: number }>();
      return {
        day: `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`,
        jobs: row!.jobs,
        credits: row!.credits,
        cost_usd_micros: row!.cost,
        plans: 0,
        monitor_runs: 0,
      };
    };
    // A job run through the service: inserted pending, then settled by its object.
    expect((await research(caller, { question: Q, mode: "lite" })).status).toBe(200);
    expect(await usage()).toMatchObject({ jobs: 1, credits: 15 });
    expect(await usage()).toEqual(await fromJobs());
    // A submit refused for lack of credits writes its row, then deletes it.
    await setBalance(caller.id, 1);
    await expectError(await research(caller, { question: Q, mode: "standard" }), 402, "insufficient_credits");
    expect(await usage()).toEqual(await fromJobs());
    // Rows changed and removed by any other path (the sweep, an operator, account deletion).
    const id = await insertJob(caller.id, { creditsCharged: 60, costUsdMicros: 200_000, charge: false });
    await env.DB.prepare("UPDATE research_jobs SET credits_charged = 0, cost_usd_micros = 0, status = 'failed' WHERE id = ?").bind(id).run();
    expect(await usage()).toEqual(await fromJobs());
    const gone = await insertJob(caller.id, { creditsCharged: 30, charge: false });
    await env.DB.prepare("DELETE FROM research_jobs WHERE id = ?").bind(gone).run();
    expect(await usage()).toEqual(await fromJobs());
    expect(await usage()).toMatchObject({ jobs: 2, credits: 15 });
  });

  it("400 for from >= to or bad dates; 401 without a token", async () => {
    const user = await signupUser();
    for (const query of [
      "from=2025-03-05T00:00:00Z&to=2025-03-01T00:00:00Z",
      "from=2025-03-05T00:00:00Z&to=2025-03-05T00:00:00Z",
      "from=yesterday",
      "to=2025-13-45",
      "from=2020-01-01T00:00:00Z&to=2025-01-01T00:00:00Z",
    ]) {
      await expectError(await call(`/api/dashboard/usage?${query}`, { token: user.accessToken }), 400, "invalid_request");
    }
    await expectError(await call("/api/dashboard/usage"), 401, "unauthorized");
  });
});

describe("GET /api/logs", () => {
  it("pages newest first and anonymizes questions on request", async () => {
    const user = await signupUser();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await insertJob(user.id, { createdAt: new Date(Date.now() - (5 - i) * 60_000).toISOString(), question: `Question number ${i}?` }));
    const newestFirst = [...ids].reverse();
    const all = await json(await call("/api/logs", { token: user.accessToken }));
    expect(all.map((row: { id: string }) => row.id)).toEqual(newestFirst);
    expect(all[0]).toMatchObject({ question: "Question number 4?", mode: "standard", credits_charged: 60, cost_usd_micros: 212_000, status: "succeeded" });
    expect(Object.keys(all[0]).sort()).toEqual([
      "cost_usd_micros",
      "created_at",
      "credits_charged",
      "id",
      "latency_ms",
      "mode",
      "monitor_id",
      "plan_id",
      "previous_job_id",
      "question",
      "source_count",
      "status",
      "wave_count",
    ]);
    expect(all[0]).toMatchObject({ previous_job_id: null, plan_id: null, monitor_id: null });

    const page = await json(await call("/api/logs?limit=2&offset=2", { token: user.accessToken }));
    expect(page.map((row: { id: string }) => row.id)).toEqual(newestFirst.slice(2, 4));

    const anonymized = await json(await call("/api/logs?anonymize=true", { token: user.accessToken }));
    expect(anonymized.map((row: { id: string }) => row.id)).toEqual(newestFirst);
    for (const row of anonymized) {
      expect(row.question).not.toMatch(/Question number/);
      expect(row.question).toMatch(/^\[redacted\]/);
      expect(row.question).toContain(String("Question number 4?".length));
    }
    const plain = await json(await call("/api/logs?anonymize=false", { token: user.accessToken }));
    expect(plain[0].question).toBe("Question number 4?");

    // The status filter, combined with paging and anonymizing.
    const failed = await insertJob(user.id, { status: "failed", question: "A failed one?" });
    const onlyFailed = await json(await call("/api/logs?status=failed&anonymize=true", { token: user.accessToken }));
    expect(onlyFailed.map((row: { id: string }) => row.id)).toEqual([failed]);
    expect(onlyFailed[0].question).toMatch(/^\[redacted\]/);
    const succeeded = await json(await call("/api/logs?status=succeeded&limit=2", { token: user.accessToken }));
    expect(succeeded.map((row: { id: string }) => row.id)).toEqual(newestFirst.slice(0, 2));

    for (const query of ["limit=0", "limit=101", "offset=-1", "limit=1.5", "anonymize=yes", "status=done"]) {
      await expectError(await call(`/api/logs?${query}`, { token: user.accessToken }), 400, "invalid_request");
    }
    await expectError(await call("/api/logs"), 401, "unauthorized");
  });
});
