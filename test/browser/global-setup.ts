import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../../playwright.config";
import { startServer } from "../e2e/server";

/** Fails at once without Chromium (saying how to install it); otherwise starts the service the README's way. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not at ${CHROMIUM_PATH}. Install it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  const server = await startServer({ vars: { RATE_LIMIT_SCALE: 1000, ADMIN_EMAILS: "admin@example.com" } });
  process.env.DASHBOARD_BASE_URL = server.baseUrl;
  return server.stop;
}
