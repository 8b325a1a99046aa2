import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ingestDocuments } from "../../src/research/providers/corpus-store";
import { CorpusSearch } from "../../src/research/providers/search/corpus";

describe("the corpus search", () => {
  it("ranks a short query said whole above its words said apart ('a fair deal', not 'a fair price … a great deal')", async () => {
    await ingestDocuments(env.DB, [
      {
        url: "https://phrase.test/apart",
        title: "An address on trade",
        text: "A fair price for the farmer is our aim, and a great deal has been done.",
      },
      {
        url: "https://phrase.test/deal",
        title: "An address on the economy",
        text: "Our economy grew this year, and wages rose in every region of the country. Every segment of our population has a right to expect from our Government a fair deal.",
      },
    ]);
    const hits = await new CorpusSearch(env.DB).search({ query: "Fair Deal", limit: 5, includeDomains: ["phrase.test"] });
    expect(hits.map((hit) => hit.url)).toEqual(["https://phrase.test/deal", "https://phrase.test/apart"]);
  });

  it("finds a page by the older spelling of the name asked ('Viet-Nam' for Vietnam)", async () => {
    await ingestDocuments(env.DB, [
      { url: "https://spelling.test/1963", title: "An address, 1963", text: "The spearpoint of aggression has been blunted in Viet-Nam." },
    ]);
    const hits = await new CorpusSearch(env.DB).search({ query: "Vietnam", limit: 5, includeDomains: ["spelling.test"] });
    expect(hits.map((hit) => hit.url)).toEqual(["https://spelling.test/1963"]);
  });
});
