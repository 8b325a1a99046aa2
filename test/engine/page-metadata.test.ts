import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createProviders, runResearch } from "../../src/research/engine";
import { dateline, Evidence, pageAttribution } from "../../src/research/engine/evidence";
import { budgetsForMode, type ResearchMode } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import type { Page } from "../../src/research/providers/types";
import { CachedReader } from "../../src/research/providers/reader/cached-reader";
import { WebReader } from "../../src/research/providers/reader/web-reader";
import { dohHandler } from "../doh";
import { type ModelCall, scriptedModel } from "../scripted-model";
import { type FakeDoc, memoryProviders } from "./helpers";

/**
 * A page's date and author as evidence (issue 42, item 6): from the page's metadata through the
 * reader and the page cache to the engine, where they are a sentence of the page's text a claim can
 * quote, and to the job's sources.
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type DatedDoc = FakeDoc & { published_at?: string; author?: string };

/** The sentence a page's date and author are in its text as evidence. */
const DATELINE = "This page was published on 1 May 2024 by Jane Doe.";

const REOPENED: DatedDoc = {
  url: "https://news.example/marigold-reopens",
  title: "Marigold Dam reopens after repairs",
  text: "The Marigold Dam reopened to visitors after two years of repairs. Engineers replaced the spillway gates of the Marigold Dam.",
  published_at: "2024-05-01T09:30:00Z",
  author: "Jane Doe",
};
const HISTORY: DatedDoc = {
  url: "https://history.example/marigold-dam",
  title: "Marigold Dam",
  text: "The Marigold Dam is a concrete arch dam on the Pell River. The Marigold Dam was completed in 1931.",
};

