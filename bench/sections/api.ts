// Section 1 of npm run bench: API throughput and latency, next to the floor's hello-world Workers.
import type { AutocannonOptions } from "autocannon";
import type { StartedServer } from "../../test/e2e/server.ts";
import { type Floor, startFloor } from "../floor-server.ts";
import { log } from "../log.ts";
import { percentile, round } from "../report.ts";
import { type Ctx, load } from "../service-client.ts";
import { DURATION_SECS } from "../settings.ts";

export async function apiThroughput(server: StartedServer, ctx: Ctx, floor: Floor) {
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
