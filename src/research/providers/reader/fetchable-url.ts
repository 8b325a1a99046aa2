import { hostProblem, isLoopbackHost } from "../../../lib/address-safety";

/**
 * Which URLs the reader may fetch: http(s) only, never credentials in the URL, never a host
 * `lib/address-safety` refuses (shared with webhooks); loopback only in local development (a
 * benchmark points a local SearXNG and local pages at 127.0.0.1).
 */
export function fetchableUrl(url: string, allowLoopback: boolean): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.username || parsed.password) return null;
  if (isLoopbackHost(parsed.hostname)) return allowLoopback ? parsed : null;
  return hostProblem(parsed.hostname) ? null : parsed;
}
