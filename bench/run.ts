// npm run bench: measures the service started the way `npm start` does, side by side in one run,
// and writes its results file (bench/report.ts). Every load targets 127.0.0.1 only and stops by itself.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpus, tmpdir, totalmem } from "node:os";
import autocannon, { type AutocannonOptions } from "autocannon";
import { spawn } from "node:child_process";
import { freePort, type StartedServer, startServer } from "../test/e2e/server.ts";
import { HITS_PER_SEARCH } from "../src/research/engine/gather/waves.ts";
import { startFixture } from "./fixture.ts";
import { modesSection } from "./modes.ts";
import { machineLoad, percentile, workerdCpuSecs, workerdMemoryMb, writeResults } from "./report.ts";

const DURATION_SECS = Number(process.env.BENCH_DURATION ?? 10);
const FIXTURE_LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
/** The tail of the fixture's latency in the concurrency and SSE sections (log-normal, p50 as above). */
const FIXTURE_P99_MS = Number(process.env.BENCH_P99_MS ?? 2000);
const ADMIN = "bench-admin@example.com";
/** Run one section only: api, orchestration, concurrency, sse or modes (for profiling). */
const ONLY = process.env.BENCH_ONLY;
const lines: string[] = [];
const log = (line = "") => {
  console.log(line);
  lines.push(line);
};

// ---- small helpers ---------------------------------------------------------------------------

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

