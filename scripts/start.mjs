#!/usr/bin/env node
// `npm start [-- <wrangler dev flags>]`: prepares local state, then serves the API with `wrangler dev`.
//  1. applies the D1 migrations to the same local state directory the server will use (--persist-to),
//     and seeds what the embedded defaults need (the local research corpus), in one process
//     (scripts/lib/local-state.mjs);
//  2. builds the dashboard (web/ into web/dist, served as the Worker's static assets) when its
//     sources changed since the last build;
//  3. makes sure a JWT secret exists: from .dev.vars, from `--var JWT_SECRET:...`, or a generated
//     development secret kept in the state directory (so sessions survive restarts), handed to
//     wrangler in an env file readable only by its owner, never on a command line that `ps` shows;
//  4. runs `wrangler dev` on 127.0.0.1:8787 unless --ip / --port say otherwise, passing every flag through,
//     with ENVIRONMENT=development (wrangler.toml's default is production, for a deploy) unless
//     `--var ENVIRONMENT:...` or the local env file (.dev.vars) says otherwise;
//  5. fires wrangler.toml's cron triggers on their schedule, which `wrangler dev` does not do.
// It prints one line a step (scripts/lib/wrangler-output.mjs says what of wrangler's own output is
// kept; START_VERBOSE=1 shows all of it). It is idempotent: run it as often as you like.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { environmentArgs } from "./lib/dev-environment.mjs";
import { cronsOf, startLocalCron } from "./lib/local-cron.mjs";
import { prepareLocalState } from "./lib/local-state.mjs";
import { pipeLines, wranglerOutputFilter } from "./lib/wrangler-output.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const args = process.argv.slice(2);
// No network is needed: no metrics, and no fetch of the `Request.cf` placeholder (it fails offline
// with a stack trace; the Worker reads nothing of request.cf in development).
const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env, WRANGLER_SEND_METRICS: "false" };
const verbose = process.env.START_VERBOSE === "1";

/** The value of `--name X` or `--name=X` among the pass-through flags. */
function flagValue(name) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
  }
  return undefined;
}
const hasFlag = (name) => args.some((arg) => arg === name || arg.startsWith(`${name}=`));
const hasVar = (key) => args.some((arg, i) => (arg === "--var" && args[i + 1]?.startsWith(`${key}:`)) || arg.startsWith(`--var=${key}:`));

/** Builds web/ unless web/dist was built from exactly these sources (web/, sdk/src/ and the lockfile; a hash of them is kept beside it). */
function buildDashboard() {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "dist" || name === "node_modules") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(root, "web"));
  walk(join(root, "sdk", "src")); // the dashboard imports the SDK's SSE parser
  hash.update(readFileSync(join(root, "package-lock.json")));
  const digest = hash.digest("hex");
  const stamp = join(root, "web", "dist", ".sources-sha256");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return log("dashboard: unchanged since its last build (web/dist)");
  run(join(root, "node_modules", ".bin", "vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"], "dashboard: building web/ into web/dist");
  writeFileSync(stamp, digest);
}

function log(message) {
  console.log(`[start] ${message}`);
}

function run(command, commandArgs, what) {
  log(what);
  // CI=1 makes wrangler skip its interactive confirmation.
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit", env: { ...env, CI: "1" } });
  if (result.status !== 0) {
    console.error(`[start] failed: ${what}`);
    process.exit(result.status ?? 1);
  }
}

const persistTo = flagValue("--persist-to");
const stateDir = resolve(root, persistTo ?? ".wrangler/state");

try {
  const { migrations, corpus } = await prepareLocalState(persistTo);
  log(`database: ${migrations.length ? `applied ${migrations.length} migration${migrations.length > 1 ? "s" : ""}` : "up to date"} (${stateDir}); ${corpus}`);
} catch (error) {
  console.error(`[start] failed to prepare the local database in ${stateDir}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

buildDashboard();

const devVarsPath = join(root, ".dev.vars");
const devVarsHasSecret = existsSync(devVarsPath) && /^\s*JWT_SECRET\s*=/m.test(readFileSync(devVarsPath, "utf8"));
const envFileArgs = [];
if (!devVarsHasSecret && !hasVar("JWT_SECRET")) {
  const secretFile = join(stateDir, "dev-jwt-secret");
  if (!existsSync(secretFile)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(secretFile, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  const secretEnvFile = join(stateDir, "dev-secrets.env");
  writeFileSync(secretEnvFile, `JWT_SECRET=${readFileSync(secretFile, "utf8").trim()}\n`, { mode: 0o600 });
  // Wrangler reads .dev.vars only when no --env-file is given, so name it too, after ours (later files win).
  const localFiles = hasFlag("--env-file") ? [] : existsSync(devVarsPath) ? [devVarsPath] : [".env", ".env.local"].map((f) => join(root, f)).filter(existsSync);
  for (const file of [secretEnvFile, ...localFiles]) envFileArgs.push("--env-file", file);
  log(`JWT secret: none in .dev.vars, using the generated development secret in ${secretFile} (see .dev.vars.example)`);
}
const extraArgs = [];
// wrangler.toml says production (what a deploy must be); a local run is development unless told otherwise.
extraArgs.push(...environmentArgs(args, root));
if (!hasFlag("--ip")) extraArgs.push("--ip", "127.0.0.1");
if (!hasFlag("--port")) extraArgs.push("--port", "8787");
// The local cron below fires the triggers; this stops wrangler warning that nothing does.
if (!hasFlag("--test-scheduled")) extraArgs.push("--test-scheduled");

const devArgs = ["dev", ...envFileArgs, ...args, ...extraArgs];
log(`server: wrangler ${devArgs.join(" ")}`);
const server = spawn(wrangler, devArgs, { cwd: root, stdio: verbose ? "inherit" : ["inherit", "pipe", "pipe"], env });
if (!verbose) {
  const filter = wranglerOutputFilter({ onReady: (url) => log(`ready: ${url} (dashboard at /, API reference at /docs; Ctrl-C stops)`) });
  pipeLines(server.stdout, filter, (text) => process.stdout.write(text));
  pipeLines(server.stderr, filter, (text) => process.stderr.write(text));
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));

// The cron triggers (sweep of stuck jobs, the Free plan's monthly credits) on their schedule.
const listenIp = flagValue("--ip") ?? "127.0.0.1";
const host = ["0.0.0.0", "::", "*"].includes(listenIp) ? "127.0.0.1" : listenIp.includes(":") ? `[${listenIp}]` : listenIp;
if (flagValue("--local-protocol") === "https") {
  log("local cron: not fired over --local-protocol https; trigger it by hand at /cdn-cgi/local/scheduled");
} else {
  const tickMs = process.env.LOCAL_CRON_TICK_MS ? Number(process.env.LOCAL_CRON_TICK_MS) : undefined;
  startLocalCron({ baseUrl: `http://${host}:${flagValue("--port") ?? "8787"}`, crons: cronsOf(join(root, "wrangler.toml")), tickMs, log });
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
