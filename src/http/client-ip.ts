import type { Context } from "hono";
import type { AppEnv } from "./context";

/** The per-IP subject of every request under local emulation, where no edge vouches for an address. */
const UNVERIFIED_CLIENT = "unverified-local-client";

/**
 * The caller's IP, for per-IP limits. Cloudflare's edge sets CF-Connecting-IP, overwriting what a
 * client sent; under local emulation (wrangler dev) the client's own header reaches us unchanged,
 * so rotating it would dodge every per-IP limit. Unless the header is trusted (production by
 * default, TRUST_CF_CONNECTING_IP to say otherwise), every caller is therefore one client.
 */
export function clientIp(c: Context<AppEnv>): string {
  const config = c.get("deps").config;
  const trusted = config.TRUST_CF_CONNECTING_IP ?? config.ENVIRONMENT === "production";
  if (!trusted) return UNVERIFIED_CLIENT;
  return c.req.header("CF-Connecting-IP") ?? "unknown";
}