class Client {
  readonly base: string;
  readonly token: string;
  constructor(base: string, token = "") {
    this.base = base;
    this.token = token;
  }
  async call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const response = await fetch(this.base + path, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${init.token ?? this.token}` },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
}

/** Signs up the admin and a user, gives the user a key and plenty of credits. */
async function prepare(server: StartedServer) {
  const anon = new Client(server.baseUrl);
  const admin = (await anon.call("/api/auth/signup", { body: { email: ADMIN, password: "bench admin password" } })).body;
  const user = (await anon.call("/api/auth/signup", { body: { email: `bench-${Date.now()}@example.com`, password: "bench password 1" } })).body;
  const key = (await anon.call("/api/keys", { body: { name: "bench" }, token: user.access_token })).body.plaintext as string;
  const grant = await anon.call(`/api/admin/users/${user.user.id}/credits`, {
    body: { delta_credits: 1_000_000, note: "benchmark credits", idempotency_key: "bench-grant" },
    token: admin.access_token,
  });
  if (grant.status !== 200) throw new Error(`could not grant credits: ${grant.status} ${JSON.stringify(grant.body)}`);
  return { userId: user.user.id as string, key, adminToken: admin.access_token as string, api: new Client(server.baseUrl, key) };
}

interface SseEvent {
  id: number;
  event: string;
  data: any;
  emittedAt: number;
  receivedAt: number;
}

/** Follows a job's SSE stream until its result event. */
async function follow(url: string, key: string, onEvent?: (event: SseEvent) => void, onOpen?: (at: number) => void): Promise<SseEvent[]> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  onOpen?.(Date.now());
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    const receivedAt = Date.now();
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      let emittedAt = NaN;
      for (const line of frame.split("\n")) {
        if (line.startsWith(": emitted_at=")) emittedAt = Number(line.slice(13));
        else if (!line.startsWith(":")) fields[line.slice(0, line.indexOf(":"))] = line.slice(line.indexOf(":") + 1).trim();
      }
      if (!fields.event) continue;
      const event = { id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data!), emittedAt, receivedAt };
      events.push(event);
      onEvent?.(event);
      if (event.event === "result") {
        await reader.cancel();
        return events;
      }
    }
  }
}

async function load(title: string, options: AutocannonOptions) {
  const result = await autocannon({ duration: DURATION_SECS, connections: 10, ...options });
  const row = {
    title,
    rps: round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
    /** Response size, headers included. */
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
  console.log(`  ${title}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, errors ${row.errors}`);
  return row;
}

// ---- The platform's floor (bench/floor) ---------------------------------------------------------

/**
 * bench/floor's wrangler.toml behind the service's own static-assets set-up: its `[assets]` block
 * and compatibility flags, copied from the service's wrangler.toml (the dashboard's place taken by
 * bench/floor/public). Written into `dir`; answers the config's path.
 */
function floorWithAssetsConfig(dir: string): string {
  const service = readFileSync(join(here, "..", "wrangler.toml"), "utf8");
  const assets = /^\[assets\]\n(?:[^[\n].*\n|\n)*/m.exec(service)?.[0];
  const flags = /^compatibility_flags = .*$/m.exec(service)?.[0];
  if (!assets || !flags) throw new Error("the service's wrangler.toml has no [assets] block or compatibility_flags");
  const floor = readFileSync(join(here, "floor", "wrangler.toml"), "utf8")
    .replace(/^main = .*$/m, `main = ${JSON.stringify(join(here, "floor", "index.ts"))}`)
    .replace(/^name = .*$/m, 'name = "bench-floor-assets"')
    .replace(/^compatibility_date = .*$/m, (line) => `${line}\n${flags}`)
    .replaceAll('queue = "floor-tasks"', 'queue = "floor-assets-tasks"');
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, `${floor}\n${assets.replace(/^directory = .*$/m, `directory = ${JSON.stringify(join(here, "floor", "public"))}`)}`);
  return path;
}

/**
 * The floor Worker of bench/floor, served by `wrangler dev` like the service; `stop` ends it.
 * `withAssets`: behind the service's static-assets routing (section 1's row 0′). `d1From`: a
 * service's state directory, whose local D1 (the corpus) the floor gets a copy of.
 */
async function startFloor({ withAssets = false, d1From }: { withAssets?: boolean; d1From?: string } = {}) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "bench-floor-"));
  if (d1From) cpSync(join(d1From, "v3", "d1"), join(stateDir, "v3", "d1"), { recursive: true });
  const config = withAssets ? floorWithAssetsConfig(stateDir) : join(here, "floor", "wrangler.toml");
  const child = spawn(
    join(here, "..", "node_modules", ".bin", "wrangler"),
    ["dev", "--config", config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir],
    { detached: true, stdio: "ignore", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" } },
  );
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}/`;
  /** The hello-world answer: behind the assets routing, a path the Worker answers first (as /v1 is). */
  const hello = withAssets ? `${url}v1/hello` : url;
  const waves = new Map<string, number>();
  /**
   * The floor of one fan-out of `tasks` fetches of `taskUrl` ("" = tasks that do nothing): the
   * median of 3, remembered per (tasks, url). Zero tasks cost nothing (the job sends no batch).
   */
  const wave = async (tasks: number, taskUrl: string) => {
    if (tasks === 0) return 0;
    const key = `${tasks} ${taskUrl}`;
    if (!waves.has(key)) {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++)
        runs.push(((await (await fetch(`${url}wave?tasks=${tasks}&url=${encodeURIComponent(taskUrl)}`)).json()) as { ms: number }).ms);
      waves.set(key, percentile(runs, 50));
    }
    return waves.get(key)!;
  };
  /** The floor of one corpus wave: its searches and reads run by a bare object on the same D1, median of 3. */
  const corpusWave = async (searches: string[], reads: string[]) => {
    if (searches.length + reads.length === 0) return 0;
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}corpus-wave`, { method: "POST", body: JSON.stringify({ searches, reads, hitsPerSearch: HITS_PER_SEARCH }) });
      runs.push(((await response.json()) as { ms: number }).ms);
    }
    return percentile(runs, 50);
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(hello)).ok) {
        // The first fan-out starts the object and the consumer: not a floor. (Behind the assets
        // routing only `hello` is answered by the Worker: that floor is for section 1 alone.)
        if (!withAssets) await wave(1, "");
        waves.clear();
        return { url, hello, wave, corpusWave, stop };
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error("the floor Worker did not start");
}

type Floor = Awaited<ReturnType<typeof startFloor>>;

// ---- 1. API throughput and latency -----------------------------------------------------------

async function apiThroughput(server: StartedServer, ctx: Ctx, floor: Floor) {
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const { key, api } = ctx;
  const finished = await api.call("/v1/research", { body: { question: "How did presidents describe tariffs?", mode: "lite" } });
  if (finished.status !== 200) throw new Error(`lite job failed: ${JSON.stringify(finished.body)}`);
  const auth = { Authorization: `Bearer ${key}` };
  const assetsFloor = await startFloor({ withAssets: true });
  const endpoints: [string, AutocannonOptions][] = [
    ["(0) hello-world Worker", { url: floor.hello }],
    ["(0′) hello-world Worker behind the service's static-assets routing", { url: assetsFloor.hello }],
    ["(0″) hello-world Worker asking one D1 query", { url: `${floor.url}d1` }],
    ["(a) GET /healthz", { url: `${server.baseUrl}/healthz` }],
    ["(b) GET /v1/credits", { url: `${server.baseUrl}/v1/credits`, headers: auth }],
    ["(c) GET /v1/research/{id} (finished)", { url: `${server.baseUrl}/v1/research/${finished.body.id}`, headers: auth }],
  ];
  // Interleaved rounds, so a quiet or busy moment of the machine falls on every endpoint alike.
  const runs = new Map<string, Awaited<ReturnType<typeof load>>[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [title, options] of endpoints) runs.set(title, [...(runs.get(title) ?? []), await load(title, options)]);
  }
  const medianOf = (title: string) => {
    const rows = runs.get(title)!;
    const by = (pick: (row: (typeof rows)[number]) => number) => percentile(rows.map(pick), 50);
    return {
      title,
      rps: by((r) => r.rps),
      p50: by((r) => r.p50),
      p99: by((r) => r.p99),
      bytes: by((r) => r.bytes),
      errors: rows.reduce((sum, r) => sum + r.errors, 0),
    };
  };
  assetsFloor.stop();
  const [zero, zeroAssets, zeroD1, a, b, c] = endpoints.map(([title]) => medianOf(title));
  const d = await load("(d) POST /v1/research lite sync", {
    url: `${server.baseUrl}/v1/research`,
    method: "POST",
    connections: 4,
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ question: "What did presidents say about the railroads and the canals?", mode: "lite" }),
  });
  log(
    `## 1. API throughput and latency (autocannon, ${DURATION_SECS} s each, 10 connections, median of ${ROUNDS} interleaved rounds; (d) 4 connections, once)`,
  );
  log();
  log(
    "(0′) is the same hello-world Worker behind the service's own static-assets set-up (its `[assets]` block and compatibility flags, read from wrangler.toml: the dashboard served by the same Worker, the API paths sent to the Worker first): what that routing costs under `wrangler dev` before any code of ours runs. " +
      "(0″) is the bare Worker asking local D1 one query (`select 1`): the most an endpoint that must read D1 once can do here, as /v1/credits must (the balance is read fresh at every call, never cached).",
  );
  log();
  log("| endpoint | req/s | p50 ms | p99 ms | bytes per response | errors | ratio to (0) | ratio to (0′) |");
  log("|---|---|---|---|---|---|---|---|");
  for (const row of [zero!, zeroAssets!, zeroD1!, a!, b!, c!, d])
    log(
      `| ${row.title} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.bytes} | ${row.errors} | ${round(row.rps / zero!.rps, 2)} | ${round(row.rps / zeroAssets!.rps, 2)} |`,
    );
  log();
  log(
    `Targets against the bare Worker: /v1/credits ≥ 0.85 → **${round(b!.rps / zero!.rps, 2)}** (${round(b!.rps / zeroAssets!.rps, 2)} against (0′)); ` +
      `finished job ≥ 0.75 → **${round(c!.rps / zero!.rps, 2)}** (${round(c!.rps / zeroAssets!.rps, 2)} against (0′)). ` +
      `One D1 query alone takes the bare Worker to ${round(zeroD1!.rps / zero!.rps, 2)}; /v1/credits is ${round(b!.rps / zeroD1!.rps, 2)} of that.`,
  );
  log();
}

