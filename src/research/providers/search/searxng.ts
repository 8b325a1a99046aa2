import { domainOf, normalizeDomain } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";

/**
 * A self-hosted SearXNG instance's JSON API (GET /search?format=json; the instance must list
 * `json` in its search.formats: https://docs.searxng.org/dev/search_api.html).
 *
 * What it cannot do (issue 41, item 6): SearXNG's search API has no domain parameter; a query's
 * words go to each of the instance's engines as they are, and whether an engine honours `site:`
 * is up to that engine. So one included domain is sent as `site:`, several are not sent (no
 * operator for "any of these" works across engines), and at most MAX_EXCLUDE_OPERATORS excluded
 * domains go as `-site:` words, which keeps the query within what web engines take. The engine
 * drops every result outside the filters afterwards (providers/domains.ts), so the filters always
 * hold; what is lost is recall: with several included domains most results are dropped, and the
 * search source says so (search-source.ts).
 */
export class SearxngSearch implements SearchProvider {
  readonly name = "searxng";

  constructor(private readonly baseUrl: string) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const params = new URLSearchParams({ q: [query.query, ...siteOperators(query)].join(" "), format: "json" });
    const body = await providerJson<{ results?: { url: string; title: string; content?: string; score?: number }[] }>(
      this.name,
      `${this.baseUrl.replace(/\/+$/, "")}/search?${params}`,
      { headers: { Accept: "application/json" }, signal: query.signal },
    );
    return (body.results ?? []).slice(0, query.limit).map((result) => ({
      url: result.url,
      title: result.title,
      snippet: result.content ?? "",
      domain: domainOf(result.url),
      score: result.score,
    }));
  }
}

/** Excluded domains sent as `-site:` words; the rest are applied only to the results. */
export const MAX_EXCLUDE_OPERATORS = 10;

function siteOperators(query: SearchQuery): string[] {
  const [onlyIncluded, ...moreIncluded] = query.includeDomains ?? [];
  return [
    ...(onlyIncluded !== undefined && moreIncluded.length === 0 ? [`site:${normalizeDomain(onlyIncluded)}`] : []),
    ...(query.excludeDomains ?? []).slice(0, MAX_EXCLUDE_OPERATORS).map((domain) => `-site:${normalizeDomain(domain)}`),
  ];
}
