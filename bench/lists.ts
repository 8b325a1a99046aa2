// npm run bench:lists: how a job list and the usage buckets scale with an account's jobs, in the
// local D1 that `npm start` uses (workerd's SQLite), on the very queries the service runs.
// For each size it times them with today's indexes, then with the old single (user_id,
// created_at) index and `SELECT *` lists, in the same database. Writes its results file (bench/report.ts).
import { desc, eq } from "drizzle-orm";
import { createDb } from "../src/db/client";
import { researchJobs } from "../src/db/schema/jobs";
import { ownJobsQuery, usageQuery } from "../src/research/job/job-store";
import { machineLoad, measuredCommit, median, scratchD1, writeResults } from "./report.ts";

const SIZES = (process.env.BENCH_JOBS ?? "0,2000,10000").split(",").map(Number);
const RESULT_BYTES = 26_000; // a finished job's result_json, as measured on the demo corpus
const ROUNDS = 15;

async function timeIt(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

const { db: d1, close } = await scratchD1("lists");
const rows: string[] = [];
try {
  const db = createDb(d1);
  const userId = crypto.randomUUID();
  await d1
    .prepare("insert into users (id, email, password_hash, first_name, last_name, credits, created_at, updated_at) values (?, ?, 'x', '', '', 0, ?, ?)")
    .bind(userId, `bench-${userId}@example.com`, new Date().toISOString(), new Date().toISOString())
    .run();
  const result = JSON.stringify({ brief: "x".repeat(RESULT_BYTES) });
  const page = { limit: 100, offset: 0 };
  const to = new Date();
  const from = new Date(to.getTime() - 30 * 86_400_000);
  // Usage as it was read before the daily rollup: one index entry per job of the window.
  const oldUsage = () =>
    d1
      .prepare(
        "SELECT substr(created_at, 1, 10) AS day, sum(credits_charged), count(*), sum(cost_usd_micros) FROM research_jobs " +
          "WHERE user_id = ? AND created_at >= ? AND created_at < ? GROUP BY day",
      )
      .bind(userId, from.toISOString(), to.toISOString())
      .all();
  const oldList = () =>
    db.select().from(researchJobs).where(eq(researchJobs.userId, userId)).orderBy(desc(researchJobs.createdAt), desc(researchJobs.id)).limit(100);
  let inserted = 0;
  for (const size of SIZES) {
    const insert = d1.prepare(
      `insert into research_jobs (id, user_id, origin, status, mode, question, request_json, result_json, credits_reserved, credits_charged,
         cost_usd_micros, latency_ms, source_count, wave_count, created_at, completed_at, deadline_at)
       values (?, ?, 'api', 'succeeded', 'standard', 'A question?', '{}', ?, 60, 60, 200000, 1200, 8, 2, ?, ?, ?)`,
    );
    while (inserted < size) {
      const batch = [];
      for (let i = 0; i < 100 && inserted < size; i++, inserted++) {
        const at = new Date(to.getTime() - ((inserted * 7919) % (60 * 86_400)) * 1000).toISOString();
        batch.push(insert.bind(crypto.randomUUID(), userId, result, at, at, at));
      }
      await d1.batch(batch);
    }
    const now = { list: await timeIt(() => ownJobsQuery(db, userId, page)), usage: await timeIt(() => usageQuery(db, userId, from, to)) };
    // The same database with the indexes and list query this replaced.
    await d1.batch([
      d1.prepare("drop index research_jobs_user_list_idx"),
      d1.prepare("create index research_jobs_user_created_idx on research_jobs (user_id, created_at)"),
    ]);
    const before = { list: await timeIt(oldList), usage: await timeIt(oldUsage) };
    await d1.batch([
      d1.prepare("drop index research_jobs_user_created_idx"),
      d1.prepare(
        "create index research_jobs_user_list_idx on research_jobs (user_id, created_at, id, credits_charged, cost_usd_micros, latency_ms, source_count, wave_count, completed_at)",
      ),
    ]);
    const floor = await timeIt(() => d1.prepare("select 1").all());
    const row = `| ${size} | ${floor.toFixed(2)} | ${before.list.toFixed(2)} | ${now.list.toFixed(2)} | ${before.usage.toFixed(2)} | ${now.usage.toFixed(2)} |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  await close();
}

const report = [
  `# Job lists and usage at N jobs of one account (${new Date().toISOString().slice(0, 10)}, ${measuredCommit()})`,
  "",
  `Local D1 (workerd SQLite), each job with a ${RESULT_BYTES}-byte result_json; median of ${ROUNDS} runs in ms;`,
  `"before" is the same database with the old (user_id, created_at) index, a SELECT * list of 100 rows, and usage summed from the jobs (now: the daily rollup).`,
  `${machineLoad()} (at the end)`,
  "",
  "The local proxy costs a round trip per query; `select 1` is that floor.",
  "",
  "| jobs | select 1 | list before | list now | usage (30 days) before | usage now |",
  "|---|---|---|---|---|---|",
  ...rows,
  "",
];
console.log(`wrote ${writeResults(report, "lists")}`);
