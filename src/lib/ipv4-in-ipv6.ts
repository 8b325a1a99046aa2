/**
 * The IPv4 address an IPv6 address carries, for the forms that make a host reachable through an
 * IPv4 address: whoever can send to the IPv6 form reaches the IPv4 host, so the outbound address
 * check (`lib/address-safety`) must judge that IPv4 address by the IPv4 rules. Groups are the
 * eight 16-bit groups of the address.
 *
 * Forms with no single IPv4 address to judge are `opaque` and refused whole by the caller: NAT64
 * local-use prefixes (64:ff9b:1::/48, where the operator's prefix length decides where the IPv4
 * bits sit) and Teredo (2001::/32, a tunnel through a relay we do not control, its client address
 * obfuscated).
 */
export type EmbeddedIpv4 =
  | { form: "mapped" | "translated" | "compatible" | "nat64" | "6to4"; octets: number[] }
  | { form: "nat64-local" | "teredo"; octets: null };

const octetsOf = (high: number, low: number): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];

export function embeddedIpv4(groups: readonly number[]): EmbeddedIpv4 | null {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zero64 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  // ::ffff:a.b.c.d (RFC 4291), in dotted or hex form alike once the URL parser has written it.
  if (zero64 && g4 === 0 && g5 === 0xffff) return { form: "mapped", octets: octetsOf(g6, g7) };
  // ::ffff:0:a.b.c.d, SIIT's IPv4-translated form (RFC 2765).
  if (zero64 && g4 === 0xffff && g5 === 0) return { form: "translated", octets: octetsOf(g6, g7) };
  // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 are judged before this).
  if (zero64 && g4 === 0 && g5 === 0) return { form: "compatible", octets: octetsOf(g6, g7) };
  if (g0 === 0x64 && g1 === 0xff9b) {
    // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): the last 32 bits.
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return { form: "nat64", octets: octetsOf(g6, g7) };
    return { form: "nat64-local", octets: null };
  }
  // 2002:AABB:CCDD::/48, 6to4 (RFC 3056): the IPv4 address follows the prefix.
  if (g0 === 0x2002) return { form: "6to4", octets: octetsOf(g1, g2) };
  // 2001:0000::/32, Teredo (RFC 4380).
  if (g0 === 0x2001 && g1 === 0) return { form: "teredo", octets: null };
  return null;
}
