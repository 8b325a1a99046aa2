import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations("./migrations");

/**
 * Two projects: `workers` runs inside workerd (the real runtime, with D1, Durable Objects and
 * Queues from wrangler.toml); `e2e` runs in Node and drives the server started the way the
 * README says, over real HTTP.
 */
export default defineConfig({
  test: {
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                JWT_SECRET: "test-secret-that-is-at-least-32-characters-long",
                ADMIN_EMAILS: "admin@example.com",
                DASHBOARD_URL: "https://dashboard.example.test",
              },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**"],
          setupFiles: ["./test/setup/apply-migrations.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
