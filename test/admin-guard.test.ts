import { OpenAPIHono } from "@hono/zod-openapi";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toApiError } from "../src/app";
import type { AppEnv } from "../src/http/context";
import { adminGuard } from "../src/middleware/admin-guard";
import { services } from "../src/middleware/services";
import { adminUser, BASE, dbRun, expectError, signupUser, suspendUser } from "./helpers";

/**
 * The admin routes arrive in a later issue; this mounts the guard in front of a stand-in route
 * the way the app will, so its 401/403 behaviour is pinned down now.
 */
function guardedApp() {
  const app = new OpenAPIHono<AppEnv>();
  app.use("*", services);
  app.use("/api/admin/*", adminGuard);
  app.get("/api/admin/ping", (c) => c.json({ admin: c.var.user.email }));
  app.onError((thrown, c) => {
    const error = toApiError(thrown);
    return c.json(error.toBody(), error.status, { "X-Request-Id": "test" });
  });
  return app;
}

async function ping(token?: string): Promise<Response> {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const response = await guardedApp().fetch(new Request(`${BASE}/api/admin/ping`, { headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("admin guard", () => {
  it("lets an admin (listed in ADMIN_EMAILS) through", async () => {
    const admin = await adminUser();
    const response = await ping(admin.accessToken);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ admin: admin.email });
  });

  it("answers 401 without a token or with an invalid one", async () => {
    await expectError(await ping(), 401, "unauthorized");
    await expectError(await ping("not-a-jwt"), 401, "unauthorized");
  });

  it("answers 403 forbidden for a signed-in user who is not an admin", async () => {
    const user = await signupUser();
    await expectError(await ping(user.accessToken), 403, "forbidden");
  });

  it("answers 403 account_suspended for a suspended admin", async () => {
    // A separate admin (flag set directly) so the shared admin account is never suspended.
    const user = await signupUser();
    await dbRun("update users set is_admin = 1 where id = ?", user.id);
    expect((await ping(user.accessToken)).status).toBe(200);
    await suspendUser(user.id);
    await expectError(await ping(user.accessToken), 403, "account_suspended");
  });
});
