import { describe, expect, it } from "vitest";
import { describeSearchSource } from "../../src/research/providers/search-source";
import { adminUser, call, expectError, json, signupUser } from "../helpers";

/**
 * GET /api/dashboard/search-source: what research searches by default, for any signed-in account
 * (issue 38). Files share this database, so the corpus holds other files' documents too: the test
 * reads its own domain's entry and the totals' consistency, never an exact corpus.
 */

describe("GET /api/dashboard/search-source", () => {
  it("needs a signed-in account (an API key is not one)", async () => {
    await expectError(await call("/api/dashboard/search-source"), 401, "unauthorized");
  });

  it("names the local corpus, what the demo corpus holds and questions to try", async () => {
    const admin = await adminUser();
    // A stand-in document under the demo corpus's domain, removed again at the end.
    const document = { url: `corpus://sotu.corpus/test-${crypto.randomUUID()}`, title: "Zyxqv: a stand-in", text: "Zyxqv qwvx.", domain: "sotu.corpus" };
    expect((await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [document] } })).status).toBe(200);
    try {
      const user = await signupUser();
      const response = await call("/api/dashboard/search-source", { token: user.accessToken });
      expect(response.status).toBe(200);
      const source = await json(response);
      expect(source.provider).toBe("corpus");
      expect(source.domain_filters).toBe("include_domains and exclude_domains select the corpus's documents by domain.");
      const sotu = source.corpus.domains.find((domain: { domain: string }) => domain.domain === "sotu.corpus");
      expect(sotu).toEqual({ domain: "sotu.corpus", documents: expect.any(Number), description: "US State of the Union addresses, 1790–2021 (public domain)" });
      expect(source.summary).toMatch(/^Research searches a local document corpus, not the web: .*US State of the Union addresses/);
      expect(source.example_questions).toContain("What did presidents say about the Panama Canal?");
      // Another domain (an operator's documents) is listed by name only.
      for (const domain of source.corpus.domains.filter((entry: { domain: string }) => entry.domain !== "sotu.corpus")) expect(domain.description).toBeNull();
    } finally {
      await call("/api/admin/corpus?domain=sotu.corpus", { method: "DELETE", token: admin.accessToken });
    }
  });
});

describe("describeSearchSource", () => {
  it("a web search provider: named, no corpus, no example questions", async () => {
    // The database is not read for a web provider.
    expect(await describeSearchSource("brave", null as unknown as D1Database)).toEqual({
      provider: "brave",
      summary: "Research searches the web through Brave Search.",
      domain_filters: "include_domains and exclude_domains are sent to Brave Search as a Goggle (an allow list and a block list).",
      corpus: null,
      example_questions: [],
    });
  });
});

describe("what a backend does with domain filters", () => {
  it("says that SearXNG cannot take several included domains and finds fewer sources", async () => {
    const source = await describeSearchSource("searxng", null as unknown as D1Database);
    expect(source.domain_filters).toMatch(/SearXNG has no domain parameter: one included domain is sent as a site: word and the first 10 excluded domains/);
    expect(source.domain_filters).toMatch(/with two or more included domains the search runs unfiltered .* fewer sources/);
  });
});
