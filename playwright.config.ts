import { defineConfig } from "@playwright/test";

/**
 * Browser tests of the dashboard, in the Chromium of the machine (Debian's `chromium`; browser
 * downloads are impossible here), against the app served by `npm start` on a free port with a
 * fresh state (test/browser/global-setup.ts). Screenshots of each page are kept in test-results/.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "test/browser",
  testMatch: "**/*.browser.ts",
  globalSetup: "./test/browser/global-setup.ts",
  outputDir: "test-results",
  timeout: 60_000,
  workers: 2,
  reporter: [["list"]],
  use: {
    launchOptions: { executablePath: CHROMIUM_PATH },
    screenshot: "on",
    trace: "retain-on-failure",
  },
});
