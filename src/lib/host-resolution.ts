/**
 * What a host *name* resolves to, for the destinations the service contacts on a caller's behalf
 * (page reads, including every redirect hop, and webhook deliveries). Workers have no DNS API,
 * so names are resolved with DNS over HTTPS (JSON API, `application/dns-json`; Cloudflare's
 * 1.1.1.1 by default, `DNS_OVER_HTTPS_URL` to point elsewhere). A name is refused when any of its
 * A or AAAA answers (after the CNAME chain) is an address `lib/address-safety` refuses, and when
 * the resolver cannot answer (fail closed). Answers are kept per isolate for their TTL.
 *
 * Only in production: local development allows loopback and skips the lookup. A residual risk
 * remains (the name may resolve differently between this lookup and the connection: DNS
 * rebinding); see docs/decisions.md "### Reader" for what protects a deployment.
 */
import { hostProblem, isLoopbackHost, normalHost } from "./address-safety";

const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";

/** Resolves a host name to its addresses; throws when it cannot tell. */
export interface NameResolver {
  addresses(host: string): Promise<string[]>;
}

/** How a destination is judged: loopback allowed (local development), and the resolver of names (null: names judged as written). */
export interface DestinationPolicy {
  allowLoopback: boolean;
  resolver: NameResolver | null;
}

class ResolveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResolveError";
  }
}

const TYPE_A = 1;
const TYPE_CNAME = 5;
const TYPE_AAAA = 28;
/** Lookups of a CNAME target the resolver did not follow itself. */
const MAX_CNAME_LOOKUPS = 8;
/** Bounds on how long an answer is kept: a zero TTL still serves the lookups of one read; nothing past an hour. */
const MIN_TTL_SECS = 5;
const MAX_TTL_SECS = 3600;

interface DohAnswer {
  Status?: number;
  Answer?: { name?: string; type?: number; TTL?: number; data?: string }[];
  /** The SOA of a negative answer (NXDOMAIN, or no record of the type): how long the "no" holds. */
  Authority?: { name?: string; type?: number; TTL?: number; data?: string }[];
}