// ---- 2. Orchestration ----------------------------------------------------------------------------

/** A job's searches and reads per wave, from its progress events (their counts are cumulative). */
function tasksPerWave(events: SseEvent[]): { searches: number; reads: number }[] {
  const at = (stage: string, wave: number) => events.find((e) => e.event === "progress" && e.data.stage === stage && e.data.wave === wave)?.data;
  const waves: { searches: number; reads: number }[] = [];
  for (let wave = 1; at("searching", wave); wave++) {
    const before = { searches: at("searching", wave - 1)?.searches ?? 0, pages: at("reading", wave - 1)?.pages ?? 0 };
    waves.push({ searches: at("searching", wave).searches - before.searches, reads: (at("reading", wave)?.pages ?? before.pages) - before.pages });
  }
  return waves;
}

/** The urls a job read in each wave (its source events, under the wave of the progress before them). */
function readsPerWave(events: SseEvent[]): Map<number, string[]> {
  const reads = new Map<number, string[]>();
  let wave = 0;
  for (const event of events) {
    if (event.event === "progress") wave = event.data.wave;
    else if (event.event === "source") reads.set(wave, [...(reads.get(wave) ?? []), event.data.url]);
  }
  return reads;
}

/**
 * Runs standard and pro jobs one at a time and compares each with two bounds: the critical path
 * the issue names (waves × (search latency + read latency) + synthesis; 0 latency on the corpus
 * path) and the platform's floor for the same fan-outs, plus synthesis: on the web path each
 * wave's searches and reads sent through a queue by a Durable Object of bench/floor and answered
 * back; on the corpus path the wave's D1 searches and reads run by such an object (`corpusFloor`,
 * on a copy of the service's D1), through the queue as well for 2a′. The distance to the floor
 * is the overhead that is ours, the engine's own work included.
 */
