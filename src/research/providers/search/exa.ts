import { domainOf } from "../domains";
import { providerJson } from "../http";
import type { SearchHit, SearchProvider, SearchQuery } from "../types";

/** Characters of highlight asked per result: the snippet a search hit shows (about two sentences). */
const EXA_HIGHLIGHT_CHARS = 500;

/** Exa search API (POST /search, x-api-key); includeDomains / excludeDomains are native parameters. */
export class ExaSearch implements SearchProvider {
  readonly name = "exa";

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = "https://api.exa.ai",
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const body = await providerJson<{ results?: { url: string; title?: string | null; text?: string; highlights?: string[]; score?: number }[] }>(
      this.name,
      `${this.baseUrl}/search`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": this.apiKey },
        body: JSON.stringify({
          query: query.query,
          numResults: Math.min(query.limit, 25),
          ...(query.includeDomains?.length ? { includeDomains: query.includeDomains } : {}),
          ...(query.excludeDomains?.length ? { excludeDomains: query.excludeDomains } : {}),
          // maxCharacters, not the deprecated numSentences (Exa's 2026-02-02 API changelog:
          // https://exa.ai/docs/changelog/february-2026-api-updates); about two sentences of snippet.
          contents: { highlights: { maxCharacters: EXA_HIGHLIGHT_CHARS } },
        }),
        signal: query.signal,
      },
    );
    return (body.results ?? []).map((result) => ({
      url: result.url,
      title: result.title ?? result.url,
      snippet: result.highlights?.join(" ") ?? result.text?.slice(0, 300) ?? "",
      domain: domainOf(result.url),
      score: result.score,
    }));
  }
}
