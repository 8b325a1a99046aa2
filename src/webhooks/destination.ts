/**
 * Where a webhook may be sent (decisions.md): https (http only for loopback hosts in local
 * development), at most 2048 characters, no credentials, and never an address in a private,
 * loopback (outside development), link-local, carrier-grade NAT, multicast or cloud metadata range.
 * Checked at submit and again at every delivery; which hosts are off limits is decided by
 * `lib/address-safety`, shared with the page reader.
 */
import { hostProblem, isLoopbackHost } from "../lib/address-safety";

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Why `raw` cannot be a webhook destination, or null when it can. */
export function webhookUrlProblem(raw: string, environment: string): string | null {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `webhook_url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "webhook_url must be an absolute URL";
  }
  if (url.username || url.password) return "webhook_url must not contain credentials";
  const localLoopback = environment === "development" && isLoopbackHost(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && localLoopback)) {
    return "webhook_url must use https (http is accepted only for loopback hosts in local development)";
  }
  if (localLoopback) return null;
  const reason = hostProblem(url.hostname);
  return reason ? `webhook_url must not point at ${reason}` : null;
}
