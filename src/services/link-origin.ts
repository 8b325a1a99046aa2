import type { Config } from "../env";
import { isLoopbackHost } from "../lib/address-safety";
import { ApiError } from "../lib/errors";

/**
 * The origin of links the service hands out of the request (verification and reset emails,
 * the payment processor's return pages). A request's Host is the caller's to write, so a link
 * built from it would send a victim's reset token wherever the caller pointed it (issue 39):
 *  - DASHBOARD_URL when set (a deploy sets it: scripts/deploy.mjs);
 *  - else the request's own origin, but only when its host is loopback (npm start, the local
 *    tests: a link there leads to the reader's own machine) or listed in LINK_HOSTS;
 *  - else none: the request that would send such a link is refused (`requireLinkOrigin`).
 */
export function linkOrigin(config: Pick<Config, "DASHBOARD_URL" | "LINK_HOSTS">, requestUrl: string): string | null {
  if (config.DASHBOARD_URL) return config.DASHBOARD_URL;
  const url = new URL(requestUrl);
  if (isLoopbackHost(url.hostname)) return url.origin;
  // An entry with a port names that host and port; one without, the host on any port.
  const listed = config.LINK_HOSTS.some((entry) => entry === url.host || entry === url.hostname);
  return listed ? url.origin : null;
}

/** The link origin, or a 400 that says why none can be built for this host (nothing is sent). */
export function requireLinkOrigin(origin: string | null): string {
  if (origin !== null) return origin;
  throw ApiError.invalid(
    "Invalid request: this address is not one the service builds email or payment links for. Use the service's own address (its operator sets DASHBOARD_URL, or lists this host in LINK_HOSTS).",
  );
}
