/**
 * The service started exactly as a customer starts it (`npm start -- <flags>`, as
 * test/e2e/server.ts does): a free port, a fresh temporary state directory (so the demo State
 * of the Union corpus is seeded as on a first `npm start`), the evaluation's admin email in
 * ADMIN_EMAILS and raised rate limits. Stopping kills the whole process group (npm, node,
 * wrangler, workerd) and removes the state directory, also on Ctrl-C or an error.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../lib/free-port";
import { onCleanup } from "./cleanup";
import { writeSecretsFile } from "./model";

const ROOT = resolve(import.meta.dirname, "..", "..");

export interface RunningServer {
  baseUrl: string;
  /** The last lines the server printed (for error messages). */
  output: () => string;
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Blocks the thread (only for the exit handler, where nothing asynchronous runs any more). */
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

export async function isHealthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok;
  } catch {
    return false;
  }
}

/**
 * The `--env-file` flags that hand `secrets` to wrangler: the local env files wrangler would read
 * by itself (it reads none of them once one --env-file is given), then the owner-only file of the
 * secrets in the state directory. None when there are no secrets.
 */
export function secretArgs(stateDir: string, secrets: Record<string, string>): string[] {
  if (Object.keys(secrets).length === 0) return [];
  const devVars = join(ROOT, ".dev.vars");
  const local = existsSync(devVars) ? [devVars] : [".env", ".env.local"].map((name) => join(ROOT, name)).filter(existsSync);
  return [...local, writeSecretsFile(stateDir, secrets)].flatMap((file) => ["--env-file", file]);
}

/** The `npm start` command line: the variables as --var, the secrets only as the path of their env file. */
export function startArgs(port: number, stateDir: string, vars: Record<string, string | number>, secrets: Record<string, string>): string[] {
  return [
    "start",
    "--",
    "--port",
    String(port),
    "--persist-to",
    stateDir,
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ...secretArgs(stateDir, secrets),
  ];
}

export async function startServer(options: {
  vars: Record<string, string | number>;
  /** Handed to the service in an owner-only env file under the state directory, never on the command line. */
  secrets?: Record<string, string>;
  timeoutMs?: number;
  echo?: boolean;
}): Promise<RunningServer> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "deep-research-eval-"));
  const args = startArgs(port, stateDir, options.vars, options.secrets ?? {});
  const child: ChildProcess = spawn("npm", args, {
    cwd: ROOT,
    detached: true, // its own process group, so the whole tree can be stopped at once
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
  });
  const pid = child.pid!;
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (options.echo) process.stderr.write(chunk);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    signalGroup(pid, "SIGKILL");
    // Give the killed processes a moment to go, so they write nothing more under stateDir.
    for (let waited = 0; waited < 2_000 && groupAlive(pid); waited += 50) sleepSync(50);
    rmSync(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  const stop = async () => {
    if (stopped) return;
    signalGroup(pid, "SIGTERM");
    for (let waited = 0; waited < 5_000 && groupAlive(pid); waited += 100) await sleep(100);
    stopSync();
  };
  onCleanup({ run: stop, runSync: stopSync });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await isHealthy(baseUrl)) return { baseUrl, output: () => output, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(
    child.exitCode !== null
      ? `npm start exited with ${child.exitCode} before serving:\n${output}`
      : `npm start did not answer /healthz within ${timeoutMs / 1000} s:\n${output}`,
  );
}
