import type { TestProject } from "vitest/node";
import { startFixture } from "../../bench/fixture";
import { type ServerAddress, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The one `npm start` server every e2e file talks to. */
    server: ServerAddress;
    /**
     * A second one whose jobs never finish by themselves: it searches a local web fixture that
     * holds every page read. For a test that must act on a running job (cancel it): on the default
     * corpus path a job is done in well under a second, too fast to catch mid-run.
     */
    heldServer: ServerAddress;
  }
}

/** Starts the service as the README says, for all e2e files (each start costs ~15 s; the two start together). */
export default async function setup(project: TestProject) {
  const fixture = await startFixture({ latencyMs: 50, p99Ms: 50 });
  await fetch(`${fixture.baseUrl}/control/hold?after=0`, { method: "POST" });
  // The local cron ticks every 2 s instead of every minute, so a test can see a sweep happen.
  const [server, heldServer] = await Promise.all([
    startServer({ env: { LOCAL_CRON_TICK_MS: "2000" } }),
    startServer({ vars: { SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl } }),
  ]);
  project.provide("server", { baseUrl: server.baseUrl, stateDir: server.stateDir, logFile: server.logFile });
  project.provide("heldServer", { baseUrl: heldServer.baseUrl, stateDir: heldServer.stateDir, logFile: heldServer.logFile });
  return async () => {
    await Promise.all([server.stop(), heldServer.stop()]);
    await fixture.close();
  };
}
