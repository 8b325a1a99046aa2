import { type DomainFilter, domainAllowed, domainOf } from "../../providers/domains";
import type { SearchHit } from "../../providers/types";
import { datedOutside, pageAttribution, textNamesTitle } from "../evidence";
import { decodeEntities, inRounds } from "../language";

export interface QueryHits {
  query: string;
  hits: SearchHit[];
}

export interface Candidate {
  hit: SearchHit;
  queries: string[];
}

/** Per wave, pages beyond this many from one domain wait until other domains have had a turn. */
const PREFERRED_PER_DOMAIN = 2;

/**
 * Strips the fragment and a trailing slash so the same page found twice is read once. String
 * operations only: re-serialising through URL would percent-encode "Colisée" and the url would
 * no longer match the stored document.
 */
export function canonicalUrl(url: string): string {
  const withoutFragment = url.replace(/#.*$/, "");
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/.+\/$/i.test(withoutFragment) ? withoutFragment.replace(/\/+$/, "") : withoutFragment;
}

/** The query names the page's subject: its bare title appears in the query ("Shirley Temple" for "Shirley Temple"). */
function queryNamesTitle(query: string, title: string): boolean {
  return textNamesTitle(decodeEntities(query), decodeEntities(title), { allowTypos: false });
}

/**
 * Picks the pages to read next, up to `limit`, deduplicated by URL and re-checked against the
 * domain lists:
 * 1. pages a query names by title (the page about an entity a follow-up asks for) come first:
 *    nothing may keep the page of the next hop from being read;
 * 2. then round-robin over the queries by rank, so every branch gets its best hit read before
 *    any gets its second;
 * 3. diversity is a preference, not a cap: within the wave, a domain's pages beyond
 *    PREFERRED_PER_DOMAIN wait until other domains have had their turn, then fill what is left.
 *    On a corpus where one site holds most pages (Wikipedia, the real web) they are still read;
 * 4. a question asking of several speakers ("Which presidents mentioned …") reads each speaker's
 *    best page before anyone's second (`spreadSpeakersOf`): one president's twelve speeches on a
 *    canal would otherwise fill the reads and the list.
 */
export function chooseSources(
  results: QueryHits[],
  options: {
    limit: number;
    alreadyRead: (url: string) => boolean;
    filter: DomainFilter;
    period?: { from: number; to: number } | null;
    /** The question, when it asks of several speakers: their pages are spread (4. above). */
    spreadSpeakersOf?: string;
  },
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
  const named = ordered.filter((candidate) => candidate.queries.some((query) => queryNamesTitle(query, candidate.hit.title)));
  // A page its title dates outside the asked period waits until the pages inside it have had their turn.
  const outside = (candidate: Candidate) => options.period != null && datedOutside(candidate.hit.title, options.period);
  const others = ordered.filter((candidate) => !named.includes(candidate));
  const inPeriod = [...others.filter((candidate) => !outside(candidate)), ...others.filter(outside)];
  const rest = options.spreadSpeakersOf ? speakerRounds(inPeriod, options.spreadSpeakersOf) : inPeriod;
  const chosen: Candidate[] = named.slice(0, options.limit);
  const perDomain = new Map<string, number>();
  for (const candidate of chosen) perDomain.set(candidate.hit.domain, (perDomain.get(candidate.hit.domain) ?? 0) + 1);
  const waiting: Candidate[] = [];
  for (const candidate of rest) {
    if (chosen.length >= options.limit) break;
    const count = perDomain.get(candidate.hit.domain) ?? 0;
    if (count >= PREFERRED_PER_DOMAIN) {
      waiting.push(candidate);
      continue;
    }
    perDomain.set(candidate.hit.domain, count + 1);
    chosen.push(candidate);
  }
  for (const candidate of waiting) {
    if (chosen.length >= options.limit) break;
    chosen.push(candidate);
  }
  return chosen;
}

/**
 * For a question of several speakers ("Which presidents mentioned the Peace Corps?"): pages a
 * search of the topic found before those only the question's own words found ("presidents
 * mentioned peace" finds any speech of peace), and in each part every speaker's first page before
 * anyone's second.
 */
function speakerRounds(candidates: Candidate[], question: string): Candidate[] {
  const onTopic = candidates.filter((candidate) => candidate.queries.some((query) => query !== question));
  return [...bySpeaker(onTopic), ...bySpeaker(candidates.filter((candidate) => !onTopic.includes(candidate)))];
}

/** Each speaker's first page (in order), then each one's second, and so on; a page with no speaker is its own. */
function bySpeaker(candidates: Candidate[]): Candidate[] {
  return inRounds(candidates, (candidate) => pageAttribution(candidate.hit.title).speaker ?? candidate.hit.url);
}
