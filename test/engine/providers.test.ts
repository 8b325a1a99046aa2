import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createProviders, NoEvidenceError, runResearch } from "../../src/research/engine";
import { createChatModel, createSearchProvider, ProviderConfigError } from "../../src/research/providers";
import { AnthropicModel } from "../../src/research/providers/llm/anthropic";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { WorkersAiModel } from "../../src/research/providers/llm/workers-ai";
import { CachedReader } from "../../src/research/providers/reader/cached-reader";
import { RobotsCache } from "../../src/research/providers/reader/robots";
import { WebReader } from "../../src/research/providers/reader/web-reader";
import { BraveSearch } from "../../src/research/providers/search/brave";
import { ExaSearch } from "../../src/research/providers/search/exa";
import { SearxngSearch } from "../../src/research/providers/search/searxng";
import { TavilySearch } from "../../src/research/providers/search/tavily";
import { ProviderError, type SearchProvider } from "../../src/research/providers/types";
import { budgetsForMode } from "../../src/research/pricing";
import { DohResolver } from "../../src/lib/host-resolution";
import { MAX_REDIRECTS } from "../../src/research/providers/reader/web-reader";
import { dohHandler } from "../doh";

// Every outbound request is intercepted; an unhandled one fails the test (never the real network).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const errorCases = [
  { status: 429, body: { error: "rate limit exceeded" }, message: /rate limited/ },
  { status: 500, body: { error: "internal" }, message: /HTTP 500/ },
  { status: 503, body: { error: "unavailable" }, message: /HTTP 503/ },
];

async function expectProviderError(provider: SearchProvider, status: number, message: RegExp) {
  const error = await provider.search({ query: "tariff", limit: 5 }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).status).toBe(status);
  expect((error as ProviderError).retryable).toBe(true);
  expect((error as ProviderError).message).toMatch(message);
}

describe("Brave Search", () => {
  it("sends the key and the query (GET when there is no domain filter), and maps web.results", async () => {
    let seen: URL | undefined;
    let token: string | null = null;
    server.use(
      http.get("https://api.search.brave.com/res/v1/web/search", ({ request }) => {
        seen = new URL(request.url);
        token = request.headers.get("X-Subscription-Token");
        return HttpResponse.json({
          type: "search",
          query: { original: seen.searchParams.get("q") },
          web: {
            type: "search",
            results: [
              {
                type: "search_result",
                title: "The <strong>Tariff</strong> of 1828",
                url: "https://www.history.example/tariff",
                description: "A <strong>tariff</strong> passed in 1828.",
                age: "2 days ago",
              },
              { type: "search_result", title: "Tariffs today", url: "https://news.example.org/tariffs", description: "Modern tariffs." },
            ],
          },
        });
      }),
    );
    const hits = await new BraveSearch("brave-key").search({
      query: "tariff 1828",
      limit: 5,
    });
    expect(token).toBe("brave-key");
    expect(seen?.searchParams.get("q")).toBe("tariff 1828");
    expect(seen?.searchParams.get("count")).toBe("5");
    expect(hits).toEqual([
      { url: "https://www.history.example/tariff", title: "The Tariff of 1828", snippet: "A tariff passed in 1828.", domain: "history.example", score: 1 },
      { url: "https://news.example.org/tariffs", title: "Tariffs today", snippet: "Modern tariffs.", domain: "news.example.org", score: 0.5 },
    ]);
  });

  it.each(errorCases)("reports HTTP $status as a retryable ProviderError", async ({ status, body, message }) => {
    server.use(http.get("https://api.search.brave.com/res/v1/web/search", () => HttpResponse.json(body, { status })));
    await expectProviderError(new BraveSearch("k"), status, message);
  });
});

