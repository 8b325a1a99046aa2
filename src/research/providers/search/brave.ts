import { decodeEntities } from "../../../lib/plain-text";
import { domainOf } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";

/**
 * Brave Search web API (GET /res/v1/web/search, header X-Subscription-Token). Brave has no
 * domain parameter, but it understands `site:` operators in the query, so one included domain
 * becomes `site:` and excluded ones `-site:`; results are re-checked by the engine anyway.
 */
export class BraveSearch implements SearchProvider {
  readonly name = "brave";

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = "https://api.search.brave.com",
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const operators = [
      ...(query.includeDomains?.length === 1 ? [`site:${query.includeDomains[0]}`] : []),
      ...(query.excludeDomains ?? []).map((domain) => `-site:${domain}`),
    ];
    const params = new URLSearchParams({ q: [query.query, ...operators].join(" "), count: String(Math.min(query.limit, 20)) });
    const body = await providerJson<{ web?: { results?: { url: string; title: string; description?: string }[] } }>(
      this.name,
      `${this.baseUrl}/res/v1/web/search?${params}`,
      { headers: { Accept: "application/json", "X-Subscription-Token": this.apiKey }, signal: query.signal },
    );
    return (body.web?.results ?? []).map((result, index) => ({
      url: result.url,
      title: stripTags(result.title),
      snippet: stripTags(result.description ?? ""),
      domain: domainOf(result.url),
      score: 1 / (index + 1),
    }));
  }
}

/** Brave marks query words with <strong> in titles and descriptions. */
function stripTags(text: string): string {
  return decodeEntities(text.replace(/<[^>]+>/g, ""));
}
