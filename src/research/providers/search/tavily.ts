import { domainOf } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";
import { cutQuery } from "./query-length";

/** Tavily asks for queries under 400 characters (best-practices page below). */
const MAX_QUERY_CHARS = 400;

/**
 * Tavily search API (POST /search, bearer key: https://docs.tavily.com/documentation/api-reference/endpoint/search);
 * include_domains / exclude_domains are native parameters. Queries are kept under the 400
 * characters Tavily asks for (https://docs.tavily.com/documentation/best-practices/best-practices-search).
 */
export class TavilySearch implements SearchProvider {
  readonly name = "tavily";

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = "https://api.tavily.com",
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const body = await providerJson<{ results?: { url: string; title: string; content?: string; score?: number }[] }>(this.name, `${this.baseUrl}/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.apiKey}` },
      body: JSON.stringify({
        query: cutQuery(query.query, MAX_QUERY_CHARS),
        max_results: Math.min(query.limit, 20),
        search_depth: "basic",
        ...(query.includeDomains?.length ? { include_domains: query.includeDomains } : {}),
        ...(query.excludeDomains?.length ? { exclude_domains: query.excludeDomains } : {}),
      }),
      signal: query.signal,
    });
    return (body.results ?? []).map((result) => ({
      url: result.url,
      title: result.title,
      snippet: result.content ?? "",
      domain: domainOf(result.url),
      score: result.score,
    }));
  }
}
