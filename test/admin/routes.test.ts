import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { adminUser, call, expectError, json, signupUser } from "../helpers";

/**
 * Walks every /api/admin route, from the OpenAPI document and from the app's own route table
 * (which also holds routes registered without a schema), and checks the guard on each: 401
 * without a token, 403 `forbidden` for a signed-in non-admin. The guard is mounted once, on
 * /api/admin/* in app.ts; a new admin route mounted anywhere else fails here.
 */

const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";
const fill = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, SAMPLE_ID);

/**
 * The documented admin operations, read from the app's OpenAPI registry (what /openapi.json is
 * generated from), so this walk does not depend on the document generator succeeding.
 */
async function openApiAdminRoutes(): Promise<{ method: string; path: string; route: any }[]> {
  return buildApp()
    .openAPIRegistry.definitions.filter((d): d is Extract<typeof d, { type: "route" }> => d.type === "route")
    .map((d) => ({ method: d.route.method.toUpperCase(), path: d.route.path.replace(/\/$/, ""), route: d.route as any }))
    .filter((r) => r.path.startsWith("/api/admin"));
}

function appAdminRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  return buildApp()
    .routes.filter((r) => r.path.startsWith("/api/admin") && r.method !== "ALL")
    .map((r) => ({ method: r.method, path: r.path.replace(/\/$/, "") }))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

describe("admin route table", () => {
  it("documents every admin endpoint of the spec (and the app has no undocumented admin route)", async () => {
    const documented = (await openApiAdminRoutes()).map((r) => `${r.method} ${r.path}`);
    for (const route of [
      "GET /api/admin/users",
      "GET /api/admin/users/{id}",
      "POST /api/admin/users/{id}/credits",
      "GET /api/admin/users/{id}/jobs",
      "GET /api/admin/users/{id}/ledger",
      "POST /api/admin/users/{id}/suspend",
      "POST /api/admin/users/{id}/unsuspend",
      "GET /api/admin/jobs",
      "GET /api/admin/jobs/{id}",
      "POST /api/admin/jobs/{id}/refund",
      "GET /api/admin/stats",
      "GET /api/admin/processor-events",
      "POST /api/admin/processor-events/{id}/replay",
      "GET /api/admin/overage-reports",
      "GET /api/admin/tickets",
      "GET /api/admin/tickets/{id}",
      "POST /api/admin/tickets/{id}/close",
      "POST /api/admin/tickets/{id}/reopen",
      "POST /api/admin/tickets/{id}/reply",
      "GET /api/admin/emails",
      "GET /api/admin/audit",
      "POST /api/admin/corpus",
      "DELETE /api/admin/corpus",
      "GET /api/admin/corpus/stats",
    ]) {
      expect(documented).toContain(route);
    }
    const normalise = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, "{}").replace(/\/$/, "");
    const documentedSet = new Set((await openApiAdminRoutes()).map((r) => `${r.method} ${normalise(r.path)}`));
    for (const route of appAdminRoutes()) expect(documentedSet).toContain(`${route.method} ${normalise(route.path)}`);
  });

  it("answers 401 without a token and 403 for a non-admin on every admin route", async () => {
    const user = await signupUser();
    const routes = [...(await openApiAdminRoutes()), ...appAdminRoutes()];
    expect(routes.length).toBeGreaterThanOrEqual(23);
    for (const { method, path } of routes) {
      const url = fill(path);
      const body = method === "GET" || method === "DELETE" ? undefined : {};
      const anonymous = await call(url, { method, body });
      expect(anonymous.status, `${method} ${path} without a token`).toBe(401);
      await expectError(anonymous, 401, "unauthorized");
      const bad = await call(url, { method, body, token: "not-a-jwt" });
      expect(bad.status, `${method} ${path} with a malformed token`).toBe(401);
      const nonAdmin = await call(url, { method, body, token: user.accessToken });
      expect(nonAdmin.status, `${method} ${path} as a non-admin`).toBe(403);
      await expectError(nonAdmin, 403, "forbidden");
    }
  });

  it("lets an admin through the guard on every GET list route", async () => {
    const admin = await adminUser();
    const lists = (await openApiAdminRoutes()).filter((r) => r.method === "GET" && !r.path.includes("{"));
    for (const { path } of lists) {
      const response = await call(path, { token: admin.accessToken });
      expect(response.status, path).toBe(200);
    }
  });

  it("marks every admin operation with the JWT security scheme and documents 401 and 403", async () => {
    for (const { method, path, route } of await openApiAdminRoutes()) {
      expect(route.security, `${method} ${path}`).toEqual([{ jwt: [] }]);
      expect(Object.keys(route.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["200", "401", "403"]));
    }
  });

  it("serves the admin schemas in /openapi.json", async () => {
    const response = await call("/openapi.json");
    expect(response.status).toBe(200);
    const doc = await json<any>(response);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/admin/users", "/api/admin/jobs/{id}/refund", "/api/support"]));
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "AdminUserRow",
        "AdminUserDetail",
        "CreditAdjustBody",
        "RefundBody",
        "AdminJobDetail",
        "AdminTicketDetail",
        "AdminStatsDto",
        "AdminProcessorEventRow",
        "TicketBody",
      ]),
    );
  });
});
