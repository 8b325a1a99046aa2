import type { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { jwtAuth } from "./jwt-auth";

type App = OpenAPIHono<AppEnv>;

/** Where the operator operations live: the admin guard (which checks the JWT itself) is mounted on it, in app.ts. */
const ADMIN_PREFIX = "/api/admin/";

interface Operation {
  method: string;
  pattern: RegExp;
}

/** A route path (`/api/keys/{id}` or `/api/keys/:id`) as a regular expression over request paths. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\}|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (/^(\{[^}]+\}|:[A-Za-z_][A-Za-z0-9_]*)$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}/?$`);
}

/** The operations under /api (but /api/admin) that declare themselves public: `security: []` (NO_SECURITY). */
function publicOperations(app: App): Operation[] {
  return app.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const { method, path, security } = definition.route;
    if (!path.startsWith("/api/") || path.startsWith(ADMIN_PREFIX) || !security || security.length > 0) return [];
    return [{ method: method.toUpperCase(), pattern: pathPattern(path) }];
  });
}

/** Every route the app serves under /api (but /api/admin), documented or not. */
function servedOperations(app: App): Operation[] {
  return app.routes
    .filter((route) => route.path.startsWith("/api/") && !route.path.startsWith(ADMIN_PREFIX) && route.method !== "ALL")
    .map((route) => ({ method: route.method.toUpperCase(), pattern: pathPattern(route.path) }));
}

function matches(operations: Operation[], method: string, path: string): boolean {
  return operations.some((operation) => operation.method === method && operation.pattern.test(path));
}

/**
 * Dashboard auth, mounted once on /api (app.ts). Fails closed: every route served under /api
 * takes `jwtAuth` unless its operation declares itself public with `security: []`; a route that
 * forgets to declare its security, or is registered without a schema, still asks for the JWT.
 * A path no route serves stays a 404, never a 401. /api/admin is the admin guard's. The tables
 * are read on the first request, when every route is mounted.
 */
export function dashboardAuth(app: App) {
  let tables: { public: Operation[]; served: Operation[] } | undefined;
  return createMiddleware<AppEnv>(async (c, next) => {
    tables ??= { public: publicOperations(app), served: servedOperations(app) };
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const path = c.req.path;
    if (path.startsWith(ADMIN_PREFIX) || matches(tables.public, method, path) || !matches(tables.served, method, path)) return next();
    return jwtAuth(c, next);
  });
}
