import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { dropSimulatedRestartLines, quietThirdPartySourceMaps } from "./test/setup/quiet-output.ts";

const migrations = await readD1Migrations("./migrations");
dropSimulatedRestartLines();

/**
 * Five projects: `workers` runs inside workerd (the real runtime, with D1, Durable Objects and
 * Queues from wrangler.toml); `e2e` runs in Node and drives the server started the way the
 * README says, over real HTTP. `repo` and `sdk` are Node unit tests of the repository and the SDK;
 * `web` renders the dashboard's components into a DOM (happy-dom).
 */
export default defineConfig({
  test: {
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    // A passing test's console output (the service's logs of the failures it provokes) is noise;
    // a failing test's is shown.
    silent: "passed-only",
    // One worker more than the 2 cores of our machines: the e2e and sdk files mostly wait on HTTP,
    // so a third worker keeps the CPU busy (the suite took ~150 s with 2 workers, ~90 s with 3).
    maxWorkers: 3,
    projects: [
      {
        plugins: [
          quietThirdPartySourceMaps(),
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                // wrangler.toml says production (a deploy's default); the suite runs as local development.
                // A test of production behaviour passes its own env (ENVIRONMENT "production") to the code under test.
                ENVIRONMENT: "development",
                JWT_SECRET: "test-secret-that-is-at-least-32-characters-long",
                ADMIN_EMAILS: "admin@example.com",
                DASHBOARD_URL: "https://dashboard.example.test",
                // The tests play Cloudflare's edge: each request's CF-Connecting-IP is the client's address.
                TRUST_CF_CONNECTING_IP: "true",
                // Keep-alive comments every second, so a test can see one without waiting 15 s.
                SSE_KEEPALIVE_MS: "1000",
                // Every search and read through the research-tasks queue, as web jobs run: the lifecycle
                // tests hold a job mid-wave at its queue. The default (auto: corpus tasks in the job)
                // is what `npm start` runs, held by test/research/task-runner.test.ts and the e2e tests.
                TASK_FAN_OUT: "queue",
                // A configured processor; its HTTP is intercepted with MSW in the billing tests.
                STRIPE_SECRET_KEY: "sk_test_fake_key_for_tests",
                STRIPE_WEBHOOK_SECRET: "whsec_test_secret_for_tests",
                STRIPE_PRICE_STARTER: "price_starter_test",
                STRIPE_PRICE_HANDFUL: "price_handful_test",
                STRIPE_PRICE_WORKSHOP: "price_workshop_test",
                STRIPE_PRICE_WAREHOUSE: "price_warehouse_test",
                STRIPE_PRICE_DEVELOPER: "price_developer_test",
                STRIPE_PRICE_DEVELOPER_OVERAGE: "price_developer_overage_test",
                STRIPE_PRICE_STARTUP: "price_startup_test",
                STRIPE_PRICE_STARTUP_OVERAGE: "price_startup_overage_test",
                STRIPE_PRICE_GROWTH: "price_growth_test",
                STRIPE_PRICE_GROWTH_OVERAGE: "price_growth_overage_test",
              },
            },
          }),
        ],
        test: {
          name: "workers",
          // One runtime per worker process for all its files, not one per file (that cost ~2.5 s a
          // file). Files therefore share a database: tests use fresh accounts, IPs and ids, and
          // never assume a table is empty.
          isolate: false,
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/repo/**", "test/sdk/**"],
          setupFiles: ["./test/setup/apply-migrations.ts", "./test/setup/check-responses.ts"],
          // A guard against hangs, not a speed check: a test that takes 5 s on a quiet machine took
          // over 20 s on a loaded one (issue 26), and speed is measured by bench/.
          testTimeout: 60_000,
        },
      },
      {
        // Checks of the repository itself (the layering of src/), in Node.
        // Timeouts here and below guard against hangs; they are not speed checks (a CLI process
        // test that takes 1 s took over 5 s on a loaded machine).
        test: { name: "repo", include: ["test/repo/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        // The dashboard's component tests (web/test/), rendered into happy-dom's document with React.
        plugins: [react()],
        test: { name: "web", include: ["web/test/**/*.test.tsx"], environment: "happy-dom", testTimeout: 60_000 },
      },
      {
        // The SDK and CLI's unit tests (sdk/), in Node: fake HTTP servers on 127.0.0.1, no service.
        test: { name: "sdk", include: ["test/sdk/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/e2e/global-setup.ts"],
          // Hang guards: a file that boots its own `npm start` (restart, model) took over 2 minutes
          // with the machine loaded by a second suite.
          testTimeout: 240_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
