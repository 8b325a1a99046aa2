import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { ownJobsQuery } from "../../src/research/job/job-store";
import { call, dbFirst, dbRun, json } from "../helpers";
import { type ApiCaller, apiCaller, corpusLoaded, research, waitForTerminal } from "./helpers";

/**
 * Job lineage in the usage and logs views (issue 45): a follow-up, a job run from a reviewed plan
 * and a monitor's run each say where they came from in the dashboard's log (GET /api/logs) and in
 * the API's list (GET /v1/research); a job submitted plainly says nothing; the daily usage counts
 * the plans made and the monitor runs started on their UTC day; another account sees none of it.
 */

const Q = "What did the McKinley Tariff do?";
const FOLLOW = "What did critics say about the McKinley Tariff?";
const PLANNED = "What ended the Nullification Crisis?";
const MONITORED = "What was the Tariff of 1828?";
const LINEAGE = ["previous_job_id", "plan_id", "monitor_id"] as const;

type Row = { id: string } & Record<(typeof LINEAGE)[number], string | null>;

async function succeeded(caller: ApiCaller, body: Record<string, unknown>) {
  const response = await research(caller, body);
  expect(response.status).toBe(200);
  const result = await json(response);
  expect(result.status).toBe("succeeded");
  return result;
}

const lineageOf = (row: Row) => ({ previous_job_id: row.previous_job_id, plan_id: row.plan_id, monitor_id: row.monitor_id });
const byId = (rows: Row[]) => new Map(rows.map((row) => [row.id, lineageOf(row)]));
const today = () => `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;

async function usageOn(token: string, day: string) {
  const from = day;
  const to = new Date(Date.parse(day) + 86_400_000).toISOString();
  const response = await call(`/api/dashboard/usage?from=${from}&to=${to}`, { token });
  expect(response.status).toBe(200);
  const buckets = await json(response);
  expect(buckets).toHaveLength(1);
  return buckets[0];
}

describe("job lineage in the logs and the lists", () => {
  it("a follow-up, a plan's job and a monitor's run each show where they came from; a plain job shows nulls; another account sees none", async () => {
    await corpusLoaded();
    const caller = await apiCaller();

    const plain = await succeeded(caller, { question: Q, mode: "lite" });
    const followUp = await succeeded(caller, { question: FOLLOW, mode: "lite", previous_job_id: plain.id });

    const planResponse = await call("/v1/research/plan", { token: caller.key, body: { question: PLANNED, mode: "lite" } });
    expect(planResponse.status).toBe(200);
    const plan = await json(planResponse);
    const planned = await succeeded(caller, { question: PLANNED, mode: "lite", plan_id: plan.plan_id });

    const monitorResponse = await call("/v1/monitors", { token: caller.key, body: { question: MONITORED, mode: "lite", schedule: { every: "1d" } } });
    expect(monitorResponse.status).toBe(201);
    const monitor = await json(monitorResponse);
    const runResponse = await call(`/v1/monitors/${monitor.id}/run`, { token: caller.key, method: "POST" });
    expect(runResponse.status).toBe(202);
    const run = await json(runResponse);
    await waitForTerminal(caller, run.job_id);

    const expected = new Map([
      [plain.id, { previous_job_id: null, plan_id: null, monitor_id: null }],
      [followUp.id, { previous_job_id: plain.id, plan_id: null, monitor_id: null }],
      [planned.id, { previous_job_id: null, plan_id: plan.plan_id, monitor_id: null }],
      [run.job_id, { previous_job_id: null, plan_id: null, monitor_id: monitor.id }],
    ]);

    // The dashboard's log: every job, its lineage beside its figures (also when anonymized).
    const logs: Row[] = await json(await call("/api/logs", { token: caller.accessToken }));
    expect(byId(logs)).toEqual(expected);
    expect(logs.map((row) => row.id)).toEqual([run.job_id, planned.id, followUp.id, plain.id]);
    const anonymized: Row[] = await json(await call("/api/logs?anonymize=true", { token: caller.accessToken }));
    expect(byId(anonymized)).toEqual(expected);

    // The API's list: the same lineage, paged by its Link header like the rest.
    expect(byId(await json(await call("/v1/research", { token: caller.key })))).toEqual(expected);
    const firstTwo: Row[] = await json(await call("/v1/research?limit=2&offset=1", { token: caller.key }));
    expect(firstTwo.map(lineageOf)).toEqual([expected.get(planned.id), expected.get(followUp.id)]);

    // The job's own result says the same thread as the list.
    expect((await json(await call(`/v1/research/${followUp.id}`, { token: caller.key }))).previous_job_id).toBe(plain.id);

    // Usage today: four jobs, one plan made, one monitor run started.
    expect(await usageOn(caller.accessToken, today())).toMatchObject({ jobs: 4, plans: 1, monitor_runs: 1 });

    // Another account: none of these jobs, plans or runs.
    const stranger = await apiCaller();
    expect(await json(await call("/api/logs", { token: stranger.accessToken }))).toEqual([]);
    expect(await json(await call("/v1/research", { token: stranger.key }))).toEqual([]);
    expect(await usageOn(stranger.accessToken, today())).toEqual({ day: today(), credits: 0, jobs: 0, cost_usd_micros: 0, plans: 0, monitor_runs: 0 });
  });

  it("the list reads the lineage from research_jobs_user_list_idx, never from the row's end past result_json", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const first = await succeeded(caller, { question: Q, mode: "lite" });
    await succeeded(caller, { question: FOLLOW, mode: "lite", previous_job_id: first.id });
    const { sql, params } = ownJobsQuery(createDb(env.DB), caller.id, { limit: 10, offset: 0 }).toSQL();
    const program = (
      await env.DB.prepare(`EXPLAIN ${sql}`)
        .bind(...params)
        .all<{ opcode: string; p1: number; p2: number; p4: string | null }>()
    ).results;
    // The table's cursor and the index's: the table is opened on research_jobs' root page, the index with its key info.
    const tableRoot = (await dbFirst<{ rootpage: number }>("SELECT rootpage FROM sqlite_schema WHERE name = 'research_jobs'"))!.rootpage;
    const indexRoot = (await dbFirst<{ rootpage: number }>("SELECT rootpage FROM sqlite_schema WHERE name = 'research_jobs_user_list_idx'"))!.rootpage;
    const opened = program.filter((op) => op.opcode === "OpenRead");
    const tableCursor = opened.find((op) => op.p2 === tableRoot)?.p1;
    const indexCursor = opened.find((op) => op.p2 === indexRoot)?.p1;
    expect(indexCursor).toBeDefined();
    // Columns of research_jobs by position: the lineage columns are the last three.
    const columns = (await env.DB.prepare("SELECT name FROM pragma_table_info('research_jobs') ORDER BY cid").all<{ name: string }>()).results.map(
      (c) => c.name,
    );
    const resultAt = columns.indexOf("result_json");
    expect(columns.slice(-3)).toEqual(["previous_job_id", "plan_id", "monitor_id"]);
    const readFromRow = program.filter((op) => op.opcode === "Column" && op.p1 === tableCursor).map((op) => columns[op.p2]);
    // The row is read only for what sits before its result (status, mode, question).
    expect(tableCursor).toBeDefined();
    expect(readFromRow).toContain("question");
    for (const column of readFromRow) expect(columns.indexOf(column!)).toBeLessThan(resultAt);
    expect(program.filter((op) => op.opcode === "Column" && op.p1 === indexCursor).length).toBeGreaterThanOrEqual(9);
  });
});

describe("plans and monitor runs in the daily usage", () => {
  it("counts each on its UTC day, from either surface; a deleted monitor leaves its runs counted", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const day = today();
    expect(await usageOn(caller.accessToken, day)).toMatchObject({ jobs: 0, plans: 0, monitor_runs: 0 });

    // Plans from the API and from the playground; nothing charged, no job.
    for (const [path, token] of [
      ["/v1/research/plan", caller.key],
      ["/api/playground/research/plan", caller.accessToken],
    ] as const) {
      expect((await call(path, { token, body: { question: PLANNED, mode: "lite" } })).status).toBe(200);
    }
    expect(await usageOn(caller.accessToken, day)).toMatchObject({ jobs: 0, credits: 0, plans: 2, monitor_runs: 0 });

    // Two monitor runs (each a job), then the monitor is deleted: its day keeps them.
    const monitor = await json(await call("/v1/monitors", { token: caller.key, body: { question: MONITORED, mode: "lite", schedule: { every: "1d" } } }));
    for (let i = 0; i < 2; i++) {
      const run = await json(await call(`/v1/monitors/${monitor.id}/run`, { token: caller.key, method: "POST" }));
      await waitForTerminal(caller, run.job_id);
    }
    expect(await usageOn(caller.accessToken, day)).toMatchObject({ jobs: 2, plans: 2, monitor_runs: 2 });
    expect((await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "DELETE" })).status).toBe(200);
    expect(await dbFirst<{ n: number }>("SELECT count(*) AS n FROM monitor_runs WHERE monitor_id = ?", monitor.id)).toEqual({ n: 0 });
    expect(await usageOn(caller.accessToken, day)).toMatchObject({ jobs: 2, plans: 2, monitor_runs: 2 });

    // A plan and a run made on another day count on that day, not today's.
    const plan = await json(await call("/v1/research/plan", { token: caller.key, body: { question: PLANNED, mode: "lite" } }));
    await dbRun("DELETE FROM research_plans WHERE id = ?", plan.plan_id);
    await dbRun(
      "INSERT INTO research_plans (id, user_id, question, mode, request_json, sub_questions_json, queries_json, planner, created_at, expires_at) VALUES (?, ?, ?, 'lite', '{}', '[]', '[]', 'engine', '2025-03-02T23:59:59.000Z', '2025-03-03T00:59:59.000Z')",
      crypto.randomUUID(),
      caller.id,
      PLANNED,
    );
    const other = await json(await call("/v1/monitors", { token: caller.key, body: { question: MONITORED, mode: "lite", schedule: { every: "1d" } } }));
    await dbRun(
      "INSERT INTO monitor_runs (id, monitor_id, user_id, job_id, \"trigger\", status, created_at) VALUES (?, ?, ?, ?, 'schedule', 'failed', '2025-03-03T00:00:00.000Z')",
      crypto.randomUUID(),
      other.id,
      caller.id,
      crypto.randomUUID(),
    );
    const window = await json(await call("/api/dashboard/usage?from=2025-03-02T00:00:00Z&to=2025-03-04T00:00:00Z", { token: caller.accessToken }));
    expect(window.map((bucket: { day: string; plans: number; monitor_runs: number }) => [bucket.day.slice(0, 10), bucket.plans, bucket.monitor_runs])).toEqual([
      ["2025-03-02", 1, 0],
      ["2025-03-03", 0, 1],
    ]);
    // The plan made today and then deleted stays counted on today (a history).
    expect(await usageOn(caller.accessToken, day)).toMatchObject({ plans: 3, monitor_runs: 2 });

    // Another account's usage holds none of them.
    const stranger = await apiCaller();
    expect(await usageOn(stranger.accessToken, day)).toMatchObject({ jobs: 0, plans: 0, monitor_runs: 0 });
    const strangerWindow = await json(await call("/api/dashboard/usage?from=2025-03-02T00:00:00Z&to=2025-03-04T00:00:00Z", { token: stranger.accessToken }));
    expect(strangerWindow.every((bucket: { plans: number; monitor_runs: number }) => bucket.plans === 0 && bucket.monitor_runs === 0)).toBe(true);
  });
});
