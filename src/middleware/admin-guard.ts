import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { jwtAuth } from "./jwt-auth";

/** Every /api/admin route: 401 without a valid JWT, 403 for a user who is not an admin. */
export const adminGuard = createMiddleware<AppEnv>(async (c, next) =>
  jwtAuth(c, async () => {
    if (!c.get("user").isAdmin) throw new ApiError("forbidden", "Admin access required.");
    await next();
  }),
);