describe("Tavily", () => {
  it("passes include_domains / exclude_domains natively and maps results", async () => {
    let body: Record<string, unknown> = {};
    server.use(
      http.post("https://api.tavily.com/search", async ({ request }) => {
        expect(request.headers.get("Authorization")).toBe("Bearer tvly-key");
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({
          query: body.query,
          answer: null,
          images: [],
          results: [
            {
              title: "Tariff of 1828",
              url: "https://en.wikipedia.org/wiki/Tariff_of_1828",
              content: "The Tariff of 1828 was a protective tariff.",
              score: 0.91,
              raw_content: null,
            },
          ],
          response_time: 1.2,
        });
      }),
    );
    const hits = await new TavilySearch("tvly-key").search({ query: "tariff", limit: 3, includeDomains: ["wikipedia.org"], excludeDomains: ["x.com"] });
    expect(body).toMatchObject({ query: "tariff", max_results: 3, include_domains: ["wikipedia.org"], exclude_domains: ["x.com"] });
    expect(hits).toEqual([
      {
        url: "https://en.wikipedia.org/wiki/Tariff_of_1828",
        title: "Tariff of 1828",
        snippet: "The Tariff of 1828 was a protective tariff.",
        domain: "en.wikipedia.org",
        score: 0.91,
      },
    ]);
  });

  it.each(errorCases)("reports HTTP $status as a retryable ProviderError", async ({ status, body, message }) => {
    server.use(http.post("https://api.tavily.com/search", () => HttpResponse.json(body, { status })));
    await expectProviderError(new TavilySearch("k"), status, message);
  });
});

describe("Exa", () => {
  it("passes includeDomains / excludeDomains natively and maps results with highlights", async () => {
    let body: Record<string, unknown> = {};
    server.use(
      http.post("https://api.exa.ai/search", async ({ request }) => {
        expect(request.headers.get("x-api-key")).toBe("exa-key");
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({
          requestId: "b5947044c4b78efa9552a7c89b306d95",
          resolvedSearchType: "neural",
          results: [
            {
              id: "https://www.britannica.com/event/Tariff-of-1828",
              title: "Tariff of 1828",
              url: "https://www.britannica.com/event/Tariff-of-1828",
              publishedDate: "2023-11-16T01:36:32.547Z",
              author: "Editors",
              score: 0.38,
              highlights: ["Tariff of 1828, also called Tariff of Abominations."],
              highlightScores: [0.4],
            },
          ],
        });
      }),
    );
    const hits = await new ExaSearch("exa-key").search({ query: "tariff", limit: 4, includeDomains: ["britannica.com"] });
    expect(body).toMatchObject({ query: "tariff", numResults: 4, includeDomains: ["britannica.com"] });
    // highlights by maxCharacters: numSentences is deprecated (https://exa.ai/docs/changelog/february-2026-api-updates).
    expect(body.contents).toEqual({ highlights: { maxCharacters: 500 } });
    expect(body.excludeDomains).toBeUndefined();
    expect(hits).toEqual([
      {
        url: "https://www.britannica.com/event/Tariff-of-1828",
        title: "Tariff of 1828",
        snippet: "Tariff of 1828, also called Tariff of Abominations.",
        domain: "britannica.com",
        score: 0.38,
      },
    ]);
  });

  it.each(errorCases)("reports HTTP $status as a retryable ProviderError", async ({ status, body, message }) => {
    server.use(http.post("https://api.exa.ai/search", () => HttpResponse.json(body, { status })));
    await expectProviderError(new ExaSearch("k"), status, message);
  });
});

describe("SearXNG", () => {
  it("asks the JSON format and maps results", async () => {
    let seen: URL | undefined;
    server.use(
      http.get("http://127.0.0.1:8888/search", ({ request }) => {
        seen = new URL(request.url);
        return HttpResponse.json({
          query: seen.searchParams.get("q"),
          number_of_results: 0,
          results: [
            {
              url: "https://en.wikipedia.org/wiki/Tariff",
              title: "Tariff - Wikipedia",
              content: "A tariff is a tax on imports.",
              engine: "wikipedia",
              engines: ["wikipedia"],
              positions: [1],
              score: 1.5,
              category: "general",
            },
            { url: "https://example.com/b", title: "B", content: "b", engine: "duckduckgo", score: 0.5 },
          ],
          answers: [],
          suggestions: [],
          unresponsive_engines: [],
        });
      }),
    );
    const hits = await new SearxngSearch("http://127.0.0.1:8888/").search({ query: "tariff", limit: 1, includeDomains: ["wikipedia.org"] });
    expect(seen?.searchParams.get("format")).toBe("json");
    expect(seen?.searchParams.get("q")).toBe("tariff site:wikipedia.org");
    expect(hits).toEqual([
      {
        url: "https://en.wikipedia.org/wiki/Tariff",
        title: "Tariff - Wikipedia",
        snippet: "A tariff is a tax on imports.",
        domain: "en.wikipedia.org",
        score: 1.5,
      },
    ]);
  });

  it.each(errorCases)("reports HTTP $status as a retryable ProviderError", async ({ status, body, message }) => {
    server.use(http.get("http://127.0.0.1:8888/search", () => HttpResponse.json(body, { status })));
    await expectProviderError(new SearxngSearch("http://127.0.0.1:8888"), status, message);
  });
});

