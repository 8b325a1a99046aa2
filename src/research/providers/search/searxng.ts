import { domainOf } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";

/**
 * A self-hosted SearXNG instance's JSON API (GET /search?format=json; the instance must list
 * `json` in its search.formats). Domains are expressed with `site:` operators.
 */
export class SearxngSearch implements SearchProvider {
  readonly name = "searxng";

  constructor(private readonly baseUrl: string) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const operators = [
      ...(query.includeDomains?.length === 1 ? [`site:${query.includeDomains[0]}`] : []),
      ...(query.excludeDomains ?? []).map((domain) => `-site:${domain}`),
    ];
    const params = new URLSearchParams({ q: [query.query, ...operators].join(" "), format: "json" });
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
