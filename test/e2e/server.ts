import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port";

export { freePort };

export interface StartedServer {
  baseUrl: string;
  /** POSTs JSON to `path`, with a bearer token when given. */
  post: (path: string, body: unknown, token?: string) => Promise<Response>;
  stateDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the service exactly as the README says (`npm start -- <flags>`), on a free port with a
 * fresh state directory, and waits until /healthz answers.
 */
export async function startServer(options: { vars?: Record<string, string | number>; timeoutMs?: number } = {}): Promise<StartedServer> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const vars = { RATE_LIMIT_SCALE: 100, ...options.vars };
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "deep-research-e2e-"));
  const child: ChildProcess = spawn(
    "npm",
    ["start", "--", "--port", String(port), "--persist-to", stateDir, ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`])],
    { cwd: process.cwd(), detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "1" } },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(baseUrl + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const stop = async () => {
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
    rmSync(stateDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return { baseUrl, stateDir, output: () => output, stop, post };
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`server did not become healthy within ${timeoutMs} ms:\n${output}`);
}
