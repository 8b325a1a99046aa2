import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../context";
import { createDb } from "../db/client";
import { loadConfig } from "../env";
import { createEmailSender } from "../services/email";

/** Validates the configuration (once per isolate) and builds this request's services. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  const config = loadConfig(c.env);
  const db = createDb(c.env.DB);
  c.set("config", config);
  c.set("db", db);
  c.set("email", createEmailSender(db, config, (work) => c.executionCtx.waitUntil(work)));
  await next();
});
