/**
 * Where a webhook may be sent (decisions.md): https (http only for loopback hosts in local
 * development), at most 2048 characters, no credentials, and never an address in a private,
 * loopback (outside development), link-local, carrier-grade NAT, multicast or cloud metadata range.
 * Checked at submit and again at every delivery; which hosts are off limits is decided by
 * `lib/address-safety`, shared with the page reader. Outside development a host name is also
 * resolved (`lib/host-resolution`, DNS over HTTPS) and refused when it resolves to such an
 * address or cannot be resolved.
 */
import { hostProblem, isLoopbackHost } from "../lib/address-safety";
import { type DestinationPolicy, destinationPolicy, destinationRefusal } from "../lib/host-resolution";

const MAX_WEBHOOK_URL_LENGTH = 2048;

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

/**
 * `webhookUrlProblem`, then, under the environment's policy, what the host name resolves to:
 * the whole check, at submit and before every delivery. `unresolved` says only the resolver's
 * failure refused it. `policy` is for tests (default: the environment's, with the isolate's resolver).
 */
export async function webhookDestinationRefusal(
  raw: string,
  config: { ENVIRONMENT: string; DNS_OVER_HTTPS_URL?: string },
  policy: DestinationPolicy = destinationPolicy(config),
): Promise<{ problem: string; unresolved: boolean } | null> {
  const problem = webhookUrlProblem(raw, config.ENVIRONMENT);
  if (problem) return { problem, unresolved: false };
  const refusal = await destinationRefusal(new URL(raw).hostname, policy);
  return refusal ? { problem: `webhook_url must not point at ${refusal.problem}`, unresolved: refusal.unresolved } : null;
}
