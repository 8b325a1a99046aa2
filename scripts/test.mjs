#!/usr/bin/env node
// `npm test`: the whole suite, both runners at once, and a verdict that names each.
//  - vitest: the workers, repo, web, sdk and e2e projects (vitest.config.ts);
//  - browser: the dashboard in Chromium (playwright.config.ts).
// They share nothing but the machine, so they run side by side (one after the other took ~8 min on
// our 2-core machines, side by side ~5.5: the two keep both cores busy, see docs/decisions.md). Each line is prefixed with its runner's name; the
// run ends with one line per runner and fails when either fails, so a failure in one can never
// hide the other (`vitest run && playwright test` never ran the browser suite after a vitest failure).
//
//   npm test                  both
//   npm test -- vitest        one of them (or: browser); further flags go to that runner
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const RUNNERS = {
  vitest: [bin("vitest"), ["run"]],
  browser: [bin("playwright"), ["test"]],
};
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what it removes
const plain = (line) => line.replace(/\u001b\[[0-9;]*m/g, "");
/** The counts each runner ends with (vitest's summary reporter; Playwright's list reporter). */
const COUNTS = /^(\d+ passed, \d+ failed, \d+ skipped)$|^\s+(\d+ (?:passed|failed|flaky|skipped|did not run|interrupted))\b/;
/** Under Playwright's "N failed" or "N flaky", the tests it names ("    file.browser.ts:12:1 › title"). */
const NAMED_TEST = /^\s{4,}(\S.*›.*)$/;

const [only, ...extra] = process.argv.slice(2);
if (only !== undefined && !(only in RUNNERS)) {
  console.error(`npm test: unknown suite "${only}" (vitest or browser; none runs both)`);
  process.exit(2);
}
const chosen = only ? [only] : Object.keys(RUNNERS);
const width = Math.max(...chosen.map((name) => name.length));
// Ctrl-C stops both runners (each cleans up the servers it started).
const children = [];
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? "1" : "0") };

function prefixOf(name) {
  return chosen.length > 1 ? `, prefixed "${name}"` : "";
}

/** Runs one suite, its output line by line behind its name; resolves with how it ended. */
function runSuite(name) {
  const [command, args] = RUNNERS[name];
  const started = Date.now();
  const child = spawn(command, [...args, ...(only ? extra : [])], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const prefix = chosen.length > 1 ? `${name.padEnd(width)} │ ` : "";
  const counts = [];
  // The tests named under a failed or flaky count, repeated in the verdict: a CI log that keeps only
  // its end still says which test failed.
  const named = [];
  let naming = null;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let pending = "";
    stream.setEncoding("utf8");
    const write = (line) => {
      const count = COUNTS.exec(plain(line));
      if (count) {
        counts.push(count[1] ?? count[2]);
        // vitest's one line names its failures below it (test/setup/summary-reporter.ts); Playwright names them under each count.
        naming = count[1] ? (/ [1-9]\d* failed/.test(count[1]) ? "failed" : null) : (/failed|flaky|interrupted/.exec(count[2])?.[0] ?? null);
      } else if (naming) {
        const test = NAMED_TEST.exec(plain(line));
        if (test) named.push(`${naming}: ${test[1].replace(/\s*─+$/, "")}`);
        else naming = null;
      }
      out.write(`${prefix}${line}\n`);
    };
    stream.on("data", (chunk) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) write(line);
    });
    stream.on("end", () => pending && write(pending));
  }
  return new Promise((resolveRun) =>
    child.on("close", (code, signal) => resolveRun({ name, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000, counts, named })),
  );
}

process.on("SIGINT", () => {
  for (const child of children) child.kill("SIGINT");
});

const results = await Promise.all(chosen.map(runSuite));
console.log("");
for (const { name, code, signal, seconds, counts, named } of results) {
  const verdict = code === 0 ? "passed" : `FAILED (${signal ? `killed by ${signal}` : `exit code ${code}`}; its failures are above${prefixOf(name)})`;
  console.log(`npm test: ${name.padEnd(width)} ${verdict} in ${seconds.toFixed(0)} s${counts.length ? `: ${counts.join(", ")}` : ""}`);
  for (const line of named) console.log(`npm test: ${name.padEnd(width)}   ${line}`);
}
const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
if (failed.length) console.log(`npm test: failed: ${failed.join(" and ")}`);
process.exit(failed.length ? 1 : 0);
