import { existsSync } from "node:fs";
import { startFixture } from "../../bench/fixture";
import { CHROMIUM_PATH } from "../../playwright.config";
import { freePort, startServer } from "../e2e/server";

/**
 * Fails at once without Chromium (saying how to install it); otherwise starts the service the
 * README's way. A second service, searching a slow local web fixture so its jobs run long enough
 * to reload and cancel (playground-live.browser.ts), boots while the first test files run: its
 * address is known at once, and that file waits for it to answer.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM_PATH}. Install it with: apt-get update && apt-get install -y chromium-headless-shell (or set CHROMIUM_PATH).`,
    );
  }
  const server = await startServer({ vars: { RATE_LIMIT_SCALE: 1000, ADMIN_EMAILS: "admin@example.com" } });
  process.env.DASHBOARD_BASE_URL = server.baseUrl;

  // Started after the first server built the dashboard, so it finds web/dist up to date.
  const fixture = await startFixture({ latencyMs: 1200, p99Ms: 1200 });
  const livePort = await freePort();
  const live = startServer({ port: livePort, vars: { RATE_LIMIT_SCALE: 1000, SEARCH_PROVIDER: "searxng", SEARXNG_URL: fixture.baseUrl } });
  live.catch(() => {}); // a failed boot is reported by the test file that waits for it
  process.env.DASHBOARD_LIVE_URL = `http://127.0.0.1:${livePort}`;
  process.env.LIVE_FIXTURE_URL = fixture.baseUrl;

  return async () => {
    await Promise.allSettled([server.stop(), live.then((started) => started.stop())]);
    await fixture.close();
  };
}
