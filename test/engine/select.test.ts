import { describe, expect, it } from "vitest";
import { canonicalUrl, chooseSources } from "../../src/research/engine/gather";
import type { SearchHit } from "../../src/research/providers/types";

const hit = (url: string): SearchHit => ({ url, title: url, snippet: "", domain: new URL(url).hostname });

describe("choosing sources", () => {
  it("treats a url with a fragment or trailing slash as the same page, and never re-encodes it", () => {
    expect(canonicalUrl("https://a.example/page/#section")).toBe("https://a.example/page");
    expect(canonicalUrl("https://en.wikipedia.org/wiki/Androscoggin_Bank_Colisée")).toBe("https://en.wikipedia.org/wiki/Androscoggin_Bank_Colisée");
    expect(canonicalUrl("https://a.example/")).toBe("https://a.example/");
    expect(canonicalUrl("corpus://sotu.corpus/1861-abraham-lincoln")).toBe("corpus://sotu.corpus/1861-abraham-lincoln");
  });

  it("reads the pages a question's period holds before those their titles date outside it; an undated title is not judged", () => {
    const dated = (n: number, title: string): SearchHit => ({ url: `https://archive.example/${n}`, title, snippet: "", domain: `d${n}.example` });
    const hits = [
      dated(1, "William Mc Kinley: State of the Union address, 1897"),
      dated(2, "Theodore Roosevelt: State of the Union address, 1903"),
      dated(3, "Harry S Truman: State of the Union address, 1947"),
      dated(4, "Civil rights in America"),
      dated(5, "Dwight D Eisenhower: State of the Union address, 1957"),
    ];
    const chosen = chooseSources([{ query: "civil rights", hits }], { limit: 3, alreadyRead: () => false, filter: {}, period: { from: 1940, to: 1970 } });
    expect(chosen.map((candidate) => candidate.hit.url)).toEqual(["https://archive.example/3", "https://archive.example/4", "https://archive.example/5"]);
    // Without enough inside the period, the rest still fill the wave.
    expect(chooseSources([{ query: "civil rights", hits }], { limit: 4, alreadyRead: () => false, filter: {}, period: { from: 1940, to: 1970 } })).toHaveLength(
      4,
    );
  });

  it("takes every branch's best hit before any second hit, deduplicated", () => {
    const chosen = chooseSources(
      [
        { query: "q1", hits: [hit("https://a.example/1"), hit("https://b.example/1"), hit("https://c.example/1")] },
        { query: "q2", hits: [hit("https://a.example/1#x"), hit("https://d.example/1")] },
        { query: "q3", hits: [hit("https://e.example/1")] },
      ],
      { limit: 4, alreadyRead: () => false, filter: {} },
    );
    expect(chosen.map((candidate) => candidate.hit.url)).toEqual(["https://a.example/1", "https://e.example/1", "https://b.example/1", "https://d.example/1"]);
    expect(chosen[0]!.queries).toEqual(["q1", "q2"]);
  });

  it("prefers other domains once one has had its turn in a wave, then fills with the rest: diversity never blocks a page", () => {
    const hits = [1, 2, 3, 4].map((n) => hit(`https://big.example/${n}`)).concat([hit("https://small.example/1")]);
    const few = chooseSources([{ query: "q", hits }], { limit: 3, alreadyRead: () => false, filter: {} });
    expect(few.map((candidate) => candidate.hit.url)).toEqual(["https://big.example/1", "https://big.example/2", "https://small.example/1"]);
    const all = chooseSources([{ query: "q", hits }], { limit: 10, alreadyRead: () => false, filter: {} });
    expect(all.map((candidate) => candidate.hit.url)).toEqual([
      "https://big.example/1",
      "https://big.example/2",
      "https://small.example/1",
      "https://big.example/3",
      "https://big.example/4",
    ]);
  });

  it("reads the page a follow-up query names first, whatever its domain holds already", () => {
    const wiki = (title: string): SearchHit => ({
      url: `https://en.wikipedia.org/wiki/${title.replace(/ /g, "_")}`,
      title,
      snippet: "",
      domain: "en.wikipedia.org",
    });
    const results = [
      { query: "Corliss Archer", hits: [wiki("Meet Corliss Archer"), wiki("Corliss Archer (TV series)"), hit("https://other.example/a")] },
      { query: "Shirley Temple", hits: [wiki("Shirley Temple Theatre"), wiki("Shirley Temple")] },
      { query: "Tunnels & Trolls", hits: [wiki("Tunnels &amp; Trolls")] },
    ];
    const chosen = chooseSources(results, { limit: 3, alreadyRead: () => false, filter: {} });
    expect(chosen.map((candidate) => candidate.hit.title).sort()).toEqual(["Corliss Archer (TV series)", "Shirley Temple", "Tunnels &amp; Trolls"]);
  });

  it("re-checks the domain lists and skips pages already read", () => {
    const hits = [hit("https://news.example.com/a"), hit("https://sub.news.example.com/b"), hit("https://other.org/c"), hit("https://news.example.com/d")];
    const chosen = chooseSources([{ query: "q", hits }], {
      limit: 10,
      alreadyRead: (url) => url.endsWith("/d"),
      filter: { includeDomains: ["example.com"], excludeDomains: ["sub.news.example.com"] },
    });
    expect(chosen.map((candidate) => candidate.hit.url)).toEqual(["https://news.example.com/a"]);
  });
});

describe("a question of several speakers", () => {
  const page = (n: number, title: string): SearchHit => ({ url: `corpus://sotu.corpus/${n}`, title, snippet: "", domain: "sotu.corpus" });
  const taft = [1909, 1910, 1911, 1912].map((year) => page(year, `William H Taft: State of the Union address, ${year}`));
  const question = "Which presidents mentioned the Panama Canal?";
  const results = [
    { query: question, hits: [page(2010, "Barack Obama: State of the Union address, 2010"), ...taft] },
    {
      query: "Panama Canal",
      hits: [...taft, page(1903, "Theodore Roosevelt: State of the Union address, 1903"), page(1978, "Jimmy Carter: State of the Union address, 1978")],
    },
  ];

  it("reads each speaker's best page a topic search found before anyone's second, and the question's own words' finds last", () => {
    const chosen = chooseSources(results, { limit: 4, alreadyRead: () => false, filter: {}, spreadSpeakersOf: question });
    expect(chosen.map((candidate) => candidate.hit.title.slice(0, candidate.hit.title.indexOf(":")))).toEqual([
      "William H Taft",
      "Theodore Roosevelt",
      "Jimmy Carter",
      "William H Taft",
    ]);
    // Any other question reads by rank, one speaker's pages first.
    const plain = chooseSources(results, { limit: 4, alreadyRead: () => false, filter: {} });
    expect(plain.filter((candidate) => candidate.hit.title.startsWith("William H Taft"))).toHaveLength(3);
  });
});