describe("OpenAI-compatible chat completions", () => {
  it("sends model, messages and JSON mode, and meters usage", async () => {
    let body: Record<string, any> = {};
    server.use(
      http.post("https://llm.example/v1/chat/completions", async ({ request }) => {
        expect(request.headers.get("Authorization")).toBe("Bearer sk-test");
        body = (await request.json()) as Record<string, any>;
        return HttpResponse.json({
          id: "chatcmpl-123",
          object: "chat.completion",
          created: 1_700_000_000,
          model: "gpt-4o-mini",
          choices: [{ index: 0, message: { role: "assistant", content: '{"answer": "yes"}' }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 },
        });
      }),
    );
    const model = new OpenAiCompatibleModel("https://llm.example/v1/", "gpt-4o-mini", "sk-test");
    const response = await model.complete({ system: "be brief", messages: [{ role: "user", content: "hi" }], maxTokens: 100, json: true });
    expect(body.model).toBe("gpt-4o-mini");
    expect(body.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
    ]);
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(response).toEqual({ text: '{"answer": "yes"}', inputTokens: 1234, outputTokens: 56 });
  });

  it.each([429, 500])("reports HTTP %i as a retryable ProviderError", async (status) => {
    server.use(
      http.post("https://llm.example/v1/chat/completions", () => HttpResponse.json({ error: { message: "slow down", type: "requests" } }, { status })),
    );
    const model = new OpenAiCompatibleModel("https://llm.example/v1", "m", "k");
    await expect(model.complete({ system: "s", messages: [], maxTokens: 10 })).rejects.toMatchObject({ name: "ProviderError", status, retryable: true });
  });
});

