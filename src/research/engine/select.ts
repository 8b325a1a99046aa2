import { type DomainFilter, domainAllowed, domainOf } from "../providers/domains";
import type { SearchHit } from "../providers/types";

export interface QueryHits {
  query: string;
  hits: SearchHit[];
}

export interface Candidate {
  hit: SearchHit;
  queries: string[];
}

/** At most this many pages per domain, so one site cannot fill the brief. */
export const MAX_PER_DOMAIN = 2;

/**
 * Strips the fragment and a trailing slash so the same page found twice is read once. String
 * operations only: re-serialising through URL would percent-encode "Colisée" and the url would
 * no longer match the stored document.
 */
export function canonicalUrl(url: string): string {
  const withoutFragment = url.replace(/#.*$/, "");
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/.+\/$/i.test(withoutFragment) ? withoutFragment.replace(/\/+$/, "") : withoutFragment;
}

/**
 * Picks the pages to read next: round-robin over the queries by rank (so every branch gets its
 * best hit read before any gets its second), deduplicated by URL, re-checked against the domain
 * lists, at most MAX_PER_DOMAIN per domain, up to `limit`.
 *
 * The per-domain cap is lifted when only one domain can supply pages (include_domains names
 * one domain, or every candidate comes from one domain, as in a single-site corpus): there is
 * no diversity to gain, and capping would starve the research.
 */
export function chooseSources(
  results: QueryHits[],
  options: { limit: number; alreadyRead: (url: string) => boolean; filter: DomainFilter; perDomainSoFar?: Map<string, number> },
): Candidate[] {
  const byUrl = new Map<string, Candidate>();
  const ordered: Candidate[] = [];
  const depth = Math.max(0, ...results.map((result) => result.hits.length));
  for (let rank = 0; rank < depth; rank++) {
    for (const result of results) {
      const hit = result.hits[rank];
      if (!hit) continue;
      const url = canonicalUrl(hit.url);
      const domain = hit.domain || domainOf(url);
      if (!domainAllowed(domain, options.filter) || options.alreadyRead(url)) continue;
      const existing = byUrl.get(url);
      if (existing) {
        existing.queries.push(result.query);
        continue;
      }
      const candidate = { hit: { ...hit, url, domain }, queries: [result.query] };
      byUrl.set(url, candidate);
      ordered.push(candidate);
    }
  }
  const domains = new Set(ordered.map((candidate) => candidate.hit.domain));
  const singleDomain = (options.filter.includeDomains?.length ?? 0) === 1 || domains.size <= 1;
  const perDomain = new Map(options.perDomainSoFar ?? []);
  const chosen: Candidate[] = [];
  for (const candidate of ordered) {
    if (chosen.length >= options.limit) break;
    const count = perDomain.get(candidate.hit.domain) ?? 0;
    if (!singleDomain && count >= MAX_PER_DOMAIN) continue;
    perDomain.set(candidate.hit.domain, count + 1);
    chosen.push(candidate);
  }
  return chosen;
}