/** Is `host` (as the URL parser leaves it) an IP literal, which needs no lookup? */
function isIpLiteral(hostname: string): boolean {
  const host = normalHost(hostname);
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/**
 * DNS over HTTPS (the JSON API of Cloudflare and Google): A and AAAA asked together, the CNAME
 * chain followed, answers cached per name for their (smallest) TTL in a bounded map; concurrent
 * lookups of one name share one request, so a lookup has its own timeout and follows no caller's
 * abort signal. Failures are not cached.
 */
export class DohResolver implements NameResolver {
  private readonly cache = new Map<string, { addresses: Promise<string[]>; expiresAt: number }>();

  constructor(
    private readonly endpoint: string = DEFAULT_DOH_URL,
    private readonly options: { timeoutMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  addresses(hostname: string): Promise<string[]> {
    const host = normalHost(hostname);
    const now = this.now();
    const cached = this.cache.get(host);
    if (cached && cached.expiresAt > now) return cached.addresses;
    // Until the answer is in, concurrent lookups share it; it is then kept for its TTL.
    const entry = { addresses: Promise.resolve<string[]>([]), expiresAt: Number.POSITIVE_INFINITY };
    entry.addresses = this.lookup(host).then(
      ({ addresses, ttlSecs }) => {
        entry.expiresAt = this.now() + Math.min(MAX_TTL_SECS, Math.max(MIN_TTL_SECS, ttlSecs)) * 1000;
        return addresses;
      },
      (error: unknown) => {
        if (this.cache.get(host) === entry) this.cache.delete(host);
        throw error;
      },
    );
    this.cache.delete(host);
    this.cache.set(host, entry);
    const maxEntries = this.options.maxEntries ?? 1000;
    while (this.cache.size > maxEntries) this.cache.delete(this.cache.keys().next().value!);
    return entry.addresses;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async lookup(host: string): Promise<{ addresses: string[]; ttlSecs: number }> {
    let name = host;
    for (let lookups = 0; lookups <= MAX_CNAME_LOOKUPS; lookups++) {
      const [a, aaaa] = await Promise.all([this.query(name, "A"), this.query(name, "AAAA")]);
      const records = [...a.records, ...aaaa.records];
      // A "no such name" holds as long as its SOA says (RFC 2308), not the hour a positive answer may.
      const ttlSecs =
        records.length > 0
          ? Math.min(MAX_TTL_SECS, ...records.map((record) => record.TTL ?? 0))
          : Math.min(negativeTtlSecs(a.authority), negativeTtlSecs(aaaa.authority));
      const addresses = records
        .filter((record) => (record.type === TYPE_A || record.type === TYPE_AAAA) && typeof record.data === "string")
        .map((record) => record.data!.trim());
      if (addresses.length > 0) return { addresses, ttlSecs };
      // The resolver answered a CNAME without its target's addresses: ask for the target.
      const cname = records.filter((record) => record.type === TYPE_CNAME && typeof record.data === "string").pop();
      if (!cname) return { addresses: [], ttlSecs };
      name = normalHost(cname.data!);
      // A CNAME to a name judged internal as written (localhost, *.internal, an address) ends here.
      if (hostProblem(name)) return { addresses: [name], ttlSecs };
    }
    throw new ResolveError(`the CNAME chain of ${host} is longer than ${MAX_CNAME_LOOKUPS}`);
  }

  private async query(name: string, type: "A" | "AAAA"): Promise<{ records: NonNullable<DohAnswer["Answer"]>; authority: DohAnswer["Authority"] }> {
    const url = new URL(this.endpoint);
    url.searchParams.set("name", name);
    url.searchParams.set("type", type);
    let answer: DohAnswer;
    try {
      const response = await fetch(url.toString(), {
        headers: { Accept: "application/dns-json" },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new ResolveError(`the resolver answered HTTP ${response.status}`);
      }
      answer = (await response.json()) as DohAnswer;
    } catch (error) {
      if (error instanceof ResolveError) throw error;
      throw new ResolveError(`the resolver could not be asked: ${error instanceof Error ? error.message : String(error)}`);
    }
    // NOERROR and NXDOMAIN are answers (NXDOMAIN has no addresses); anything else (SERVFAIL, REFUSED) is not.
    if (answer.Status === 3) return { records: [], authority: answer.Authority };
    if (answer.Status !== 0) throw new ResolveError(`the resolver answered status ${String(answer.Status)}`);
    return { records: Array.isArray(answer.Answer) ? answer.Answer : [], authority: answer.Authority };
  }
}

/** A negative answer without an SOA to say otherwise is kept this long. */
const NEGATIVE_TTL_SECS = 60;
const TYPE_SOA = 6;

/**
 * How long a negative answer holds (RFC 2308 section 5): the smaller of the SOA record's own TTL
 * and its MINIMUM field (the last of "mname rname serial refresh retry expire minimum").
 */
export function negativeTtlSecs(authority: DohAnswer["Authority"]): number {
  const soa = (Array.isArray(authority) ? authority : []).find((record) => record.type === TYPE_SOA && typeof record.data === "string");
  if (!soa) return NEGATIVE_TTL_SECS;
  const minimum = Number(soa.data!.trim().split(/\s+/).at(-1));
  const ttl = typeof soa.TTL === "number" ? soa.TTL : NEGATIVE_TTL_SECS;
  return Math.min(MAX_TTL_SECS, ttl, Number.isFinite(minimum) ? minimum : ttl);
}

const sharedResolvers = new Map<string, DohResolver>();

/** The isolate's resolver for an endpoint (its cache is shared by every reader and delivery of the isolate). */
function sharedResolver(endpoint: string = DEFAULT_DOH_URL): DohResolver {
  let resolver = sharedResolvers.get(endpoint);
  if (!resolver) {
    resolver = new DohResolver(endpoint);
    sharedResolvers.set(endpoint, resolver);
  }
  return resolver;
}

/**
 * The policy of an environment: development allows loopback and judges names as written;
 * anything else (production) refuses loopback and resolves names first.
 */
export function destinationPolicy(config: { ENVIRONMENT: string; DNS_OVER_HTTPS_URL?: string }): DestinationPolicy {
  if (config.ENVIRONMENT === "development") return { allowLoopback: true, resolver: null };
  return { allowLoopback: false, resolver: sharedResolver(config.DNS_OVER_HTTPS_URL || DEFAULT_DOH_URL) };
}

/** Why a destination is refused; `unresolved` when only the resolver's failure refused it (worth asking again later). */
export interface DestinationRefusal {
  problem: string;
  unresolved: boolean;
}

/**
 * Why `hostname` may not be contacted, or null: the host as written (`hostProblem`; loopback
 * allowed when the policy says so), then, for a name and a policy with a resolver, every address
 * it resolves to. A name that does not resolve, or whose resolver cannot answer, is refused.
 */
export async function destinationRefusal(hostname: string, policy: DestinationPolicy): Promise<DestinationRefusal | null> {
  if (policy.allowLoopback && isLoopbackHost(hostname)) return null;
  const written = hostProblem(hostname);
  if (written) return { problem: written, unresolved: false };
  if (!policy.resolver || isIpLiteral(hostname)) return null;
  let addresses: string[];
  try {
    addresses = await policy.resolver.addresses(hostname);
  } catch (error) {
    return { problem: `a host name that could not be resolved (${error instanceof Error ? error.message : String(error)})`, unresolved: true };
  }
  if (addresses.length === 0) return { problem: "a host name that does not resolve", unresolved: false };
  for (const address of addresses) {
    const problem = hostProblem(address);
    if (problem) return { problem: `a host name that resolves to ${problem}`, unresolved: false };
    if (!isIpLiteral(address))
      return { problem: `a host name whose resolver answered something that is no address (${address.slice(0, 100)})`, unresolved: true };
  }
  return null;
}

/** `destinationRefusal`'s reason alone. */
export async function destinationProblem(hostname: string, policy: DestinationPolicy): Promise<string | null> {
  return (await destinationRefusal(hostname, policy))?.problem ?? null;
}
