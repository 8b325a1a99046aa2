/**
 * Which URLs the reader may fetch: http(s) only, never credentials in the URL, never private,
 * link-local or metadata addresses; loopback only in local development (a benchmark points
 * a local SearXNG and local pages at 127.0.0.1).
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
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1";
  if (loopback) return allowLoopback ? parsed : null;
  if (
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    /^0\./.test(host) ||
    /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./.test(host) ||
    /^(fc|fd|fe80)/.test(host) ||
    host === "metadata.google.internal" ||
    host.endsWith(".internal")
  ) {
    return null;
  }
  return parsed;
}