async function orchestration(path: "web" | "corpus" | "corpus-queue", ctx: Ctx, floor: Floor, fixture?: Fixture, corpusFloor?: Floor) {
  const latency = fixture ? FIXTURE_LATENCY_MS : 0;
  fixture?.latency(latency, latency); // constant: the critical path is known
  const taskUrl = fixture ? `${fixture.baseUrl}/page/1` : "";
  const titles = {
    web: `## 2b. Orchestration on the web path (SearXNG fixture, constant latency ${latency} ms per search and per page)`,
    corpus: "## 2a. Orchestration on the corpus path (the default: FTS5 search and reads in D1, demo corpus; searches and reads run in the job)",
    "corpus-queue":
      "## 2a′. The same corpus jobs with every search and read sent through the research-tasks queue (TASK_FAN_OUT=queue): what the queue hop would cost",
  };
  const corpusQueries =
    "a Durable Object of bench/floor running the wave's searches (each asking the question) and reads (the pages the job read in that wave) with the service's corpus providers, the same SQL on a copy of the service's D1, all at once and with no engine";
  const floorWords = {
    web: "a Durable Object of bench/floor sending that many fetches of a fixture page through a queue and getting the answers back",
    corpus: corpusQueries,
    "corpus-queue": `${corpusQueries}, plus as many empty tasks sent through a queue by a Durable Object of bench/floor and answered back`,
  };
  log(titles[path]);
  log();
  log(
    "The run is measured from submit to the `done` progress event; settlement (ledger release, final row, webhook queue) is reported apart, from `done` to the result. " +
      "Critical path = waves × (search latency + read latency) + synthesis (`synthesizing` to `done`). " +
      `Floor = synthesis + for each wave the floor of its fan-outs, on the same machine in the same run: ${floorWords[path]}.`,
  );
  log();
  log(
    "| mode | run | waves | searches | pages | run ms | synthesis ms | critical path ms | ratio | floor ms | ratio to floor | ours per wave ms | settlement ms |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const summary: Record<string, { ratio: number[]; floorRatio: number[]; perWave: number[]; settlement: number[] }> = {};
  for (const mode of ["standard", "pro"]) {
    for (let run = 1; run <= 3; run++) {
      fixture?.freshPages();
      const question = fixture
        ? `What changed in tariff and railroad policy? (run ${mode} ${run})`
        : `How did presidents describe tariffs and the railroads? (run ${mode} ${run})`;
      const submitted = Date.now();
      const accepted = await ctx.api.call("/v1/research", { body: { question, mode, async: true } });
      if (accepted.status !== 202) throw new Error(`submit failed: ${JSON.stringify(accepted.body)}`);
      const events = await follow(accepted.body.events_url, ctx.key);
      const _result = events.at(-1)!.data;
      const resultAt = events.at(-1)!.receivedAt;
      const stageAt = (stage: string) => events.find((e) => e.event === "progress" && e.data.stage === stage)?.receivedAt;
      const doneAt = stageAt("done") ?? resultAt;
      const synthesis = doneAt - (stageAt("synthesizing") ?? doneAt);
      const progress = [...events].reverse().find((e) => e.event === "progress")?.data ?? {};
      const runMs = doneAt - submitted;
      const perWave = tasksPerWave(events);
      const waves = perWave.length;
      const criticalPath = waves * 2 * latency + synthesis;
      let floorMs = synthesis;
      const urls = readsPerWave(events);
      for (const [index, wave] of perWave.entries()) {
        // On the corpus path the searches and reads are D1 queries: their floor is those queries
        // run by a bare object. Each search asks the question itself (the job's own queries are
        // not in its events; they are parts of the question, and a search here costs about the
        // same, 8-12 ms, whichever of its words it asks). Through the queue, the queue's floor too.
        if (corpusFloor) floorMs += await corpusFloor.corpusWave(Array(wave.searches).fill(question), urls.get(index + 1) ?? []);
        if (path !== "corpus") floorMs += (await floor.wave(wave.searches, taskUrl)) + (await floor.wave(wave.reads, taskUrl));
      }
      const ours = (runMs - floorMs) / Math.max(1, waves);
      const entry = (summary[mode] ??= { ratio: [], floorRatio: [], perWave: [], settlement: [] });
      entry.ratio.push(runMs / criticalPath);
      entry.floorRatio.push(runMs / floorMs);
      entry.perWave.push(ours);
      entry.settlement.push(resultAt - doneAt);
      log(
        `| ${mode} | ${run} | ${waves} | ${progress.searches} | ${progress.pages} | ${runMs} | ${synthesis} | ${criticalPath} | ${criticalPath > 0 ? `${round(runMs / criticalPath, 2)}×` : "–"} | ` +
          `${floorMs} | ${round(runMs / floorMs, 2)}× | ${round(ours)} | ${resultAt - doneAt} |`,
      );
    }
  }
  log();
  for (const [mode, values] of Object.entries(summary)) {
    log(
      `- ${mode}: median **${Number.isFinite(percentile(values.ratio, 50)) ? `${round(percentile(values.ratio, 50), 2)}×` : "–"}** the critical path (target ≤ 1.15×, web path), ` +
        `**${round(percentile(values.floorRatio, 50), 2)}×** the platform floor, ours **${round(percentile(values.perWave, 50))} ms** a wave, settlement ${round(percentile(values.settlement, 50))} ms`,
    );
  }
  log();
}

// ---- 3-4. Concurrency and SSE fan-out against the SearXNG fixture --------------------------------

type Ctx = Awaited<ReturnType<typeof prepare>>;
type Fixture = Awaited<ReturnType<typeof startFixture>>;

async function concurrency(ctx: Ctx, fixture: Fixture, server: StartedServer) {
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

/** One job followed by `subscribers` clients, then the floor with the same events: every delivery's delay. */
async function sseRound(ctx: Ctx, fixture: Fixture, floor: Floor, subscribers: number, round: number) {
  fixture.freshPages();
  // The job's page reads wait until every subscriber is connected, so the connect storm (replays
  // to late subscribers) is told apart from the live fan-out, which the floor is compared with.
  await fetch(`${fixture.baseUrl}/control/hold?after=0`, { method: "POST" });
  const accepted = await ctx.api.call("/v1/research", { body: { question: `What do the reports say about harbors and canals? (${round})`, mode: "standard" } });
  const receipts = new Map<number, number>(); // event id -> subscribers that got it
  const deliveries: { emittedAt: number; delay: number }[] = []; // every (event, subscriber) delivery, replays included
  const emissions = new Map<number, { at: number; bytes: number }>();
  let opened = 0;
  let allOpen = () => {};
  const allOpened = new Promise<void>((resolve) => {
    allOpen = resolve;
  });
  const following = Promise.all(
    Array.from({ length: subscribers }, () =>
      follow(
        accepted.body.events_url,
        ctx.key,
        (event) => {
          receipts.set(event.id, (receipts.get(event.id) ?? 0) + 1);
          deliveries.push({ emittedAt: event.emittedAt, delay: event.receivedAt - event.emittedAt });
          emissions.set(event.id, { at: event.emittedAt, bytes: JSON.stringify(event.data).length });
        },
        () => ++opened === subscribers && allOpen(),
      ),
    ),
  );
  await allOpened;
  const liveFrom = Date.now();
  await fetch(`${fixture.baseUrl}/control/release`, { method: "POST" });
  await following;
  const liveEmissions = [...emissions.values()].filter((e) => e.at >= liveFrom);
  const floorDelays = await sseFloor(floor, subscribers, liveEmissions);
  // Every event the job emitted is counted, the ones a late subscriber got as a replay during the
  // connect storm too; an event some subscriber never received is a loss.
  const emitted = Math.max(...receipts.keys());
  let losses = 0;
  for (let id = 1; id <= emitted; id++) losses += subscribers - (receipts.get(id) ?? 0);
  return {
    emitted,
    liveEvents: liveEmissions.length,
    all: deliveries.map((d) => d.delay),
    live: deliveries.filter((d) => d.emittedAt >= liveFrom).map((d) => d.delay),
    floor: floorDelays,
    losses,
  };
}

/**
 * Section 4: rounds of (a job, its floor), interleaved, so a quiet or busy moment of the machine
 * falls on both; one round's tail is a handful of deliveries, so the tails are read pooled.
 */
async function sseFanOut(ctx: Ctx, fixture: Fixture, floor: Floor) {
  const SUBSCRIBERS = Number(process.env.BENCH_SSE_SUBSCRIBERS ?? 200);
  const ROUNDS = Number(process.env.BENCH_SSE_ROUNDS ?? 3);
  fixture.latency(FIXTURE_LATENCY_MS, FIXTURE_P99_MS);
  const rounds: Awaited<ReturnType<typeof sseRound>>[] = [];
  for (let round = 1; round <= ROUNDS; round++) rounds.push(await sseRound(ctx, fixture, floor, SUBSCRIBERS, round));
  const pooled = (pick: (r: (typeof rounds)[number]) => number[]) => rounds.flatMap(pick);
  const [live, floorAll, all] = [pooled((r) => r.live), pooled((r) => r.floor), pooled((r) => r.all)];
  const losses = rounds.reduce((sum, r) => sum + r.losses, 0);
  log(`## 4. SSE fan-out (${SUBSCRIBERS} subscribers on one job, ${ROUNDS} rounds)`);
  log();
  log(
    `Each round: a standard job whose reads are held until all ${SUBSCRIBERS} subscribers are connected (so the connect storm, replays to late subscribers, is told apart from the live fan-out), then the floor: a bare Durable Object of bench/floor streaming the events the job emitted live, on the job's own schedule (each at its offset, of its size; events the job emitted in one turn, a wave's burst of sources, go as one chunk, as the job sends them), to as many subscribers. ` +
      `All deliveries of the jobs, replays included: ${all.length}, p50 **${percentile(all, 50)} ms**, p99 **${percentile(all, 99)} ms**; losses (an event a subscriber never received): **${losses}**.`,
  );
  log();
  log("| round | events (live) | job live p50 / p99 ms | floor p50 / p99 ms | p99 ratio |");
  log("|---|---|---|---|---|");
  rounds.forEach((r, i) => {
    const [jobP99, floorP99] = [percentile(r.live, 99), percentile(r.floor, 99)];
    log(
      `| ${i + 1} | ${r.emitted} (${r.liveEvents}) | ${percentile(r.live, 50)} / ${jobP99} | ${percentile(r.floor, 50)} / ${floorP99} | ${round(jobP99 / Math.max(1, floorP99), 2)}× |`,
    );
  });
  log();
  const [p50, p99, floorP99] = [percentile(live, 50), percentile(live, 99), percentile(floorAll, 99)];
  log("| stream, all rounds pooled | deliveries | p50 ms | p99 ms | p99 ratio to floor |");
  log("|---|---|---|---|---|");
  log(`| the job, live (service) | ${live.length} | ${p50} | ${p99} | ${round(p99 / Math.max(1, floorP99), 2)}× |`);
  log(`| floor: a bare Durable Object, the same events on the same schedule | ${floorAll.length} | ${percentile(floorAll, 50)} | ${floorP99} | 1 |`);
  log();
  log(`Target: the job's live p99 within 2× the floor's, 0 losses → **${round(p99 / Math.max(1, floorP99), 2)}×**, ${losses} losses.`);
  log();
}

/**
 * Section 4's floor: the same number of subscribers on a bare Durable Object of bench/floor, which
 * emits the job's live events on the job's own schedule (each at its offset from the first, of
 * its size: the bursts of a wave's sources included); every delivery's delay.
 */
async function sseFloor(floor: Floor, subscribers: number, emissions: { at: number; bytes: number }[]): Promise<number[]> {
  const room = crypto.randomUUID();
  const sorted = [...emissions].sort((a, b) => a.at - b.at);
  const schedule = sorted.map((e) => ({ at: e.at - sorted[0]!.at, bytes: e.bytes }));
  const delays: number[] = [];
  const following = Array.from({ length: subscribers }, () =>
    follow(`${floor.url}sse?room=${room}`, "", (event) => delays.push(event.receivedAt - event.emittedAt)),
  );
  for (;;) {
    const { subscribers: open } = (await (await fetch(`${floor.url}sse/count?room=${room}`)).json()) as { subscribers: number };
    if (open >= subscribers) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await fetch(`${floor.url}sse/emit?room=${room}`, { method: "POST", body: JSON.stringify({ schedule }) });
  await Promise.all(following);
  return delays;
}

// ---- main --------------------------------------------------------------------------------------

/** The service on its default, offline path (corpus search): sections 1 and 2a. */
async function onCorpusPath(floor: Floor) {
  const server = await startServer({ vars: { RATE_LIMIT_SCALE: 100000, ADMIN_EMAILS: ADMIN } });
  let corpusFloor: Floor | undefined;
  try {
    const ctx = await prepare(server);
    if (!ONLY || ONLY === "api") await apiThroughput(server, ctx, floor);
    if (ONLY && ONLY !== "orchestration") return;
    // The corpus path's floor reads a copy of this service's D1 (the demo corpus), taken while it is idle.
    corpusFloor = await startFloor({ d1From: server.stateDir });
    await orchestration("corpus", ctx, floor, undefined, corpusFloor);
  } finally {
    await server.stop();
  }
  const queued = await startServer({ vars: { RATE_LIMIT_SCALE: 100000, ADMIN_EMAILS: ADMIN, TASK_FAN_OUT: "queue" } });
  try {
    await orchestration("corpus-queue", await prepare(queued), floor, undefined, corpusFloor);
  } finally {
    await queued.stop();
    corpusFloor.stop();
  }
}

/** The service searching the web (the SearXNG fixture): sections 2b, 3 and 4. */
async function onWebPath(floor: Floor) {
  const fixture = await startFixture({ latencyMs: FIXTURE_LATENCY_MS });
  const server = await startServer({
    vars: { RATE_LIMIT_SCALE: 100000, ADMIN_EMAILS: ADMIN, SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl },
  });
  try {
    const ctx = await prepare(server);
    if (!ONLY || ONLY === "orchestration") await orchestration("web", ctx, floor, fixture);
    if (!ONLY || ONLY === "concurrency") await concurrency(ctx, fixture, server);
    if (!ONLY || ONLY === "sse") await sseFanOut(ctx, fixture, floor);
  } finally {
    await server.stop();
    await fixture.close();
  }
}

const here = dirname(fileURLToPath(import.meta.url));
const wranglerVersion = JSON.parse(readFileSync(join(here, "../node_modules/wrangler/package.json"), "utf8")).version;
log(`# Benchmarks, ${new Date().toISOString()}`);
log();
log(
  `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${round(totalmem() / 2 ** 30)} GiB memory; Node ${process.version}; wrangler ${wranglerVersion}. ` +
    "Load and service share the machine; read the ratios, which are measured side by side in this run, before the absolute figures.",
);
log();
const floor = await startFloor();
try {
  if (!ONLY || ONLY === "api" || ONLY === "orchestration") await onCorpusPath(floor);
  if (ONLY !== "api" && ONLY !== "modes") await onWebPath(floor);
} finally {
  floor.stop();
}
// Its own server (the evaluation starts one), after the others have stopped.
if (!ONLY || ONLY === "modes") for (const line of modesSection(Number(process.env.BENCH_MODES_LIMIT ?? 0))) log(line);
log(`${machineLoad()} (at the end of the run)`);
// Every run is kept exactly as the benchmark wrote it (a partial run says which section).
console.log(`\nwritten to ${writeResults(lines, ONLY)}`);
