/**
 * Which hosts the service may send requests to on a caller's behalf (webhook deliveries, page
 * reads). One module for both: names are judged as the WHATWG URL parser leaves them, which
 * already turns hex, octal, decimal and short IPv4 forms into dotted quads ("0x7f.1" ->
 * "127.0.0.1"), IDN into punycode and IPv6 into its compressed form; trailing dots are removed
 * here. A name is judged here as written; what it resolves to is judged by `lib/host-resolution`
 * (DNS over HTTPS, production only), which applies these same rules to every address.
 */

import { embeddedIpv4 } from "./ipv4-in-ipv6";

const LOOPBACK = "a loopback address";
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata", "instance-data", "metadata.azure.com"]);

/** A URL hostname without brackets or trailing dots, lower case. */
export function normalHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
}

function ipv4Octets(host: string): number[] | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return null;
  const octets = host.split(".").map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 literal as the URL parser writes it (hex groups, "::" once at most), or null. */
function ipv6Groups(host: string): number[] | null {
  if (!host.includes(":")) return null;
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((group) => Number.isInteger(group)) ? groups : null;
}

function ipv4Problem([a, b, c]: number[]): string | null {
  if (a === 127) return LOOPBACK;
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return "a private address";
  if (a === 169 && b === 254) return "a link-local or metadata address";
  if (a === 100 && b! >= 64 && b! <= 127) return "a carrier-grade NAT address";
  if (a === 0 || a! >= 224) return "a reserved or multicast address";
  if (
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) {
    return "a reserved address";
  }
  return null;
}

function ipv6Problem(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (groups.every((group) => group === 0)) return "the unspecified address";
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 1) return LOOPBACK;
  // Every form that reaches an IPv4 host is judged by that host's address (lib/ipv4-in-ipv6).
  const embedded = embeddedIpv4(groups);
  if (embedded) {
    if (embedded.octets === null) return embedded.form === "teredo" ? "a Teredo tunnel address" : "a NAT64 local-use address";
    return ipv4Problem(embedded.octets) ?? (embedded.form === "compatible" ? "an IPv4-compatible address" : null);
  }
  if (g0 === 0x2001 && g1 === 0xdb8) return "a documentation address";
  if ((g0 & 0xfe00) === 0xfc00) return "a private address";
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return "a link-local address";
  if ((g0 & 0xff00) === 0xff00) return "a multicast address";
  return null;
}

/** Is this host the local machine: localhost, *.localhost, 127/8 or ::1 in any form? */
export function isLoopbackHost(hostname: string): boolean {
  return hostProblem(hostname) === LOOPBACK;
}

/** Why a URL hostname is off limits (private, loopback, link-local, metadata, reserved), or null when public. */
export function hostProblem(hostname: string): string | null {
  const host = normalHost(hostname);
  if (METADATA_HOSTS.has(host) || host.endsWith(".internal")) return "a cloud metadata or internal host";
  if (host === "localhost" || host.endsWith(".localhost")) return LOOPBACK;
  const v4 = ipv4Octets(host);
  if (v4) return ipv4Problem(v4);
  const v6 = ipv6Groups(host);
  if (v6) return ipv6Problem(v6);
  if (host.includes(":")) return "a malformed IPv6 address";
  return null;
}
