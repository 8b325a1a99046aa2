// npm run bench: measures the service started the way `npm start` does, side by side in one run,
// and writes its results file (bench/report.ts). Every load targets 127.0.0.1 only and stops by itself.
// This file is the run's flow; the sections are in bench/sections/ (1 api, 2 orchestration,
// 3 concurrency, 4 sse) and bench/modes.ts (5), the floor Worker's launcher in floor-server.ts,
// the bench's client of the service in service-client.ts, the results file's lines in log.ts.
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../test/e2e/server.ts";
import { startFixture } from "./fixture.ts";
import { type Floor, startFloor } from "./floor-server.ts";
import { lines, log } from "./log.ts";
import { modesSection } from "./modes.ts";
import { machineLoad, round, writeResults } from "./report.ts";
import { apiThroughput } from "./sections/api.ts";
import { concurrency } from "./sections/concurrency.ts";
import { orchestration } from "./sections/orchestration.ts";
import { sseFanOut } from "./sections/sse.ts";
import { prepare } from "./service-client.ts";
import { ADMIN, FIXTURE_LATENCY_MS } from "./settings.ts";

/** Run one section only: api, orchestration, concurrency, sse or modes (for profiling). */
const ONLY = process.env.BENCH_ONLY;

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
