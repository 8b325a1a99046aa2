import type { Context } from "hono";

/** The caller's IP as Cloudflare reports it (it overwrites any client-sent value at the edge). */
export function clientIp(c: Context): string {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? "unknown";
}
