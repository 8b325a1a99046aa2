// npm run bench:reader [-- DIR] (issue 42): what extractPage costs per page in workerd, the runtime
// the reader runs in. The worker (bench/reader/worker.ts, bundled with esbuild) is served by the
// workerd binary wrangler uses, with the project's compatibility date and flags.
//
// Pages: each DIR/*/source.html (Mozilla Readability's test/test-pages: fetch the repository and
// pass that folder; they are not kept here), and synthetic pages made here up to the reader's 2 MB
// cap: tag-dense, attribute-heavy, deeply nested, link lists, one big table, plain long text, and
// tag-dense pages just under and just over the element cap and the estimate's limit, long-text
// pages under the estimate's limit (the largest pages the DOM is given).
//
// CPU per page: the CPU time workerd's threads ran (/proc/PID/task/*/schedstat, so a loaded machine
// does not count) to answer POST /extract less that to answer POST /noop with the same body (the
// request's own cost), the least of 3 runs each (timers inside workerd do not advance during a
// request, so it is taken outside). Median and p95 over the pages.
// Peak memory per page: a fresh workerd per page, warmed with a small page; its peak resident
// memory (VmHWM, reset through /proc/PID/clear_refs) during the page's request less its resident
// memory before: the DOM, Readability's work and the request's body and answer.
// BENCH_READER_MEMORY=0 skips the memory pass; BENCH_READER_CALIBRATE=1 measures tag-dense and
// attribute-heavy pages through the DOM whatever the budget (how BYTES_PER_ELEMENT was set).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { DOM_BUDGET_BYTES, domCostEstimate, MAX_DOM_ELEMENTS, PAGE_MEMORY_BUDGET_BYTES } from "../src/research/providers/reader/dom-budget.ts";
import { machineLoad, measuredCommit, median, percentile, writeResults } from "./report.ts";

const MB = 1024 * 1024;
const CAP = 2_000_000;
const lines: string[] = [];
const log = (line = "") => {
  console.log(line);
  lines.push(line);
};

// ---------------------------------------------------------------------------------------------
// Pages.

const ARTICLE = Array.from(
  { length: 12 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of the article: the harbour wall, built in 1874, has lost a third of its stones to the sea, and the council voted on Tuesday to rebuild it before winter.</p>`,
).join("");
const shell = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Synthetic page</title></head><body><article><h1>Synthetic</h1>${ARTICLE}</article>${body}</body></html>`;
/** `unit` repeated until the page is `size` characters. */
const filled = (unit: string, size: number, wrap = (body: string) => shell(body)) => {
  const room = size - wrap("").length;
  return wrap(unit.repeat(Math.max(0, Math.floor(room / unit.length))));
};

const TAG_DENSE = "<div><span>a</span><b>b</b></div>";
const ATTRIBUTES = '<div class="card grid-item" id="x1" data-a="1" data-b="2" data-c="3" data-d="4" role="note" title="t" lang="en"><i>x</i></div>';

/** A tag-dense page of `size` characters. */
const tagDense = (size: number) => filled(TAG_DENSE, size);

const LONG_TEXT = `<p>${"The harbour wall was rebuilt in stages over the winter months. ".repeat(40)}</p>`;
const longTextOf = (size: number) => filled(LONG_TEXT, size);

/** The size of a page made by `make` whose estimate is `share` of the DOM's limit. */
function sizeAt(make: (size: number) => string, share: number): number {
  const perChar = domCostEstimate(make(100_000)) / 100_000;
  return Math.floor((DOM_BUDGET_BYTES * share) / perChar);
}
const tagDenseSizeAt = (share: number) => sizeAt(tagDense, share);
const longTextSizeAt = (share: number) => sizeAt(longTextOf, share);

function syntheticPages(): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set("synthetic/tag-dense-2mb", tagDense(CAP));
  pages.set("synthetic/attribute-heavy-2mb", filled(ATTRIBUTES, CAP));
  pages.set(
    "synthetic/nested-2mb",
    (() => {
      const depth = 60_000;
      return shell(`${"<div>".repeat(depth)}deep text${"</div>".repeat(depth)}`).slice(0, CAP);
    })(),
  );
  pages.set(
    "synthetic/link-list-2mb",
    filled('<li><a href="/section/story-1234">A headline of another story</a></li>', CAP, (b) => shell(`<ul>${b}</ul>`)),
  );
  pages.set(
    "synthetic/table-2mb",
    filled("<tr><td>Harbour Rovers</td><td>10</td><td>8</td><td>25</td></tr>", CAP, (b) => shell(`<table>${b}</table>`)),
  );
  pages.set("synthetic/long-text-2mb", longTextOf(CAP));
  for (const elements of [MAX_DOM_ELEMENTS * 0.95, MAX_DOM_ELEMENTS * 1.05]) {
    pages.set(`synthetic/tag-dense-${Math.round(elements)}-elements`, tagDense(Math.floor((elements / 3) * TAG_DENSE.length)));
  }
  for (const percent of [50, 90, 99, 110]) pages.set(`synthetic/tag-dense-at-${percent}%-of-estimate-limit`, tagDense(tagDenseSizeAt(percent / 100)));
  for (const percent of [90, 99]) pages.set(`synthetic/long-text-at-${percent}%-of-estimate-limit`, longTextOf(longTextSizeAt(percent / 100)));
  pages.set(
    "synthetic/article-200kb",
    filled(`<p>${"The harbour wall was rebuilt in stages over the winter months. ".repeat(8)}</p><div class="x"><a href="/a">link</a></div>`, 200_000),
  );
  return pages;
}

function collectedPages(dir: string | undefined): Map<string, string> {
  const pages = new Map<string, string>();
  if (!dir || !existsSync(dir)) return pages;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name, "source.html");
    if (existsSync(path)) pages.set(name, readFileSync(path, "utf8"));
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// workerd.

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: ["bench/reader/worker.ts"],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    minify: true,
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}

