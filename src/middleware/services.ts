import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { createDeps } from "../services/deps";

/** Validates the configuration (once per isolate) and builds this request's dependencies, read by every handler as `c.get("deps")`. */
export const services = createMiddleware<AppEnv>(async (c, next) => {
  c.set(
    "deps",
    createDeps(c.env, (work) => c.executionCtx.waitUntil(work), c.req.url),
  );
  await next();
});
