import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * wrangler.toml's `run_worker_first`: which paths reach the Worker before the static assets, whose
 * single-page fallback answers any other path with the dashboard's index.html (200). Every path
 * under an API prefix must reach the Worker, so an unknown one is a JSON 404 and /mcp/ is MCP, never
 * the dashboard (issue 39, item 9b); the dashboard's own pages must not (they are the SPA's).
 */
function runWorkerFirst(): string[] {
  const toml = readFileSync("wrangler.toml", "utf8");
  const line = /^run_worker_first\s*=\s*(\[.*\])\s*$/m.exec(toml);
  if (!line) throw new Error("wrangler.toml has no one-line run_worker_first array");
  return JSON.parse(line[1]!) as string[];
}

/** Cloudflare's pattern rule: `*` matches any run of characters (slashes included); `!` excludes. */
function reachesWorker(patterns: string[], path: string): boolean {
  const matches = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`).test(path);
  const excluded = patterns.filter((p) => p.startsWith("!")).some((p) => matches(p.slice(1)));
  return !excluded && patterns.filter((p) => !p.startsWith("!")).some(matches);
}

describe("run_worker_first", () => {
  const patterns = runWorkerFirst();

  it.each([
    "/mcp",
    "/mcp/",
    "/mcp/anything",
    "/v1",
    "/v1/",
    "/v1/credits",
    "/v1/unknown/deep/path",
    "/api",
    "/api/",
    "/api/auth/verify-email",
    "/api/unknown",
    "/openapi.json",
    "/docs",
    "/docs/guides",
    "/healthz",
  ])("sends %s to the Worker", (path) => {
    expect(reachesWorker(patterns, path)).toBe(true);
  });

  it.each(["/", "/keys", "/billing", "/reset-password", "/verify-email", "/assets/index.js"])("leaves the dashboard's %s to the assets", (path) => {
    expect(reachesWorker(patterns, path)).toBe(false);
  });
});
