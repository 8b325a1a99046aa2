import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port";

export { freePort };

/**
 * Process groups of servers started by this process and not yet stopped. A test that times out
 * while its server boots never gets the handle to stop it; these are killed when the process
 * exits, so no `npm start` outlives the run (two did, before this, for an hour each).
 */
const running = new Set<number>();
process.once("exit", () => {
  for (const group of running) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
});

/** Where a started server is, in the serialisable form the e2e global setup hands to test files. */
export interface ServerAddress {
  baseUrl: string;
  stateDir: string;
  /** Everything `npm start` printed, appended as it comes. */
  logFile: string;
}

export interface ServerClient extends ServerAddress {
  /** POSTs JSON to `path`, with a bearer token when given. */
  post: (path: string, body: unknown, token?: string) => Promise<Response>;
  output: () => string;
}

export interface StartedServer extends ServerClient {
  /** Stops the server and removes its state directory (unless the caller passed its own `stateDir`). */
  stop: () => Promise<void>;
  /** SIGKILLs the whole process group at once, as a crash does, and keeps the state directory. */
  kill: () => Promise<void>;
  /** The process group of everything `npm start` started (npm, node, wrangler, workerd). */
  processGroup: number;
}

/** Waits until a server started elsewhere answers /healthz (the e2e global setup boots one while tests run). */
export async function untilHealthy(address: ServerAddress, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${address.baseUrl}/healthz`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${address.baseUrl} did not become healthy within ${timeoutMs} ms`);
}

/** A client of a server started elsewhere (by the e2e global setup). */
export function serverClient(address: ServerAddress): ServerClient {
  return {
    ...address,
    output: () => readFileSync(address.logFile, "utf8"),
    post: (path, body, token) =>
      fetch(address.baseUrl + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }),
  };
}

/** A new account on `on` (`label` names its email and its key) and an API key of it. */
export async function newAccount(on: Pick<ServerClient, "post">, label: string): Promise<{ accessToken: string; userId: string; key: string }> {
  const signup = await on.post("/api/auth/signup", { email: `${label}-${crypto.randomUUID()}@example.com`, password: "e2e password 1" });
  if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const { access_token: accessToken, user } = (await signup.json()) as { access_token: string; user: { id: string } };
  const created = await on.post("/api/keys", { name: label }, accessToken);
  if (!created.ok) throw new Error(`key creation failed: ${created.status} ${await created.text()}`);
  return { accessToken, userId: user.id, key: ((await created.json()) as { plaintext: string }).plaintext };
}

type StartOptions = { vars?: Record<string, string | number>; env?: Record<string, string>; timeoutMs?: number; port?: number; stateDir?: string };

/**
 * Starts the service exactly as the README says (`npm start -- <flags>`), on a free port with a
 * fresh state directory, and waits until /healthz answers. `env` adds to npm start's environment;
 * `port` is for a caller that must know the address before the server is up; `stateDir` restarts
 * a server on the state an earlier one left (that directory is then the caller's to remove).
 */
export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      // Another process bound the port between freePort() and wrangler (two suites on one machine):
      // a port of our own choosing is chosen again; one the caller fixed is theirs to handle.
      if (options.port !== undefined || attempt >= 3 || !/Address already in use/.test(String(error))) throw error;
    }
  }
}

async function startServerOnce(options: StartOptions): Promise<StartedServer> {
  const timeoutMs = options.timeoutMs ?? 240_000; // a boot takes ~13 s quiet, far more on a loaded machine
  const vars = { RATE_LIMIT_SCALE: 100, ...options.vars };
  const port = options.port ?? (await freePort());
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "deep-research-e2e-"));
  const logFile = join(stateDir, "npm-start.log");
  appendFileSync(logFile, options.stateDir ? "\n---- restarted on this state ----\n" : "");
  const child: ChildProcess = spawn(
    "npm",
    ["start", "--", "--port", String(port), "--persist-to", stateDir, ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`])],
    { cwd: process.cwd(), detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "1", ...options.env } },
  );
  if (child.pid) running.add(child.pid);
  child.stdout?.on("data", (chunk) => appendFileSync(logFile, chunk));
  child.stderr?.on("data", (chunk) => appendFileSync(logFile, chunk));
  const client = serverClient({ baseUrl: `http://127.0.0.1:${port}`, stateDir, logFile });
  const { baseUrl, output } = client;
  const stop = async () => {
    if (child.pid) running.delete(child.pid);
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM"); // the whole group: npm, node, wrangler, workerd
      } catch {
        /* already gone */
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
  };
  const kill = async () => {
    if (child.pid) running.delete(child.pid);
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return { ...client, stop, kill, processGroup: child.pid! };
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const printed = output();
  await stop();
  throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${printed}`);
}