const COMPATIBILITY = (() => {
  const toml = readFileSync("wrangler.toml", "utf8");
  return {
    compatibilityDate: /compatibility_date\s*=\s*"([^"]+)"/.exec(toml)?.[1] ?? "2026-10-01",
    compatibilityFlags: JSON.parse(/compatibility_flags\s*=\s*(\[[^\]]*\])/.exec(toml)?.[1] ?? "[]") as string[],
  };
})();

/** A workerd serving the bundled worker (its own binary and a config of ours, as wrangler would start it). */
interface Workerd {
  pid: number;
  origin: string;
  dispose(): Promise<void>;
}

let nextPort = 28_700 + (process.pid % 500) * 2;

async function start(script: string): Promise<Workerd> {
  const dir = mkdtempSync(join(tmpdir(), "bench-reader-"));
  writeFileSync(join(dir, "worker.js"), script);
  const port = nextPort++;
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .reader) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const reader :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "${COMPATIBILITY.compatibilityDate}",
  compatibilityFlags = ${JSON.stringify(COMPATIBILITY.compatibilityFlags)},
);
`,
  );
  const child = spawn("node_modules/workerd/bin/workerd", ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "ignore", "inherit"] });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`${origin}/noop`, { method: "POST", body: "" });
      break;
    } catch (error) {
      if (tries > 200 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    pid: child.pid!,
    origin,
    async dispose() {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** CPU time (ms) the process's threads have run so far (/proc/PID/task/TID/schedstat, nanoseconds: not the machine's load). */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return ns / 1e6;
}

/** One request: the workerd's CPU time it took, its wall time, and the path extractPage took. */
async function post(server: Workerd, path: string, html: string, budget?: number): Promise<{ ms: number; wallMs: number; path: string }> {
  const headers: Record<string, string> = { "content-type": "text/html" };
  if (budget !== undefined) headers["x-budget"] = String(budget);
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const response = await fetch(`${server.origin}${path}`, { method: "POST", body: html, headers });
  const answer = (await response.json()) as { path?: string };
  return { ms: cpuMs(server.pid) - cpuBefore, wallMs: performance.now() - started, path: answer.path ?? "" };
}

const statusKb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/** Peak memory (MB) one page took in a fresh workerd, and the path extractPage took. */
async function peakMemory(script: string, html: string, budget?: number): Promise<{ mb: number; path: string }> {
  const mf = await start(script);
  try {
    const pids = [mf.pid];
    for (let i = 0; i < 3; i++) await post(mf, "/extract", shell(""));
    const before = new Map<number, number>();
    for (const pid of pids) {
      writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current VmRSS
      before.set(pid, statusKb(pid, "VmRSS"));
    }
    const { path } = await post(mf, "/extract", html, budget);
    let mb = 0;
    for (const pid of pids) mb = Math.max(mb, (statusKb(pid, "VmHWM") - before.get(pid)!) / 1024);
    return { mb, path };
  } finally {
    await mf.dispose();
  }
}

// ---------------------------------------------------------------------------------------------

const script = await bundle();
log(`# bench:reader (issue 42) — commit ${measuredCommit()}, ${new Date().toISOString()}`);
log(machineLoad());
log(`Worker bundle (extractPage alone): ${(script.length / 1024).toFixed(0)} KB, ${(gzipSync(script).length / 1024).toFixed(0)} KB gzipped.`);
log(
  `Memory budget per page: ${PAGE_MEMORY_BUDGET_BYTES / MB} MB; a page whose DOM is estimated (before parsing) past ${DOM_BUDGET_BYTES / MB} MB goes to the guard.`,
);

