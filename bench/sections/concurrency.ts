// Section 3 of npm run bench: simultaneous standard jobs against the SearXNG fixture, what bounds
// them, and the ledger afterwards.
import type { StartedServer } from "../../test/e2e/server.ts";
import type { Fixture } from "../fixture.ts";
import { log } from "../log.ts";
import { percentile, round, workerdCpuSecs, workerdMemoryMb } from "../report.ts";
import { Client, type Ctx, follow } from "../service-client.ts";
import { FIXTURE_LATENCY_MS, FIXTURE_P99_MS } from "../settings.ts";

export async function concurrency(ctx: Ctx, fixture: Fixture, server: StartedServer) {
  fixture.latency(FIXTURE_LATENCY_MS, FIXTURE_P99_MS);
  log("## 3. Concurrency (simultaneous standard jobs against the fixture)");
  log();
  log(`Fixture latency log-normal, p50 ${FIXTURE_LATENCY_MS} ms, p99 ${FIXTURE_P99_MS} ms. Each job is followed over SSE to its result (no polling).`);
  log();
  log(
    "The service's memory is the resident size of its workerd process, sampled every 200 ms: before the jobs, at its peak while they run, and 3 s after the last one finished.",
  );
  log();
  log(
    "| jobs at once | jobs/min | p50 completion ms | p99 completion ms | succeeded | other terminal | not terminal | workerd MB before → peak → after | MB per job at peak |",
  );
  log("|---|---|---|---|---|---|---|---|---|");
  const allIds: string[] = [];
  const memory = () => workerdMemoryMb(server.processGroup)[0] ?? NaN;
  const bounds: string[] = [];
  for (const n of [1, 10, 50]) {
    fixture.freshPages();
    // Counters of what may bound the run: the service's CPU, the bench's own CPU (client and
    // fixture), the queue consumer's batches (wrangler logs each one), what reached the fixture.
    const cpuBefore = workerdCpuSecs(server.processGroup);
    const clientBefore = process.cpuUsage();
    const logFrom = server.output().length;
    fixture.takeLoad();
    const before = memory();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, memory())), 200);
    const started = Date.now();
    const submits = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        ctx.api.call("/v1/research", { body: { question: `Which reports discuss census and postal policy? (${n}-${i})`, mode: "standard" } }),
      ),
    );
    const ids = submits.map((s) => {
      if (s.status !== 202) throw new Error(`submit failed: ${JSON.stringify(s.body)}`);
      return s.body.id as string;
    });
    allIds.push(...ids);
    const done = await Promise.all(
      submits.map(async (submit) => {
        // Following the job's events costs the machine nothing while it waits (polling every
        // 250 ms ate up to half the CPU at 50 jobs); the stream ends with the result.
        const events = await follow(submit.body.events_url as string, ctx.key);
        const result = events.findLast((event) => event.event === "result");
        return { status: (result?.data?.status as string | undefined) ?? "stuck", at: Date.now() - started };
      }),
    );
    clearInterval(sampler);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = memory();
    const times = done.map((d) => d.at);
    const perMinute = (n / Math.max(...times)) * 60_000;
    const succeeded = done.filter((d) => d.status === "succeeded").length;
    const stuck = done.filter((d) => d.status === "stuck").length;
    log(
      `| ${n} | ${round(perMinute)} | ${percentile(times, 50)} | ${percentile(times, 99)} | ${succeeded} | ${n - succeeded - stuck} | ${stuck} | ` +
        `${before} → ${peak} → ${after} | ${round((peak - before) / n, 2)} |`,
    );
    const wallSecs = Math.max(...times) / 1000;
    const cpuAfter = workerdCpuSecs(server.processGroup);
    const cpu = [...cpuAfter].map(([pid, secs]) => secs - (cpuBefore.get(pid) ?? 0)).sort((a, b) => b - a);
    const client = process.cpuUsage(clientBefore);
    const batches = [
      ...server
        .output()
        .slice(logFrom)
        .matchAll(/QUEUE (research-tasks(?:-\d+)?) (\d+)\/(\d+) \((\d+)ms\)/g),
    ].map((m) => ({
      queue: m[1]!,
      size: Number(m[3]),
      ms: Number(m[4]),
    }));
    // The busiest shard: each shard's consumer takes one batch at a time.
    const busyByQueue = new Map<string, number>();
    for (const b of batches) busyByQueue.set(b.queue, (busyByQueue.get(b.queue) ?? 0) + b.ms);
    const busyMs = Math.max(0, ...busyByQueue.values());
    const web = fixture.takeLoad();
    bounds.push(
      `| ${n} | ${round(wallSecs)} | ${round((cpu[0] ?? 0) / wallSecs, 2)} (${round(cpu[0] ?? 0)} s) | ${round((client.user + client.system) / 1e6 / wallSecs, 2)} | ` +
        `${batches.length} | ${round(batches.reduce((sum, b) => sum + b.size, 0) / Math.max(1, batches.length))} | ${round((100 * busyMs) / 1000 / wallSecs)}% | ` +
        `${Math.max(0, ...batches.map((b) => b.ms))} | ${web.served} | ${web.maxInFlight} |`,
    );
  }
  log();
  log(
    "What bounds it: the service's CPU (its busiest workerd process: jobs' objects, the queue consumer and local D1 share one thread), the bench's own CPU (client and fixture, one Node process), the research-tasks consumer (local Queues deliver a queue's batches one at a time, and a batch lasts until its slowest task; busy: the busiest shard's share of the run), and what reached the fixture (the most requests in flight at once is the fan-out the web saw).",
  );
  log();
  log(
    "| jobs at once | run s | service CPU, busiest workerd (cores) | bench client + fixture CPU (cores) | consumer batches (all shards) | mean batch size | consumer busy (busiest shard, share of the run) | longest batch ms | fixture requests | fixture most in flight |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|");
  for (const row of bounds) log(row);
  log();
  // The ledger afterwards: nothing lost, stuck or charged twice.
  const admin = new Client(server.baseUrl, ctx.adminToken);
  const entries: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await admin.call(`/api/admin/users/${ctx.userId}/ledger?limit=100&offset=${offset}`);
    entries.push(...page.body);
    if (page.body.length < 100) break;
  }
  entries.reverse(); // oldest first
  const balance = (await admin.call(`/api/admin/users/${ctx.userId}`)).body.credits;
  let running = 0;
  let chainOk = true;
  for (const entry of entries) {
    running += entry.delta;
    if (entry.balance_after !== running || entry.balance_after < 0) chainOk = false;
  }
  const ofJob = (kind: string, id: string) => entries.filter((e) => e.kind === kind && e.related_id === id);
  const doubleCharged = allIds.filter((id) => ofJob("reservation", id).length !== 1 || ofJob("release", id).length !== 1);
  // Each release gives back exactly what the job did not spend: reserved - credits_charged.
  let releaseMismatches = 0;
  for (const id of allIds) {
    const job = (await ctx.api.call(`/v1/research/${id}`)).body;
    const reserved = -(ofJob("reservation", id)[0]?.delta ?? 0);
    const released = ofJob("release", id)[0]?.delta ?? 0;
    if (released !== reserved - job.credits_charged) releaseMismatches += 1;
  }
  log(
    `Ledger check after ${allIds.length} jobs: sum of deltas ${running} vs balance ${balance} (${running === balance ? "equal" : "MISMATCH"}); ` +
      `balance_after chain ${chainOk ? "consistent, never negative" : "BROKEN"}; jobs without exactly one reservation and one release: **${doubleCharged.length}**; ` +
      `releases that differ from reserved - credits_charged: **${releaseMismatches}**.`,
  );
  log();
}
