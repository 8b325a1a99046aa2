import type { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../http/context";
import { jwtAuth } from "./jwt-auth";

type Registry = OpenAPIHono<AppEnv>["openAPIRegistry"];

/** Where the operator operations live: the admin guard (which checks the JWT itself) is mounted on it, in app.ts. */
const ADMIN_PREFIX = "/api/admin/";

interface GuardedOperation {
  method: string;
  pattern: RegExp;
}

/** An OpenAPI path (`/api/keys/{id}`) as a regular expression over request paths. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}/?$`);
}

/** The operations of the registry under /api (but /api/admin) whose `security` is the JWT. */
function jwtOperations(registry: Registry): GuardedOperation[] {
  return registry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const { method, path, security } = definition.route;
    if (!path.startsWith("/api/") || path.startsWith(ADMIN_PREFIX) || !security?.some((scheme) => "jwt" in scheme)) return [];
    return [{ method: method.toUpperCase(), pattern: pathPattern(path) }];
  });
}

/**
 * Dashboard auth, mounted once on /api: an operation whose `security` declares `jwt` gets
 * `jwtAuth`; a public operation or an unknown path gets none (an unknown path stays a 404, never
 * a 401). /api/admin is the admin guard's. The registry is read on the first request, when every
 * route is mounted, so what /openapi.json says and what is enforced are one list.
 */
export function jwtAuthAsDeclared(registry: Registry) {
  let operations: GuardedOperation[] | undefined;
  return createMiddleware<AppEnv>(async (c, next) => {
    operations ??= jwtOperations(registry);
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const declared = operations.some((operation) => operation.method === method && operation.pattern.test(c.req.path));
    return declared ? jwtAuth(c, next) : next();
  });
}