if (process.env.BENCH_READER_CALIBRATE === "1") {
  log("\n## Calibration: the DOM path whatever the budget (fresh workerd per page)\n");
  log("| page | chars | elements | estimate MB | measured MB |");
  log("|---|---|---|---|---|");
  const cases: [string, string][] = [];
  for (const size of [100_000, 250_000, 500_000, 1_000_000, 2_000_000]) cases.push([`tag-dense ${size}`, tagDense(size)]);
  for (const size of [250_000, 1_000_000]) cases.push([`attribute-heavy ${size}`, filled(ATTRIBUTES, size)]);
  for (const [name, html] of cases) {
    const { mb } = await peakMemory(script, html, Number.MAX_SAFE_INTEGER);
    const elements = (html.match(/<[a-zA-Z]/g) ?? []).length;
    log(`| ${name} | ${html.length} | ${elements} | ${(domCostEstimate(html) / MB).toFixed(1)} | ${mb.toFixed(1)} |`);
  }
}

const pages = new Map([...collectedPages(process.argv[2] ?? process.env.READER_PAGES), ...syntheticPages()]);
log(`\n${pages.size} pages (${[...pages.keys()].filter((name) => name.startsWith("synthetic/")).length} synthetic).`);

// CPU.
const mf = await start(script);
const cpu: { name: string; ms: number; path: string; chars: number }[] = [];
for (const [name, html] of pages) {
  let best = Infinity;
  let path = "";
  for (let run = 0; run < 3; run++) {
    const noop = await post(mf, "/noop", html);
    const extract = await post(mf, "/extract", html);
    best = Math.min(best, Math.max(0, extract.ms - noop.ms));
    path = extract.path;
  }
  cpu.push({ name, ms: best, path, chars: html.length });
}
await mf.dispose();
const collected = cpu.filter((row) => !row.name.startsWith("synthetic/"));
const all = cpu.map((row) => row.ms);
log("\n## CPU per page (ms of workerd's CPU time, least of 3 runs)\n");
log("| pages | n | median | p95 | max |");
log("|---|---|---|---|---|");
if (collected.length) {
  const ms = collected.map((row) => row.ms);
  log(`| collected | ${ms.length} | ${median(ms).toFixed(1)} | ${percentile(ms, 95).toFixed(1)} | ${Math.max(...ms).toFixed(1)} |`);
}
log(`| all | ${all.length} | ${median(all).toFixed(1)} | ${percentile(all, 95).toFixed(1)} | ${Math.max(...all).toFixed(1)} |`);
const paths = new Map<string, number>();
for (const row of cpu) paths.set(row.path, (paths.get(row.path) ?? 0) + 1);
log(`\nPaths: ${[...paths].map(([path, n]) => `${path} ${n}`).join(", ")}.`);
log("\nSynthetic pages:\n");
log("| page | chars | estimate MB | path | CPU ms |");
log("|---|---|---|---|---|");
for (const row of cpu.filter((row) => row.name.startsWith("synthetic/"))) {
  log(`| ${row.name} | ${row.chars} | ${(domCostEstimate(pages.get(row.name)!) / MB).toFixed(1)} | ${row.path} | ${row.ms.toFixed(1)} |`);
}
const slowest = [...cpu].sort((a, b) => b.ms - a.ms).slice(0, 5);
log(`\nSlowest: ${slowest.map((row) => `${row.name} ${row.ms.toFixed(1)} ms (${row.path})`).join("; ")}.`);

// Memory.
if (process.env.BENCH_READER_MEMORY !== "0") {
  const memory: { name: string; mb: number; path: string }[] = [];
  for (const [name, html] of pages) memory.push({ name, ...(await peakMemory(script, html)) });
  const mbs = memory.map((row) => row.mb);
  log("\n## Peak memory per page (MB, fresh workerd each)\n");
  log(`median ${median(mbs).toFixed(1)}, p95 ${percentile(mbs, 95).toFixed(1)}, max ${Math.max(...mbs).toFixed(1)}.`);
  const largest = [...memory].sort((a, b) => b.mb - a.mb).slice(0, 8);
  log("\n| largest pages | MB | path |");
  log("|---|---|---|");
  for (const row of largest) log(`| ${row.name} | ${row.mb.toFixed(1)} | ${row.path} |`);
  const over = memory.filter((row) => row.mb * MB > PAGE_MEMORY_BUDGET_BYTES);
  const budget = PAGE_MEMORY_BUDGET_BYTES / MB;
  log(
    over.length
      ? `\nPast the ${budget} MB budget: ${over.map((row) => `${row.name} ${row.mb.toFixed(1)} MB`).join(", ")}.`
      : `\nNo page past the ${budget} MB budget.`,
  );
  if (over.length) process.exitCode = 1;
}

log(`\nResults: ${writeResults(lines, "reader")}`);
