import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests of the dashboard, in the Chromium of the machine (Debian's; browser downloads are
 * impossible here), against the app served by `npm start` on a free port with a fresh state
 * (test/browser/global-setup.ts). Screenshots of each page are kept in test-results/.
 *
 * Debian's `chromium-headless-shell` first: the same engine without the desktop browser around it,
 * what Playwright itself runs headless. On our 2-core machines it took ~40% less CPU a test than
 * the full `chromium` (in new headless mode), which is the fallback.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ?? "/usr/bin/chromium-headless-shell";

export default defineConfig({
  testDir: "test/browser",
  testMatch: "**/*.browser.ts",
  globalSetup: "./test/browser/global-setup.ts",
  outputDir: "test-results",
  // Hang guards, not speed checks: on a loaded 2-core machine (both suites at once, or a shared CI
  // runner) a save that answers in 0.3 s quiet took over 5 s, Playwright's default for expect.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 2,
  retries: 1,
  failOnFlakyTests: true,
  reporter: [["list"]],
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH },
    screenshot: "on",
    // A trace records the page all along (its screencast cost ~40% of the browser's CPU a test), so
    // it is taken only on a retry: a failed test runs once more with a trace, and the run still
    // fails (failOnFlakyTests), so a retry never hides a flaky test.
    trace: "on-first-retry",
  },
});
