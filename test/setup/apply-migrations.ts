import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: applies only what the database has not seen yet.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
