import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startFixture } from "../../bench/fixture";
import { freePort, type ServerAddress, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The one `npm start` server every e2e file talks to. */
    server: ServerAddress;
    /**
     * A second one whose jobs never finish by themselves: it searches a local web fixture that
     * holds every page read. For a test that must act on a running job (cancel it): on the default
     * corpus path a job is done in well under a second, too fast to catch mid-run. It boots while
     * the first files run: wait for it with `untilHealthy`.
     */
    heldServer: ServerAddress;
  }
}

/** Starts the service as the README says, for all e2e files (each start costs ~15 s). */
export default async function setup(project: TestProject) {
  // The local cron ticks every 2 s instead of every minute, so a test can see a sweep happen.
  const server = await startServer({ env: { LOCAL_CRON_TICK_MS: "2000" } });
  project.provide("server", { baseUrl: server.baseUrl, stateDir: server.stateDir, logFile: server.logFile });

  // Started once the first is up (two wrangler dev starting together can race for a port, and the
  // first has built the dashboard by then).
  const fixture = await startFixture({ latencyMs: 50, p99Ms: 50 });
  await fetch(`${fixture.baseUrl}/control/hold?after=0`, { method: "POST" });
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "deep-research-e2e-held-"));
  // A held read is given up only after READER_TIMEOUT_MS: at the default 10 s a loaded machine (the
  // whole suite on 2 cores) saw a "running" job finish before the test's next request cancelled it.
  const held = startServer({ port, stateDir, vars: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl, READER_TIMEOUT_MS: 600_000 } });
  held.catch(() => {}); // a failed boot is reported by the test that waits for it
  project.provide("heldServer", { baseUrl: `http://127.0.0.1:${port}`, stateDir, logFile: join(stateDir, "npm-start.log") });
  return async () => {
    await Promise.allSettled([server.stop(), held.then((started) => started.stop())]);
    rmSync(stateDir, { recursive: true, force: true });
    await fixture.close();
  };
}
