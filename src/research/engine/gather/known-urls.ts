import { type DomainFilter, domainAllowed, domainOf } from "../../providers/domains";
import type { SearchHit } from "../../providers/types";
import type { Evidence } from "../evidence";
import { type Candidate, canonicalUrl, type QueryHits } from "./select";

/** A URL is at most this long: longer ones are not links a page states but noise. */
const MAX_URL_CHARS = 2000;

/**
 * The http(s) URLs written in a text, in order, each once, without the punctuation that ends the
 * sentence around it ("see https://example.org/page." is https://example.org/page).
 */
export function urlsInText(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/https?:\/\/[^\s<>"'`{}|\\^[\]]+/gi)) {
    let url = match[0].replace(/[.,;:!?]+$/, "");
    // A closing bracket belongs to the URL only when it opened one inside it ("Foo_(film)").
    while (url.endsWith(")") && (url.match(/\(/g) ?? []).length < (url.match(/\)/g) ?? []).length) url = url.slice(0, -1).replace(/[.,;:!?]+$/, "");
    if (url.length > MAX_URL_CHARS || !/^https?:\/\/[^/?#]+\.[^/?#]+/i.test(url)) continue;
    found.push(canonicalUrl(url));
  }
  return [...new Set(found)];
}

/** A page the run knows of and may read: its URL, and the title a search gave it (the URL when a passage named it). */
export interface KnownPage {
  url: string;
  title: string;
}

/**
 * The pages a run knows without having read them: search hits not read yet, and http(s) URLs
 * written in the text of pages read. These, and only these, are what a reflection may ask to
 * read next; any other URL a model names is ignored (it could be made up, or point anywhere).
 */
export class KnownPages {
  /** Every hit of every search, by canonical URL, the first time it was found. */
  private readonly hits = new Map<string, SearchHit>();

  recordHits(results: QueryHits[]): void {
    for (const result of results) {
      for (const hit of result.hits) {
        const url = canonicalUrl(hit.url);
        if (!this.hits.has(url)) this.hits.set(url, { ...hit, url, domain: hit.domain || domainOf(url) });
      }
    }
  }

  /** The pages not read yet that the domain lists allow: search hits in the order found, then links in the pages read. */
  unread(evidence: Evidence, filter: DomainFilter): KnownPage[] {
    const pages = new Map<string, KnownPage>();
    for (const [url, hit] of this.hits) pages.set(url, { url, title: hit.title || url });
    for (const doc of evidence.docs) for (const url of urlsInText(doc.text)) if (!pages.has(url)) pages.set(url, { url, title: url });
    return [...pages.values()].filter((page) => !evidence.has(page.url) && domainAllowed(domainOf(page.url), filter));
  }

  /**
   * The URLs a model asked for that the run knows, has not read and may read (domain lists), each
   * once and at most `limit`, as candidates for the next wave's reads. Any other URL is dropped.
   */
  resolve(urls: string[], evidence: Evidence, filter: DomainFilter, limit: number): Candidate[] {
    const known = new Map(this.unread(evidence, filter).map((page) => [page.url, page]));
    const chosen = new Map<string, Candidate>();
    for (const raw of urls) {
      if (chosen.size >= limit) break;
      const url = canonicalUrl(raw.trim());
      const page = known.get(url);
      if (!page || chosen.has(url)) continue;
      const hit = this.hits.get(url) ?? { url, title: page.title, snippet: "", domain: domainOf(url) };
      chosen.set(url, { hit: { ...hit, domain: hit.domain || domainOf(url) }, queries: [] });
    }
    return [...chosen.values()];
  }
}
