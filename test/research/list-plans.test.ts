import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { ownJobsQuery, usageQuery } from "../../src/research/job/job-store";
import { insertJob, signupUser } from "../helpers";

/** SQLite's plan of a Drizzle query, as EXPLAIN QUERY PLAN details. */
async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail).join(" | ");
}

// A finished job's row carries its result (tens of KB); lists and usage must not read it.
describe("job lists and usage read the list index, not the rows' results", () => {
  it("a user's list walks research_jobs_user_list_idx in order (no sort), reading summary columns only", async () => {
    const user = await signupUser();
    for (let i = 0; i < 3; i++) await insertJob(user.id, { createdAt: `2026-01-0${i + 1}T00:00:00.000Z` });
    const db = createDb(env.DB);
    const plan = await planOf(ownJobsQuery(db, user.id, { limit: 100, offset: 0 }));
    expect(plan).toMatch(/USING INDEX research_jobs_user_list_idx/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    const rows = await ownJobsQuery(db, user.id, { limit: 100, offset: 0 });
    expect(rows.map((row) => row.createdAt)).toEqual(["2026-01-03T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "2026-01-01T00:00:00.000Z"]);
    expect(Object.keys(rows[0]!)).not.toContain("resultJson");
  });

  it("usage buckets read the daily rollup, one row a day, never the jobs", async () => {
    const user = await signupUser();
    const plan = await planOf(usageQuery(createDb(env.DB), user.id, new Date("2026-01-01"), new Date("2026-02-01")));
    expect(plan).toMatch(/SEARCH usage_daily USING INDEX sqlite_autoindex_usage_daily_1 \(user_id=\? AND day>\? AND day<\?\)/);
    expect(plan).not.toMatch(/research_jobs/);
  });
});
