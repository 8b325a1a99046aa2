import { decodeEntities } from "../../../lib/html-entities";
import { domainOf, normalizeDomain } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";
import { cutQuery } from "./query-length";

/**
 * Brave Search web API (https://api-dashboard.search.brave.com/app/documentation/web-search,
 * header X-Subscription-Token). Domain filters go as a Goggle, Brave's own re-ranking language
 * (https://github.com/brave/goggles-quickstart, getting-started.md): an allow list is a generic
 * `$discard` (drop whatever no other instruction matches) followed by one `$boost,site=` per domain,
 * a block list one `$discard,site=` per domain. Before, two or more included domains were not sent
 * at all and exclusions went into `q` as `-site:` words, past Brave's 400-character / 50-word limit
 * (issue 41, item 6). An inline Goggle travels in the body of the POST form of the endpoint, so a
 * search with filters is a POST and one without stays the plain GET. The engine re-checks every
 * result against the filters anyway (providers/domains.ts).
 */
export class BraveSearch implements SearchProvider {
  readonly name = "brave";

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = "https://api.search.brave.com",
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const fields = { q: cutQuery(query.query, MAX_QUERY_CHARS, MAX_QUERY_WORDS), count: Math.min(query.limit, MAX_COUNT) };
    const goggle = domainGoggle(query.includeDomains ?? [], query.excludeDomains ?? []);
    const headers = { Accept: "application/json", "X-Subscription-Token": this.apiKey };
    const url = `${this.baseUrl}/res/v1/web/search`;
    const body = await providerJson<BraveWebSearchResponse>(
      this.name,
      goggle === undefined ? `${url}?${new URLSearchParams({ q: fields.q, count: String(fields.count) })}` : url,
      goggle === undefined
        ? { headers, signal: query.signal }
        : {
            method: "POST",
            headers: { ...headers, "Content-Type": "application/json" },
            body: JSON.stringify({ ...fields, goggles: [goggle] }),
            signal: query.signal,
          },
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

/** The part of Brave's WebSearchApiResponse the service reads. */
interface BraveWebSearchResponse {
  web?: { results?: { url: string; title: string; description?: string }[] };
}

/** Brave's documented bounds: `count` at most 20; `q` at most 400 characters and 50 words (longer is refused with 422). */
const MAX_COUNT = 20;
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;

/**
 * A Goggle (one instruction a line) that keeps only the included domains and drops the excluded
 * ones, or undefined when there is no filter. `site=` matches a domain and its subdomains, as our
 * filters do; an excluded domain inside an included one is still dropped (discard wins over boost).
 */
export function domainGoggle(includeDomains: string[], excludeDomains: string[]): string | undefined {
  const include = uniqueDomains(includeDomains);
  const exclude = uniqueDomains(excludeDomains);
  if (include.length === 0 && exclude.length === 0) return undefined;
  return [
    ...(include.length > 0 ? ["$discard", ...include.map((domain) => `$boost,site=${domain}`)] : []),
    ...exclude.map((domain) => `$discard,site=${domain}`),
  ].join("\n");
}

function uniqueDomains(domains: string[]): string[] {
  return [...new Set(domains.map(normalizeDomain).filter(Boolean))];
}

/** Brave marks query words with <strong> in titles and descriptions. */
function stripTags(text: string): string {
  return decodeEntities(text.replace(/<[^>]+>/g, ""));
}
