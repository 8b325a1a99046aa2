import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ingestDocuments } from "../../src/research/providers/corpus-store";
import { CorpusSearch } from "../../src/research/providers/search/corpus";

describe("the corpus search", () => {
  it("finds a page by the older spelling of the name asked ('Viet-Nam' for Vietnam)", async () => {
    await ingestDocuments(env.DB, [
      { url: "https://spelling.test/1963", title: "An address, 1963", text: "The spearpoint of aggression has been blunted in Viet-Nam." },
    ]);
    const hits = await new CorpusSearch(env.DB).search({ query: "Vietnam", limit: 5, includeDomains: ["spelling.test"] });
    expect(hits.map((hit) => hit.url)).toEqual(["https://spelling.test/1963"]);
  });
});
