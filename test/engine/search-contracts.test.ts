import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BraveSearch, domainGoggle } from "../../src/research/providers/search/brave";
import { ExaSearch } from "../../src/research/providers/search/exa";
import { cutQuery } from "../../src/research/providers/search/query-length";
import { MAX_EXCLUDE_OPERATORS, SearxngSearch } from "../../src/research/providers/search/searxng";
import { TavilySearch } from "../../src/research/providers/search/tavily";
import { ProviderError } from "../../src/research/providers/types";

/**
 * Contract tests for the search providers (issue 41, items 6 and 10): each provider's documented
 * request and response, replayed through our code. The response bodies are the providers' own
 * documented examples (trimmed to a result or two, field names and nesting unchanged), so a
 * mismatch between what we send or read and what the provider documents fails here:
 * - Brave Web Search: https://api-dashboard.search.brave.com/app/documentation/web-search/query
 *   (parameters: `q` at most 400 characters and 50 words, `count` at most 20, `goggles` a URL or
 *   an inline definition; GET, or POST with the same fields as a JSON body) and .../responses
 *   (WebSearchApiResponse). Goggle syntax: https://github.com/brave/goggles-quickstart
 *   (getting-started.md "How can I exclude any result not matched by my Goggle?").
 * - Tavily: https://docs.tavily.com/documentation/api-reference/endpoint/search
 * - Exa: https://exa.ai/docs/reference/search (highlights.maxCharacters:
 *   https://exa.ai/docs/changelog/february-2026-api-updates)
 * - SearXNG: https://docs.searxng.org/dev/search_api.html (format=json; no domain parameter).
 */

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BRAVE = "https://api.search.brave.com/res/v1/web/search";

/** Brave's documented WebSearchApiResponse, one result kept. */
const braveResponse = {
  type: "search",
  query: {
    original: "tariff of 1828",
    show_strict_warning: false,
    is_navigational: false,
    is_news_breaking: false,
    spellcheck_off: true,
    country: "us",
    bad_results: false,
    should_fallback: false,
    postal_code: "",
    city: "",
    header_country: "",
    more_results_available: true,
    state: "",
  },
  mixed: { type: "mixed", main: [{ type: "web", index: 0, all: false }], top: [], side: [] },
  web: {
    type: "search",
    results: [
      {
        title: "<strong>Tariff of 1828</strong> - Wikipedia",
        url: "https://en.wikipedia.org/wiki/Tariff_of_1828",
        is_source_local: false,
        is_source_both: false,
        description: "The <strong>Tariff of 1828</strong> was a very high protective tariff &amp; became law in the United States in May 1828.",
        page_age: "2024-11-02T08:11:04",
        profile: {
          name: "Wikipedia",
          url: "https://en.wikipedia.org/wiki/Tariff_of_1828",
          long_name: "en.wikipedia.org",
          img: "https://imgs.search.brave.com/x/favicon.png",
        },
        language: "en",
        family_friendly: true,
        type: "search_result",
        subtype: "generic",
        is_live: false,
        meta_url: {
          scheme: "https",
          netloc: "en.wikipedia.org",
          hostname: "en.wikipedia.org",
          favicon: "https://imgs.search.brave.com/x/favicon.png",
          path: "› wiki  › Tariff_of_1828",
        },
        age: "November 2, 2024",
      },
    ],
    family_friendly: true,
  },
};

