/**
 * Where a webhook may be sent (decisions.md): https (http only for loopback hosts in local
 * development), at most 2048 characters, no credentials, and never an address in a private,
 * loopback (outside development), link-local, carrier-grade NAT, multicast or cloud metadata range.
 * Checked at submit and again at every delivery. Names are checked as written: Workers cannot
 * resolve DNS, and Cloudflare's own fetch refuses private destinations in production.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata", "instance-data", "metadata.azure.com"]);

function ipv4Octets(host: string): number[] | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const octets = host.split(".").map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

function isLoopbackHost(host: string): boolean {
  const v4 = ipv4Octets(host);
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || (v4 !== null && v4[0] === 127);
}

/** Why an IP literal or special name is off limits, or null when it is a public destination. */
function forbiddenHost(host: string): string | null {
  if (METADATA_HOSTS.has(host) || host.endsWith(".internal")) return "a cloud metadata or internal host";
  const v4 = ipv4Octets(host);
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    if (a === 127) return "a loopback address";
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private address";
    if (a === 169 && b === 254) return "a link-local or metadata address";
    if (a === 100 && b >= 64 && b <= 127) return "a carrier-grade NAT address";
    if (a === 0 || a >= 224) return "a reserved or multicast address";
    return null;
  }
  if (host.startsWith("[")) {
    const v6 = host.slice(1, -1).toLowerCase();
    if (v6 === "::1" || v6 === "::") return "a loopback address";
    if (/^f[cd]/.test(v6)) return "a private address";
    if (/^fe[89ab]/.test(v6)) return "a link-local address";
    if (v6.startsWith("::ffff:")) return "an IPv4-mapped address";
    if (/^ff/.test(v6)) return "a multicast address";
    return null;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback address";
  return null;
}

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
  const host = url.hostname.toLowerCase();
  const localLoopback = environment === "development" && isLoopbackHost(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && localLoopback)) {
    return "webhook_url must use https (http is accepted only for loopback hosts in local development)";
  }
  if (localLoopback) return null;
  const reason = forbiddenHost(host);
  return reason ? `webhook_url must not point at ${reason}` : null;
}
