import type { TestProject } from "vitest/node";
import { type ServerAddress, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The one `npm start` server every e2e file talks to. */
    server: ServerAddress;
  }
}

/** Starts the service once, as the README says, for all e2e files (each start costs ~15 s). */
export default async function setup(project: TestProject) {
  // The local cron ticks every 2 s instead of every minute, so a test can see a sweep happen.
  const server = await startServer({ env: { LOCAL_CRON_TICK_MS: "2000" } });
  project.provide("server", { baseUrl: server.baseUrl, stateDir: server.stateDir, logFile: server.logFile });
  return () => server.stop();
}