describe("Brave Search", () => {
  it("without domain filters: GET with q and count, X-Subscription-Token, results read from web.results", async () => {
    let seen: { url: string; headers: Headers } | undefined;
    server.use(
      http.get(BRAVE, ({ request }) => {
        seen = { url: request.url, headers: request.headers };
        return HttpResponse.json(braveResponse);
      }),
    );
    const hits = await new BraveSearch("BSA-key").search({ query: "tariff of 1828", limit: 50 });
    const url = new URL(seen!.url);
    expect([...url.searchParams.keys()].sort()).toEqual(["count", "q"]);
    expect(url.searchParams.get("q")).toBe("tariff of 1828");
    expect(url.searchParams.get("count")).toBe("20"); // Brave's maximum
    expect(seen!.headers.get("X-Subscription-Token")).toBe("BSA-key");
    expect(seen!.headers.get("Accept")).toBe("application/json");
    expect(hits).toEqual([
      {
        url: "https://en.wikipedia.org/wiki/Tariff_of_1828",
        title: "Tariff of 1828 - Wikipedia",
        snippet: "The Tariff of 1828 was a very high protective tariff & became law in the United States in May 1828.",
        domain: "en.wikipedia.org",
        score: 1,
      },
    ]);
  });

  it("with several included and excluded domains: POST with the filters as one inline Goggle, nothing added to q", async () => {
    let body: Record<string, unknown> | undefined;
    let contentType: string | null = null;
    server.use(
      http.post(BRAVE, async ({ request }) => {
        contentType = request.headers.get("Content-Type");
        expect(new URL(request.url).search).toBe("");
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(braveResponse);
      }),
    );
    const hits = await new BraveSearch("BSA-key").search({
      query: "tariff of 1828",
      limit: 10,
      includeDomains: ["wikipedia.org", "www.loc.gov", "*.archives.gov"],
      excludeDomains: ["es.wikipedia.org"],
    });
    expect(contentType).toBe("application/json");
    expect(body).toEqual({
      q: "tariff of 1828",
      count: 10,
      goggles: ["$discard\n$boost,site=wikipedia.org\n$boost,site=loc.gov\n$boost,site=archives.gov\n$discard,site=es.wikipedia.org"],
    });
    expect(hits.map((hit) => hit.url)).toEqual(["https://en.wikipedia.org/wiki/Tariff_of_1828"]);
  });

  it("50 excluded domains stay out of q (which stays within 400 characters and 50 words); each is a discard instruction", async () => {
    let body: { q: string; goggles: string[] } | undefined;
    server.use(
      http.post(BRAVE, async ({ request }) => {
        body = (await request.json()) as { q: string; goggles: string[] };
        return HttpResponse.json({ type: "search", web: { type: "search", results: [] } });
      }),
    );
    const excluded = Array.from({ length: 50 }, (_, i) => `blocked-site-number-${i}.example.com`);
    const question = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    expect(await new BraveSearch("k").search({ query: question, limit: 5, excludeDomains: excluded })).toEqual([]);
    expect(body!.q.length).toBeLessThanOrEqual(400);
    expect(body!.q.split(" ")).toHaveLength(50);
    expect(body!.q).not.toMatch(/site:/);
    const instructions = (body!.goggles[0] ?? "").split("\n");
    expect(instructions).toHaveLength(50);
    expect(instructions.every((line) => /^\$discard,site=blocked-site-number-\d+\.example\.com$/.test(line))).toBe(true);
  });

  it("a 422 for a bad parameter is a ProviderError that is not retried", async () => {
    server.use(
      http.get(BRAVE, () =>
        HttpResponse.json(
          {
            type: "ErrorResponse",
            error: {
              id: "c7b3c6c4",
              status: 422,
              code: "VALIDATION",
              detail: "Unable to validate request parameter(s)",
              meta: { errors: [{ type: "string_too_long", loc: ["query", "q"], msg: "String should have at most 400 characters" }] },
            },
          },
          { status: 422 },
        ),
      ),
    );
    const error = await new BraveSearch("k").search({ query: "q", limit: 5 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(422);
    expect((error as ProviderError).retryable).toBe(false);
  });
});

describe("domainGoggle", () => {
  it("no filter is no Goggle; an exclude-only list discards just those; duplicates and www. collapse", () => {
    expect(domainGoggle([], [])).toBeUndefined();
    expect(domainGoggle([], ["x.com", "www.x.com"])).toBe("$discard,site=x.com");
    expect(domainGoggle(["A.example"], [])).toBe("$discard\n$boost,site=a.example");
  });
});

describe("cutQuery", () => {
  it("cuts at a word boundary to the character and word limits", () => {
    expect(cutQuery("  one   two three ", 400)).toBe("one two three");
    expect(cutQuery("alpha beta gamma", 11)).toBe("alpha beta");
    expect(cutQuery("a b c d", 100, 2)).toBe("a b");
    expect(cutQuery("x".repeat(500), 400)).toHaveLength(400);
  });
});

describe("Tavily", () => {
  it("sends Tavily's documented body with a bearer key and reads its documented response", async () => {
    let seen: { auth: string | null; body: Record<string, unknown> } | undefined;
    server.use(
      http.post("https://api.tavily.com/search", async ({ request }) => {
        seen = { auth: request.headers.get("Authorization"), body: (await request.json()) as Record<string, unknown> };
        return HttpResponse.json({
          query: "Who is Leo Messi?",
          answer: null,
          images: [],
          results: [
            {
              title: "Lionel Messi Facts | Britannica",
              url: "https://www.britannica.com/facts/Lionel-Messi",
              content: "Lionel Messi, an Argentine footballer, is widely regarded as one of the greatest football players of his generation.",
              score: 0.81025416,
              raw_content: null,
              favicon: "https://britannica.com/favicon.png",
            },
          ],
          auto_parameters: { topic: "general", search_depth: "basic" },
          response_time: "1.67",
          usage: { credits: 1 },
          request_id: "123e4567-e89b-12d3-a456-426614174111",
        });
      }),
    );
    const hits = await new TavilySearch("tvly-dev-key").search({
      query: `Who is Leo Messi? ${"and more ".repeat(60)}`,
      limit: 30,
      includeDomains: ["britannica.com"],
      excludeDomains: ["x.com"],
    });
    expect(seen!.auth).toBe("Bearer tvly-dev-key");
    expect(seen!.body).toEqual({
      query: expect.stringMatching(/^Who is Leo Messi\? and more/),
      max_results: 20, // Tavily's maximum
      search_depth: "basic",
      include_domains: ["britannica.com"],
      exclude_domains: ["x.com"],
    });
    expect((seen!.body.query as string).length).toBeLessThanOrEqual(400);
    expect(hits).toEqual([
      {
        url: "https://www.britannica.com/facts/Lionel-Messi",
        title: "Lionel Messi Facts | Britannica",
        snippet: "Lionel Messi, an Argentine footballer, is widely regarded as one of the greatest football players of his generation.",
        domain: "britannica.com",
        score: 0.81025416,
      },
    ]);
  });

  it("a 401 (invalid key) is not retried; a 432 (plan limit) is not either", async () => {
    for (const [status, detail] of [
      [401, { error: "Unauthorized: missing or invalid API key." }],
      [432, { error: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com" }],
    ] as const) {
      server.use(http.post("https://api.tavily.com/search", () => HttpResponse.json({ detail }, { status })));
      const error = await new TavilySearch("k").search({ query: "q", limit: 5 }).catch((thrown: unknown) => thrown);
      expect((error as ProviderError).status).toBe(status);
      expect((error as ProviderError).retryable).toBe(false);
    }
  });
});

describe("Exa", () => {
  it("sends Exa's documented body with x-api-key and reads highlights from its documented response", async () => {
    let seen: { key: string | null; body: Record<string, unknown> } | undefined;
    server.use(
      http.post("https://api.exa.ai/search", async ({ request }) => {
        seen = { key: request.headers.get("x-api-key"), body: (await request.json()) as Record<string, unknown> };
        return HttpResponse.json({
          requestId: "b5947044c4b78efa9552a7c89b306d95",
          resolvedSearchType: "neural",
          results: [
            {
              title: "A Comprehensive Overview of Large Language Models",
              url: "https://arxiv.org/pdf/2307.06435.pdf",
              publishedDate: "2023-11-16T01:36:32.547Z",
              author: "Humza Naveed, University of Engineering and Technology (UET), Lahore, Pakistan",
              id: "https://arxiv.org/abs/2307.06435",
              image: "https://arxiv.org/pdf/2307.06435.pdf/page_1.png",
              favicon: "https://arxiv.org/favicon.ico",
              highlights: ["Such requirements have limited their adoption..."],
              highlightScores: [0.4600165784358978],
            },
          ],
          searchType: "auto",
          costDollars: { total: 0.005 },
        });
      }),
    );
    const hits = await new ExaSearch("exa-key").search({ query: "large language models", limit: 40, includeDomains: ["arxiv.org"] });
    expect(seen!.key).toBe("exa-key");
    expect(seen!.body).toEqual({
      query: "large language models",
      numResults: 25,
      includeDomains: ["arxiv.org"],
      contents: { highlights: { maxCharacters: 500 } },
    });
    expect(hits).toEqual([
      {
        url: "https://arxiv.org/pdf/2307.06435.pdf",
        title: "A Comprehensive Overview of Large Language Models",
        snippet: "Such requirements have limited their adoption...",
        domain: "arxiv.org",
        score: undefined,
      },
    ]);
  });
});

describe("SearXNG", () => {
  const searxngResponse = {
    query: "tariff",
    number_of_results: 0,
    results: [
      {
        url: "https://en.wikipedia.org/wiki/Tariff",
        title: "Tariff - Wikipedia",
        content: "A tariff is a tax imposed by the government of a country on imports.",
        publishedDate: null,
        thumbnail: "",
        engine: "duckduckgo",
        template: "default.html",
        parsed_url: ["https", "en.wikipedia.org", "/wiki/Tariff", "", "", ""],
        img_src: "",
        priority: "",
        engines: ["duckduckgo", "brave"],
        positions: [1, 2],
        score: 3.0,
        category: "general",
      },
    ],
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: ["tariff definition"],
    unresponsive_engines: [["google", "timeout"]],
  };

  it("has no domain parameter: one included domain as site:, several not sent, excluded ones as -site: up to the bound", async () => {
    const queries: string[] = [];
    server.use(
      http.get("http://127.0.0.1:8888/search", ({ request }) => {
        const url = new URL(request.url);
        expect(url.searchParams.get("format")).toBe("json");
        queries.push(url.searchParams.get("q")!);
        return HttpResponse.json(searxngResponse);
      }),
    );
    const searxng = new SearxngSearch("http://127.0.0.1:8888");
    const hits = await searxng.search({ query: "tariff", limit: 5, includeDomains: ["*.wikipedia.org"] });
    await searxng.search({ query: "tariff", limit: 5, includeDomains: ["wikipedia.org", "loc.gov"] });
    const excluded = Array.from({ length: 30 }, (_, i) => `x${i}.example`);
    await searxng.search({ query: "tariff", limit: 5, excludeDomains: excluded });
    expect(queries[0]).toBe("tariff site:wikipedia.org");
    expect(queries[1]).toBe("tariff");
    expect(queries[2]).toBe(
      `tariff ${excluded
        .slice(0, MAX_EXCLUDE_OPERATORS)
        .map((domain) => `-site:${domain}`)
        .join(" ")}`,
    );
    expect(hits).toEqual([
      {
        url: "https://en.wikipedia.org/wiki/Tariff",
        title: "Tariff - Wikipedia",
        snippet: "A tariff is a tax imposed by the government of a country on imports.",
        domain: "en.wikipedia.org",
        score: 3,
      },
    ]);
  });
});
