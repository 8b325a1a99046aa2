import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createProviders, runResearch } from "../src/research/engine";
import { citationProblems } from "../src/research/engine/write";
import { budgetsForMode } from "../src/research/pricing";
import { adminUser, call, expectError, json, signupUser } from "./helpers";

// Its own domain: other files load pages of history.example.org with other texts, and files share a database.
const DOMAIN = "annals.example.org";

const documents = [
  {
    url: `https://${DOMAIN}/tariff-of-1828`,
    title: "Tariff of 1828",
    text:
      "The Tariff of 1828 was a protective tariff passed by the Congress of the United States on May 19, 1828. " +
      "Opponents in the South called it the Tariff of Abominations. " +
      "It was designed to protect industry in the northern United States from cheap British goods.",
  },
  {
    url: `https://${DOMAIN}/nullification-crisis`,
    title: "Nullification crisis",
    text:
      "The nullification crisis was a sectional political crisis in 1832 and 1833 during the presidency of Andrew Jackson. " +
      "South Carolina declared the federal tariffs of 1828 and 1832 unconstitutional and void within the state. " +
      "The crisis ended with the Compromise Tariff of 1833, which lowered the rates gradually.",
  },
  {
    url: `https://${DOMAIN}/andrew-jackson`,
    title: "Andrew Jackson",
    text: "Andrew Jackson was the seventh president of the United States, serving from 1829 to 1837. He was born in the Waxhaws region in 1767.",
  },
  {
    url: "https://cooking.example.com/bread",
    title: "Sourdough bread",
    text: "Sourdough bread is made by the fermentation of dough using wild lactobacilli and yeast. It has a mildly sour taste.",
  },
];

describe("admin corpus endpoints", () => {
  it("requires an admin", async () => {
    await expectError(await call("/api/admin/corpus/stats"), 401, "unauthorized");
    const user = await signupUser();
    await expectError(await call("/api/admin/corpus/stats", { token: user.accessToken }), 403, "forbidden");
    await expectError(await call("/api/admin/corpus", { token: user.accessToken, body: { documents } }), 403, "forbidden");
  });

  it("rejects invalid documents", async () => {
    const admin = await adminUser();
    await expectError(await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [] } }), 400, "invalid_request");
    await expectError(
      await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [{ url: "not a url", title: "x", text: "y" }] } }),
      400,
      "invalid_request",
    );
    await expectError(
      await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [{ url: "https://a.example/x", title: "", text: "y" }] } }),
      400,
      "invalid_request",
    );
  });

  it("ingests, replaces by url, reports stats, deletes by domain, and the engine researches what was ingested", async () => {
    const admin = await adminUser();
    const ingest = await call("/api/admin/corpus", { token: admin.accessToken, body: { documents } });
    expect(ingest.status).toBe(200);
    expect(await json(ingest)).toEqual({ ingested: 4 });

    // Same url again: replaced, not duplicated.
    const replaced = { ...documents[2]!, text: `${documents[2]!.text} Jackson opposed nullification and threatened to use force against South Carolina.` };
    expect(await json(await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [replaced] } }))).toEqual({ ingested: 1 });

    const stats = await json(await call("/api/admin/corpus/stats", { token: admin.accessToken }));
    expect(stats.domains).toEqual(
      expect.arrayContaining([
        { domain: DOMAIN, documents: 3 },
        { domain: "cooking.example.com", documents: 1 },
      ]),
    );
    expect(stats.documents).toBeGreaterThanOrEqual(4);

    const providers = createProviders({ SEARCH_PROVIDER: "corpus", LLM_PROVIDER: "extractive" }, env.DB);
    const progress: string[] = [];
    const seen: string[] = [];
    const result = await runResearch(
      {
        question: "Why did South Carolina oppose the Tariff of 1828 and how was the crisis resolved?",
        mode: "standard",
        budgets: budgetsForMode("standard"),
        include_sources: true,
        include_domains: [DOMAIN, "cooking.example.com"], // what this test ingested, whatever else the corpus holds
      },
      { providers },
      { onProgress: (event) => void progress.push(event.stage), onSource: (source) => void seen.push(source.url) },
    );
    expect(result.sources.length).toBeGreaterThan(0);
    expect(result.sources.map((source) => source.url)).toContain(`https://${DOMAIN}/nullification-crisis`);
    expect(result.sources.map((source) => source.url)).not.toContain("https://cooking.example.com/bread");
    expect(result.brief).toMatch(/Compromise Tariff of 1833/);
    expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
    for (const source of result.sources) expect(source.summary).toBeTruthy();
    expect(result.cost_usd).toBeGreaterThan(0);
    expect(result.cost_usd).toBeLessThanOrEqual(0.6);
    expect(progress).toContain("searching");
    expect(progress.at(-1)).toBe("done");
    expect(seen.length).toBe(result.pages);

    // The replaced text is what the engine reads.
    const jackson = await runResearch(
      {
        question: "What did Andrew Jackson threaten South Carolina with?",
        mode: "lite",
        budgets: budgetsForMode("lite"),
        include_sources: false,
        include_domains: [DOMAIN],
      },
      { providers },
    );
    expect(jackson.brief).toMatch(/threatened to use force/);
    for (const source of jackson.sources) {
      expect(source.domain).toBe(DOMAIN);
      expect(source.summary ?? null).toBeNull();
    }

    const deleted = await call(`/api/admin/corpus?domain=${DOMAIN}`, { method: "DELETE", token: admin.accessToken });
    expect(await json(deleted)).toEqual({ deleted: 3 });
    const after = await json(await call("/api/admin/corpus/stats", { token: admin.accessToken }));
    expect(after.domains.find((entry: { domain: string }) => entry.domain === DOMAIN)).toBeUndefined();
  });

  it('ranks a page saying a quoted phrase above one holding its words apart, as the plan searches a topic ("civil rights" civil rights)', async () => {
    const admin = await adminUser();
    const domain = "phrase.example.org";
    const apart = {
      url: `https://${domain}/apart`,
      title: "Decrees on Cuba",
      text: "All civil and electoral rights are granted. Civil courts keep the rights of civil servants. Rights of civil suitors are kept by civil law.",
    };
    const together = { url: `https://${domain}/together`, title: "Committee report", text: "The President's Committee on Civil Rights reported this year." };
    expect((await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: [apart, together] } })).status).toBe(200);
    const search = createProviders({ SEARCH_PROVIDER: "corpus" }, env.DB).search;
    const hits = await search.search({ query: '"civil rights" civil rights', limit: 5, includeDomains: [domain] });
    expect(hits.map((hit) => hit.url)).toEqual([together.url, apart.url]);
    // Without the phrase, the page saying the words most often comes first.
    expect((await search.search({ query: "civil rights", limit: 5, includeDomains: [domain] })).map((hit) => hit.url)[0]).toBe(apart.url);
  });

  it("is documented in /openapi.json", async () => {
    const spec = await json(await call("/openapi.json"));
    expect(spec.paths["/api/admin/corpus"]).toBeDefined();
    expect(spec.paths["/api/admin/corpus/stats"]).toBeDefined();
  });
});