describe("Anthropic Messages", () => {
  it("sends the version header, system prompt and max_tokens, and meters usage", async () => {
    let body: Record<string, any> = {};
    server.use(
      http.post("https://api.anthropic.com/v1/messages", async ({ request }) => {
        expect(request.headers.get("x-api-key")).toBe("ant-key");
        expect(request.headers.get("anthropic-version")).toBe("2023-06-01");
        body = (await request.json()) as Record<string, any>;
        return HttpResponse.json({
          id: "msg_01",
          type: "message",
          role: "assistant",
          model: "claude-3-5-haiku-latest",
          content: [{ type: "text", text: "The answer [1]." }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 2048, output_tokens: 12 },
        });
      }),
    );
    const model = new AnthropicModel("ant-key", "claude-3-5-haiku-latest");
    const response = await model.complete({ system: "cite", messages: [{ role: "user", content: "q" }], maxTokens: 300 });
    expect(body).toMatchObject({ model: "claude-3-5-haiku-latest", system: "cite", max_tokens: 300, messages: [{ role: "user", content: "q" }] });
    expect(response).toEqual({ text: "The answer [1].", inputTokens: 2048, outputTokens: 12 });
  });

  it.each([429, 529])("reports HTTP %i as a retryable ProviderError", async (status) => {
    server.use(
      http.post("https://api.anthropic.com/v1/messages", () =>
        HttpResponse.json({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { status }),
      ),
    );
    await expect(new AnthropicModel("k", "m").complete({ system: "s", messages: [], maxTokens: 10 })).rejects.toMatchObject({ status, retryable: true });
  });
});

describe("Workers AI", () => {
  it("runs the model through the binding and meters reported usage", async () => {
    const calls: unknown[] = [];
    const ai = {
      run: async (model: string, input: Record<string, unknown>) => {
        calls.push({ model, input });
        return { response: "Hello [1].", usage: { prompt_tokens: 50, completion_tokens: 5 } };
      },
    };
    const response = await new WorkersAiModel(ai, "@cf/meta/llama-3.1-8b-instruct").complete({
      system: "s",
      messages: [{ role: "user", content: "u" }],
      maxTokens: 20,
    });
    expect(response).toEqual({ text: "Hello [1].", inputTokens: 50, outputTokens: 5 });
    expect(calls).toEqual([
      {
        model: "@cf/meta/llama-3.1-8b-instruct",
        input: {
          messages: [
            { role: "system", content: "s" },
            { role: "user", content: "u" },
          ],
          max_tokens: 20,
        },
      },
    ]);
  });
});

describe("provider configuration", () => {
  it("defaults to the local corpus and the offline extractive engine", () => {
    expect(createSearchProvider({}, env.DB).name).toBe("corpus");
    expect(createChatModel({})).toBeNull();
  });

  it("with the corpus as search provider, reads only the corpus (never the network)", async () => {
    const providers = createProviders({ SEARCH_PROVIDER: "corpus", ENVIRONMENT: "development" }, env.DB);
    // onUnhandledRequest: "error" would fail this test if the reader tried to fetch.
    expect(await providers.reader.read("https://en.wikipedia.org/wiki/Not_in_the_corpus")).toBeNull();
  });

  it("names the missing key of a configured provider", () => {
    expect(() => createSearchProvider({ SEARCH_PROVIDER: "brave" }, env.DB)).toThrow(ProviderConfigError);
    expect(() => createSearchProvider({ SEARCH_PROVIDER: "bing" }, env.DB)).toThrow(/unknown SEARCH_PROVIDER/);
    expect(() => createChatModel({ LLM_PROVIDER: "workers-ai" })).toThrow(/AI binding/);
    expect(createChatModel({ LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k" })?.name).toMatch(/^anthropic:/);
  });
});

const ARTICLE = (title: string, body: string) =>
  `<html><head><title>${title}</title><script>tracking()</script></head><body><nav>Home News Sport Weather</nav><article><p>${body}</p></article><footer>Copyright</footer></body></html>`;

describe("web reader", () => {
  it("honours robots.txt, sends its User-Agent, extracts HTML and passes text through", async () => {
    const agents: string[] = [];
    server.use(
      http.get("https://site.example/robots.txt", () => HttpResponse.text("User-agent: *\nDisallow: /private/\n")),
      http.get("https://site.example/article", ({ request }) => {
        agents.push(request.headers.get("User-Agent") ?? "");
        return new HttpResponse(ARTICLE("An article", "The article body is one sentence about tariffs."), {
          headers: { "Content-Type": "text/html; charset=utf-8" },
        });
      }),
      http.get(
        "https://site.example/notes.md",
        () => new HttpResponse("# Notes\n\nPlain markdown about tariffs.", { headers: { "Content-Type": "text/markdown" } }),
      ),
      http.get("https://site.example/private/secret", () => HttpResponse.text("must never be fetched")),
      http.get("https://site.example/missing", () => new HttpResponse("not found", { status: 404 })),
      http.get("https://site.example/image.png", () => new HttpResponse(new Uint8Array([137, 80, 78, 71]), { headers: { "Content-Type": "image/png" } })),
    );
    const reader = new WebReader();
    const page = await reader.read("https://site.example/article");
    expect(page).toEqual({ url: "https://site.example/article", title: "An article", text: "The article body is one sentence about tariffs.", cached: false });
    expect(agents[0]).toMatch(/^DeepResearchBot\//);
    expect(await reader.read("https://site.example/notes.md")).toMatchObject({ title: "Notes", text: "# Notes\n\nPlain markdown about tariffs." });
    expect(await reader.read("https://site.example/private/secret")).toBeNull();
    expect(await reader.read("https://site.example/missing")).toBeNull();
    expect(await reader.read("https://site.example/image.png")).toBeNull();
  });

  it("asks a host for its robots.txt once an hour, whichever reader (queue batch) reads its pages", async () => {
    let robotsFetches = 0;
    server.use(
      http.get("https://robots-once.example/robots.txt", () => {
        robotsFetches += 1;
        return HttpResponse.text("User-agent: *\nDisallow: /private/\n");
      }),
      http.get("https://robots-once.example/:page", () => HttpResponse.text("A page of plain text about tariffs.")),
    );
    let now = Date.parse("2026-11-23T10:00:00Z");
    const robots = new RobotsCache(1000, () => now);
    // Each wave's reads arrive in a new queue batch, which builds its own reader.
    for (const page of ["one", "two", "three"]) expect(await new WebReader({ robots }).read(`https://robots-once.example/${page}`)).not.toBeNull();
    expect(await new WebReader({ robots }).read("https://robots-once.example/private/x")).toBeNull();
    expect(robotsFetches).toBe(1);
    now += 61 * 60 * 1000;
    await new WebReader({ robots }).read("https://robots-once.example/four");
    expect(robotsFetches).toBe(2);
  });

  it("asks again within a minute when robots.txt could not be had, and keeps a bounded number of hosts", async () => {
    let now = 0;
    const robots = new RobotsCache(2, () => now);
    let loads = 0;
    const failing = async () => {
      loads += 1;
      return { rules: { allow: [], disallow: [] }, answered: false };
    };
    await robots.rules("https://down.example", failing);
    await robots.rules("https://down.example", failing);
    expect(loads).toBe(1);
    now += 61_000;
    await robots.rules("https://down.example", failing);
    expect(loads).toBe(2);
    const answered = async () => {
      loads += 1;
      return { rules: { allow: [], disallow: ["/"] }, answered: true };
    };
    await robots.rules("https://a.example", answered);
    await robots.rules("https://b.example", answered); // the oldest host, down.example, is dropped
    await robots.rules("https://down.example", failing);
    expect(loads).toBe(5);
  });

  it("caps the body size and times out slow pages", async () => {
    server.use(
      http.get("https://big.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://big.example/huge.txt", () => HttpResponse.text("a".repeat(50_000))),
      http.get("https://big.example/slow", async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return HttpResponse.text("late");
      }),
    );
    const reader = new WebReader({ maxBytes: 1000, timeoutMs: 100 });
    expect((await reader.read("https://big.example/huge.txt"))?.text.length).toBe(1000);
    expect(await reader.read("https://big.example/slow")).toBeNull();
  });

  it("refuses loopback outside development", async () => {
    expect(await new WebReader({ allowLoopback: false }).read("http://127.0.0.1:9/page")).toBeNull();
  });

  it("follows a redirect to a public page, by hand, checking robots.txt of each new origin, up to the hop limit", async () => {
    const hits: string[] = [];
    const robotsAsked: string[] = [];
    server.use(
      http.get("https://hop-start.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://hop-end.example/robots.txt", () => {
        robotsAsked.push("hop-end.example");
        return HttpResponse.text("User-agent: *\nDisallow: /private/\n");
      }),
      // /chain/N redirects N more times on hop-start.example, then to hop-end.example/final.
      http.get("https://hop-start.example/chain/:n", ({ params }) => {
        const n = Number(params.n);
        hits.push(`start/${n}`);
        const location = n > 1 ? `/chain/${n - 1}` : "https://hop-end.example/final";
        return new HttpResponse(null, { status: n % 2 ? 302 : 301, headers: { Location: location } });
      }),
      http.get(
        "https://hop-start.example/to-private",
        () => new HttpResponse(null, { status: 307, headers: { Location: "https://hop-end.example/private/page" } }),
      ),
      http.get("https://hop-end.example/:page", ({ params }) => {
        hits.push(`end/${String(params.page)}`);
        return new HttpResponse(ARTICLE("The final page", "Redirected readers arrive at this sentence."), { headers: { "Content-Type": "text/html" } });
      }),
      http.get("https://hop-end.example/private/page", () => {
        hits.push("end/private");
        return HttpResponse.text("must never be fetched");
      }),
    );
    const reader = new WebReader({ robots: new RobotsCache() });
    // MAX_REDIRECTS redirects in all: followed.
    const page = await reader.read(`https://hop-start.example/chain/${MAX_REDIRECTS}`);
    expect(page).toEqual({
      url: `https://hop-start.example/chain/${MAX_REDIRECTS}`,
      title: "The final page",
      text: "Redirected readers arrive at this sentence.",
      cached: false,
    });
    expect(robotsAsked).toEqual(["hop-end.example"]);
    // One more: given up before the last target is asked.
    hits.length = 0;
    expect(await reader.read(`https://hop-start.example/chain/${MAX_REDIRECTS + 1}`)).toBeNull();
    expect(hits).toEqual(Array.from({ length: MAX_REDIRECTS + 1 }, (_, i) => `start/${MAX_REDIRECTS + 1 - i}`));
    // A hop that robots.txt of its own origin disallows is not fetched.
    hits.length = 0;
    expect(await reader.read("https://hop-start.example/to-private")).toBeNull();
    expect(hits).toEqual([]);
  });

  it("never follows a redirect to a refused address, whatever the environment", async () => {
    const internal: string[] = [];
    server.use(
      http.get("https://public-hop.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://public-hop.example/x", () => new HttpResponse(null, { status: 302, headers: { Location: "http://127.0.0.1:9/x" } })),
      http.get(
        "https://public-hop.example/metadata",
        () => new HttpResponse(null, { status: 301, headers: { Location: "http://169.254.169.254/latest/meta-data/" } }),
      ),
      http.get("http://127.0.0.1:9/*", ({ request }) => {
        internal.push(request.url);
        return HttpResponse.text("The internal admin page says the launch code is 0000.");
      }),
      http.get("http://169.254.169.254/*", ({ request }) => {
        internal.push(request.url);
        return HttpResponse.text("instance credentials");
      }),
    );
    const reader = new WebReader({ allowLoopback: false, robots: new RobotsCache() });
    expect(await reader.read("https://public-hop.example/x")).toBeNull();
    expect(await reader.read("https://public-hop.example/metadata")).toBeNull();
    expect(internal).toEqual([]);
  });

  it("in production, reads no host name that resolves to an internal address, at the first URL or at any redirect hop", async () => {
    const internal: string[] = [];
    const doh = `https://doh-${crypto.randomUUID()}.example/dns-query`; // a resolver (and cache) of this test's own
    server.use(
      dohHandler({ "internal-name.example": { addresses: ["127.0.0.1"] }, "rebound.example": { addresses: ["10.0.0.5"] } }, [], doh),
      http.get("http://internal-name.example/*", ({ request }) => {
        internal.push(request.url);
        return HttpResponse.text("Text of an internal service that must never reach a brief.");
      }),
      http.get("https://rebound.example/*", ({ request }) => {
        internal.push(request.url);
        return HttpResponse.text("private");
      }),
      http.get("https://prod-public.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://prod-public.example/hop", () => new HttpResponse(null, { status: 302, headers: { Location: "https://rebound.example/page" } })),
      http.get("https://prod-public.example/page", () => HttpResponse.text("A public page about tariffs.")),
    );
    const providers = createProviders({ SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "k", ENVIRONMENT: "production", DNS_OVER_HTTPS_URL: doh }, env.DB);
    const stamp = crypto.randomUUID(); // fresh urls: the page cache is shared by the suite
    expect(await providers.reader.read(`http://internal-name.example/x?${stamp}`)).toBeNull();
    expect(await providers.reader.read(`https://prod-public.example/hop?${stamp}`)).toBeNull();
    expect(internal).toEqual([]);
    expect(await providers.reader.read(`https://prod-public.example/page?${stamp}`)).toMatchObject({ text: "A public page about tariffs." });
    // The same reader with a resolver: the robots.txt of an internal name is not asked either.
    const asked: string[] = [];
    server.use(
      http.get("http://internal-name.example/robots.txt", () => {
        asked.push("robots");
        return new HttpResponse(null, { status: 404 });
      }),
    );
    expect(await new WebReader({ resolver: new DohResolver(doh), robots: new RobotsCache() }).read("http://internal-name.example/y")).toBeNull();
    expect(asked).toEqual([]);
  });

  it("looks up the page cache of reads started together in one query, and each still gets its own answer", async () => {
    server.use(
      http.get("https://batch-cache.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://batch-cache.example/:page", ({ params }) => HttpResponse.text(`Fresh text of page ${String(params.page)}.`)),
    );
    const now = () => Date.parse("2026-03-01T00:00:00Z");
    const urls = Array.from({ length: 120 }, (_, i) => `https://batch-cache.example/p${i}`);
    await Promise.all(urls.slice(0, 60).map((url) => new CachedReader(env.DB, new WebReader(), now).read(url))); // cached now
    let lookups = 0;
    const counted = new Proxy(env.DB, {
      get: (target, property) =>
        property === "prepare"
          ? (sql: string) => {
              if (sql.startsWith("SELECT")) lookups += 1;
              return target.prepare(sql);
            }
          : Reflect.get(target, property),
    });
    const reader = new CachedReader(counted, new WebReader(), now);
    const pages = await Promise.all([...urls, urls[0]!].map((url) => reader.read(url)));
    expect(lookups).toBe(2); // 121 reads: chunks of 90 urls
    expect(pages.map((page) => page?.cached)).toEqual([...urls.map((_, i) => i < 60), true]);
    expect(pages[7]?.text).toBe("Fresh text of page p7.");
    expect(pages[77]?.text).toBe("Fresh text of page p77.");
  });

  it("shares reads across jobs through the 24-hour page cache", async () => {
    let fetches = 0;
    server.use(
      http.get("https://cache.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://cache.example/page", () => {
        fetches++;
        return new HttpResponse(ARTICLE("Cached", "This sentence is fetched once per day at most."), { headers: { "Content-Type": "text/html" } });
      }),
    );
    let now = Date.parse("2026-01-01T00:00:00Z");
    const first = await new CachedReader(env.DB, new WebReader(), () => now).read("https://cache.example/page");
    const second = await new CachedReader(env.DB, new WebReader(), () => now).read("https://cache.example/page");
    expect(first?.cached).toBe(false);
    expect(second).toMatchObject({ cached: true, title: "Cached", text: "This sentence is fetched once per day at most." });
    expect(fetches).toBe(1);
    now += 25 * 60 * 60 * 1000;
    await new CachedReader(env.DB, new WebReader(), () => now).read("https://cache.example/page");
    expect(fetches).toBe(2);
  });

  it("in the background, writes the pages of reads started together as one batch once the last is in, failed reads included", async () => {
    let fetches = 0;
    server.use(
      http.get("https://behind.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://behind.example/gone", () => new HttpResponse(null, { status: 404 })),
      http.get("https://behind.example/:page", async ({ params }) => {
        fetches++;
        // Pages come in at different times: none is written before the last is in.
        await new Promise((resolve) => setTimeout(resolve, params.page === "slow" ? 30 : 1));
        return HttpResponse.text(`Text of ${String(params.page)}.`);
      }),
    );
    const now = () => Date.parse("2026-04-01T00:00:00Z");
    const batches: number[] = [];
    const counted = new Proxy(env.DB, {
      get: (target, property) =>
        property === "batch"
          ? (statements: D1PreparedStatement[]) => {
              batches.push(statements.length);
              return target.batch(statements);
            }
          : Reflect.get(target, property),
    });
    const deferred: Promise<unknown>[] = [];
    const reader = new CachedReader(counted, new WebReader(), now, (work) => deferred.push(work));
    const urls = ["https://behind.example/a", "https://behind.example/slow", "https://behind.example/b", "https://behind.example/gone"];
    const pages = await Promise.all(urls.map((url) => reader.read(url)));
    expect(pages.map((page) => page?.text ?? null)).toEqual(["Text of a.", "Text of slow.", "Text of b.", null]);
    expect(batches).toEqual([4]);
    await Promise.all(deferred);
    const again = await Promise.all(urls.map((url) => new CachedReader(env.DB, new WebReader(), now).read(url)));
    expect(again.map((page) => page?.cached ?? null)).toEqual([true, true, true, null]);
    expect(fetches).toBe(3); // the second reader fetched nothing, not even the page that failed
  });
});

describe("the engine over a web search provider", () => {
  it("searches, reads the pages and cites them", async () => {
    server.use(
      dohHandler({}), // production: every host name read is resolved first (all public here)
      http.post("https://api.search.brave.com/res/v1/web/search", async ({ request }) => {
        const { goggles } = (await request.json()) as { goggles: string[] };
        expect(goggles).toEqual(["$discard,site=blocked.example"]);
        return HttpResponse.json({
          web: {
            results: [
              { title: "Tariff of 1828", url: "https://encyclopedia.example/tariff-1828", description: "The Tariff of 1828 ..." },
              { title: "Blocked", url: "https://blocked.example/tariff", description: "A provider may ignore the exclusion." },
              { title: "Nullification", url: "https://history.example/nullification", description: "South Carolina ..." },
            ],
          },
        });
      }),
      http.get("https://encyclopedia.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://history.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get(
        "https://encyclopedia.example/tariff-1828",
        () =>
          new HttpResponse(ARTICLE("Tariff of 1828", "The Tariff of 1828 was called the Tariff of Abominations by its southern opponents."), {
            headers: { "Content-Type": "text/html" },
          }),
      ),
      http.get(
        "https://history.example/nullification",
        () =>
          new HttpResponse(ARTICLE("Nullification crisis", "South Carolina declared the Tariff of 1828 void in 1832."), {
            headers: { "Content-Type": "text/html" },
          }),
      ),
    );
    const providers = createProviders({ SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "k", ENVIRONMENT: "production" }, env.DB);
    const result = await runResearch(
      {
        question: "What did opponents call the Tariff of 1828?",
        mode: "lite",
        budgets: budgetsForMode("lite"),
        include_sources: true,
        exclude_domains: ["blocked.example"],
      },
      { providers },
    );
    expect(result.sources.map((source) => source.domain)).not.toContain("blocked.example");
    expect(result.sources.map((source) => source.url)).toContain("https://encyclopedia.example/tariff-1828");
    expect(result.brief).toContain("Tariff of Abominations");
    expect(result.brief).not.toContain("Copyright");
  });

  it("in production, a result whose name resolves to loopback, or that redirects to loopback, never reaches the brief", async () => {
    const internal: string[] = [];
    server.use(
      dohHandler({ "internal-name.example": { addresses: ["127.0.0.1"] } }),
      http.get("https://api.search.brave.com/res/v1/web/search", () =>
        HttpResponse.json({
          web: {
            results: [
              { title: "Tariff of 1828", url: "https://safe-encyclopedia.example/tariff-1828", description: "The Tariff of 1828 ..." },
              { title: "Internal", url: "http://internal-name.example/x", description: "The Tariff of 1828 ..." },
              { title: "Redirect", url: "http://redirector.example/x", description: "The Tariff of 1828 ..." },
            ],
          },
        }),
      ),
      http.get("https://safe-encyclopedia.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("http://redirector.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get(
        "https://safe-encyclopedia.example/tariff-1828",
        () =>
          new HttpResponse(ARTICLE("Tariff of 1828", "The Tariff of 1828 was called the Tariff of Abominations by its southern opponents."), {
            headers: { "Content-Type": "text/html" },
          }),
      ),
      http.get("http://redirector.example/x", () => new HttpResponse(null, { status: 302, headers: { Location: "http://127.0.0.1:9/x" } })),
      http.get("http://internal-name.example/*", ({ request }) => {
        internal.push(request.url);
        return new HttpResponse(ARTICLE("Internal", "The Tariff of 1828 internal ledger code is ZEBRA-INTERNAL."), {
          headers: { "Content-Type": "text/html" },
        });
      }),
      http.get("http://127.0.0.1:9/*", ({ request }) => {
        internal.push(request.url);
        return new HttpResponse(ARTICLE("Loopback", "The Tariff of 1828 loopback secret is ZEBRA-LOOPBACK."), { headers: { "Content-Type": "text/html" } });
      }),
    );
    const providers = createProviders({ SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "k", ENVIRONMENT: "production" }, env.DB);
    const result = await runResearch(
      { question: "What did opponents call the Tariff of 1828?", mode: "lite", budgets: budgetsForMode("lite"), include_sources: true },
      { providers },
    );
    expect(internal).toEqual([]);
    expect(result.brief).not.toContain("ZEBRA");
    expect(result.sources.map((source) => source.url)).not.toContain("http://internal-name.example/x");
    expect(result.brief).toContain("Tariff of Abominations");
  });

  it("fails with NoEvidenceError when the search provider keeps answering 429", async () => {
    server.use(http.get("https://api.search.brave.com/res/v1/web/search", () => HttpResponse.json({ message: "rate limited" }, { status: 429 })));
    const providers = createProviders({ SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "k" }, env.DB);
    await expect(
      runResearch({ question: "Anything about tariffs?", mode: "lite", budgets: budgetsForMode("lite"), include_sources: true }, { providers }),
    ).rejects.toBeInstanceOf(NoEvidenceError);
  });
});