describe("a page's date and author in the evidence", () => {
  it("is a sentence of its own after the page's text: the page's own offsets unchanged, kept past a long page's cap", () => {
    expect(dateline({ published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" })).toBe(DATELINE);
    expect(dateline({ published_at: "2019-12-31" })).toBe("This page was published on 31 December 2019.");
    expect(dateline({ author: "Jane Doe, John Roe." })).toBe("This page was written by Jane Doe, John Roe.");
    expect(dateline({ published_at: "not a date" })).toBeNull();
    expect(dateline({})).toBeNull();

    const evidence = new Evidence();
    const doc = evidence.add(REOPENED, "news.example", 1, []);
    expect(doc.text.startsWith(REOPENED.text)).toBe(true);
    expect(doc.text.endsWith(`\n\n${DATELINE}`)).toBe(true);
    expect(doc).toMatchObject({ published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
    const last = doc.passages.at(-1)!;
    expect(last.text).toBe(DATELINE);
    expect(doc.text.slice(last.start, last.end)).toBe(last.text);
    expect(doc.text.slice(doc.passages[0]!.start, doc.passages[0]!.end)).toBe("The Marigold Dam reopened to visitors after two years of repairs.");

    const plain = evidence.add(HISTORY, "history.example", 1, []);
    expect(plain.text).toBe(HISTORY.text);
    expect(plain).not.toHaveProperty("published_at");

    const long = evidence.add(
      { url: "https://long.example/", title: "Long", text: "A sentence of the long page. ".repeat(2000), published_at: "2020-02-02" },
      "long.example",
      1,
      [],
    );
    expect(long.passages.at(-1)!.text).toBe("This page was published on 2 February 2020.");
  });

  it("dates a page that is no speaker's own words by its publication when its title names no year", () => {
    expect(pageAttribution("Marigold Dam reopens after repairs", "2024-05-01T09:30:00Z")).toEqual({ speaker: null, year: 2024, published: true });
    expect(pageAttribution("The dam in 1931", "2024-05-01")).toEqual({ speaker: null, year: 1931 });
    // An archive publishes a speech long after it was given: the title's year or none.
    expect(pageAttribution("Grover Cleveland: Annual message to Congress", "2015-03-01")).toEqual({ speaker: "Grover Cleveland", year: null });
  });
});

function run(mode: ResearchMode, question: string, withModel = false) {
  const providers = { ...memoryProviders([REOPENED, HISTORY]), llm: withModel ? new OpenAiCompatibleModel(BASE, "scripted") : null };
  return runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers });
}

const BASE = "https://llm.test/v1";

describe("the engine with dated pages", () => {
  it("gives each source its date and author (only the pages that state them), and the brief can cite the dateline, never an answer beyond it", async () => {
    const streamed: unknown[] = [];
    const providers = memoryProviders([REOPENED, HISTORY]);
    const result = await runResearch(
      { question: "When was the report on the Marigold Dam reopening published?", mode: "lite", budgets: budgetsForMode("lite"), include_sources: true },
      { providers },
      { onSource: (source) => void streamed.push(source) },
    );
    expect(streamed).toEqual(
      expect.arrayContaining([
        { url: REOPENED.url, title: REOPENED.title, domain: "news.example", published_at: "2024-05-01T09:30:00Z", author: "Jane Doe", summary: null },
        { url: HISTORY.url, title: HISTORY.title, domain: "history.example", summary: null },
      ]),
    );
    const reopened = result.sources.findIndex((source) => source.url === REOPENED.url);
    expect(result.sources[reopened]).toMatchObject({ published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
    // The offline engine states no answer from a page's own date (it cannot tell the page from
    // what the page is about); its brief shows the dateline as the closest evidence, quoted at its offsets.
    expect(result.answer).toBeNull();
    expect(result.brief).toContain(`${DATELINE.slice(0, -1)} [${reopened + 1}]`);
    const quoted = result.citations.find((citation) => citation.quote === DATELINE)!;
    expect(quoted).toMatchObject({ source: reopened, start: REOPENED.text.length + 2, end: REOPENED.text.length + 2 + DATELINE.length });
  });

  it("shows the model each source's date beside its title and its dateline to quote; a claim of the date stands on that quote, one without it does not", async () => {
    const isWrite = (call: ModelCall) => call.system.startsWith("You are a research analyst");
    const scripted = scriptedModel(BASE, (call) => {
      if (isWrite(call)) {
        const number = Number(/^\[(\d+)\] Marigold Dam reopens after repairs \(/m.exec(call.user)![1]);
        return JSON.stringify({
          claims: [
            {
              text: "Jane Doe reported on 1 May 2024 that the Marigold Dam had reopened after two years of repairs.",
              quotes: [
                { source: number, quote: "published on 1 May 2024 by Jane Doe" },
                { source: number, quote: "The Marigold Dam reopened to visitors after two years of repairs." },
              ],
              heading: null,
              bullet: false,
            },
            {
              text: "The spillway gates were replaced in 2023.",
              quotes: [{ source: number, quote: "Engineers replaced the spillway gates of the Marigold Dam." }],
              heading: null,
              bullet: true,
            },
          ],
          answer: { text: "1 May 2024", confidence: "high", quotes: [{ source: number, quote: DATELINE }] },
        });
      }
      if (call.system.startsWith("You are revising")) return JSON.stringify({ claims: [{ id: 1, withdraw: true }] });
      if (call.system.startsWith("You are a fact checker")) {
        const ids = [...call.user.matchAll(/^\[(\d+)\] /gm)].map((match) => Number(match[1]));
        return JSON.stringify({ verdicts: ids.map((id) => ({ id, verdict: "supported" })) });
      }
      return { status: 400 };
    });
    server.use(scripted.handler);
    const result = await run("standard", "When was the report on the Marigold Dam reopening published?", true);
    const write = scripted.calls.find(isWrite)!;

    expect(write.user).toMatch(
      /^\[\d+\] Marigold Dam reopens after repairs \(news\.example; published on 1 May 2024 by Jane Doe\)\n.*This page was published on 1 May 2024 by Jane Doe\.$/m,
    );
    expect(write.system).toContain("are those of that page, never of what it is about");
    expect(write.user).toMatch(/^\[\d+\] Marigold Dam \(history\.example\)$/m);
    const critic = scripted.calls.find((call) => call.system.startsWith("You are a fact checker"));
    if (critic) expect(critic.user).toContain("(Marigold Dam reopens after repairs; published 1 May 2024)");

    expect(result.brief).toContain("Jane Doe reported on 1 May 2024");
    expect(result.brief).not.toContain("in 2023");
    const datelineCitation = result.citations.find((citation) => citation.quote === "published on 1 May 2024 by Jane Doe")!;
    expect(datelineCitation).toBeDefined();
    expect(result.sources[datelineCitation.source]).toMatchObject({ url: REOPENED.url, published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
    expect(result.answer?.text).toBe("1 May 2024");
  });
});

describe("the page cache", () => {
  it("keeps a page's date and author, and a page without them stays without", async () => {
    const pages: Record<string, Page> = {
      "https://cache-dated.example/a": {
        url: "https://cache-dated.example/a",
        title: "A",
        text: "Dated text.",
        published_at: "2024-05-01T09:30:00Z",
        author: "Jane Doe",
        cached: false,
      },
      "https://cache-dated.example/b": { url: "https://cache-dated.example/b", title: "B", text: "Undated text.", cached: false },
    };
    const inner = {
      reads: 0,
      async read(url: string) {
        inner.reads++;
        return pages[url] ?? null;
      },
    };
    const now = () => Date.parse("2026-03-01T00:00:00Z");
    for (const url of Object.keys(pages)) expect(await new CachedReader(env.DB, inner, now).read(url)).toEqual(pages[url]);
    for (const url of Object.keys(pages)) expect(await new CachedReader(env.DB, inner, now).read(url)).toEqual({ ...pages[url], cached: true });
    expect(inner.reads).toBe(2);
    const row = await env.DB.prepare("SELECT published_at, author FROM page_cache WHERE url = ?").bind("https://cache-dated.example/a").first();
    expect(row).toEqual({ published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
  });
});
const ARTICLE_WITH_METADATA = `<!doctype html><html lang="en"><head><title>Marigold Dam reopens after repairs</title>
<meta property="article:published_time" content="2024-05-01T09:30:00Z"><meta name="author" content="Jane Doe">
</head><body><article><h1>Marigold Dam reopens after repairs</h1>
<p>The Marigold Dam reopened to visitors after two years of repairs, the river authority said on Wednesday.</p>
<p>Engineers replaced the spillway gates of the Marigold Dam and repaired the crest road that runs along the top of the arch.</p>
</article></body></html>`;

describe("a page's metadata through the web reader", () => {
  it("reaches the page, and the page cache keeps it", async () => {
    let fetches = 0;
    server.use(
      http.get("https://dated.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://dated.example/reopens", () => {
        fetches++;
        return new HttpResponse(ARTICLE_WITH_METADATA, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      }),
    );
    const now = Date.parse("2026-03-01T00:00:00Z");
    const first = await new CachedReader(env.DB, new WebReader(), () => now).read("https://dated.example/reopens");
    expect(first).toMatchObject({ cached: false, published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
    const second = await new CachedReader(env.DB, new WebReader(), () => now).read("https://dated.example/reopens");
    expect(second).toEqual({ ...first, cached: true });
    expect(fetches).toBe(1);
    const row = await env.DB.prepare("SELECT published_at, author FROM page_cache WHERE url = ?").bind("https://dated.example/reopens").first();
    expect(row).toEqual({ published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" });
  });

  it("reaches a job's sources over a web search provider", async () => {
    server.use(
      dohHandler({}),
      http.get("https://api.search.brave.com/res/v1/web/search", () =>
        HttpResponse.json({
          web: { results: [{ title: "Marigold Dam reopens", url: "https://dated-news.example/reopens", description: "The Marigold Dam reopened ..." }] },
        }),
      ),
      http.get("https://dated-news.example/robots.txt", () => new HttpResponse(null, { status: 404 })),
      http.get("https://dated-news.example/reopens", () => new HttpResponse(ARTICLE_WITH_METADATA, { headers: { "Content-Type": "text/html" } })),
    );
    const providers = createProviders({ SEARCH_PROVIDER: "brave", BRAVE_API_KEY: "k", ENVIRONMENT: "production" }, env.DB);
    const result = await runResearch(
      { question: "When did the Marigold Dam reopen after repairs?", mode: "lite", budgets: budgetsForMode("lite"), include_sources: true },
      { providers },
    );
    expect(result.sources).toEqual([
      expect.objectContaining({ url: "https://dated-news.example/reopens", published_at: "2024-05-01T09:30:00Z", author: "Jane Doe" }),
    ]);
  });
});
