import { describe, expect, it } from "vitest";
import { Budget } from "../../src/research/engine/budget";
import { runResearch } from "../../src/research/engine";
import { budgetsForMode, opCostUsd, type ResearchBudgets } from "../../src/research/pricing";
import { memoryProviders, TWO_HOP_DOCS, type FakeDoc } from "./helpers";

function envelope(overrides: Partial<ResearchBudgets> = {}): ResearchBudgets {
  return { ...budgetsForMode("standard"), ...overrides };
}

describe("budget gates", () => {
  it("blocks a wave past max_waves", () => {
    const budget = new Budget(envelope({ max_waves: 1 }));
    expect(budget.waveBlocker()).toBeNull();
    budget.startWave();
    expect(budget.waveBlocker()).toBe("max_waves");
  });

  it("blocks a search past max_searches", () => {
    const budget = new Budget(envelope({ max_searches: 2 }));
    budget.charge("search");
    expect(budget.searchBlocker()).toBeNull();
    budget.charge("search");
    expect(budget.searchBlocker()).toBe("max_searches");
    expect(budget.waveBlocker()).toBe("max_searches");
  });

  it("blocks a read past max_pages", () => {
    const budget = new Budget(envelope({ max_pages: 1 }));
    expect(budget.readBlocker()).toBeNull();
    budget.charge("page_read");
    expect(budget.readBlocker()).toBe("max_pages");
  });

  it("keeps the synthesis cost reserve out of the fan-out", () => {
    // Room for exactly one search once the reserve is set aside.
    const search = opCostUsd("search");
    const budget = new Budget(envelope({ max_cost_usd: 0.02, synthesis_cost_reserve_usd: 0.02 - search }));
    expect(budget.searchBlocker()).toBeNull();
    budget.charge("search");
    expect(budget.searchBlocker()).toBe("max_cost");
    expect(budget.readBlocker()).toBe("max_cost");
    // The synthesis may spend the reserve, never more than the envelope.
    expect(budget.canAfford(0.02 - search)).toBe(true);
    expect(budget.canAfford(0.02)).toBe(false);
  });

  it("keeps the synthesis time reserve out of the fan-out", () => {
    let now = 1_000_000;
    const budget = new Budget(envelope({ max_wallclock_secs: 60, synthesis_time_reserve_secs: 20 }), () => now);
    now += 39_000;
    expect(budget.searchBlocker()).toBeNull();
    now += 1_000;
    expect(budget.searchBlocker()).toBe("deadline");
    expect(budget.readBlocker()).toBe("deadline");
    expect(budget.timeLeftMs()).toBe(20_000);
  });

  it("charges a cached read at the cached price", () => {
    const budget = new Budget(envelope());
    budget.charge("page_read");
    budget.refundCachedRead();
    expect(budget.costUsd).toBeCloseTo(opCostUsd("page_read_cached"), 9);
    expect(budget.pages).toBe(1);
  });
});

describe("the engine within its envelope", () => {
  const question = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";

  it("never exceeds max_searches, max_pages, max_waves or max_cost_usd", async () => {
    for (const limits of [
      { max_searches: 1, max_pages: 1, max_waves: 3 },
      { max_searches: 3, max_pages: 2, max_waves: 2 },
      { max_searches: 30, max_pages: 60, max_waves: 1 },
    ]) {
      const budgets = envelope({ ...limits, branches: 4 });
      const providers = memoryProviders(TWO_HOP_DOCS);
      const result = await runResearch({ question, mode: "standard", budgets, include_sources: true }, { providers });
      expect(result.searches).toBeLessThanOrEqual(limits.max_searches);
      expect(providers.search.queries.length).toBe(result.searches);
      expect(result.pages).toBeLessThanOrEqual(limits.max_pages);
      expect(providers.reader.reads.length).toBe(result.pages);
      expect(result.wave_count).toBeLessThanOrEqual(limits.max_waves);
      expect(result.cost_usd).toBeLessThanOrEqual(budgets.max_cost_usd);
    }
  });

  it("stops for cost before the envelope is spent", async () => {
    const budgets = envelope({ max_cost_usd: 0.012, synthesis_cost_reserve_usd: 0.004 });
    const result = await runResearch({ question, mode: "standard", budgets, include_sources: false }, { providers: memoryProviders(TWO_HOP_DOCS) });
    expect(result.stopped_reason).toBe("max_cost");
    expect(result.cost_usd).toBeLessThanOrEqual(0.012);
  });

  it("stops at the deadline minus the synthesis reserve", async () => {
    let now = 0;
    const providers = memoryProviders(TWO_HOP_DOCS);
    const search = providers.search.search.bind(providers.search);
    providers.search.search = async (query) => {
      now += 15_000; // each search takes 15 s of the clock
      return search(query);
    };
    // Gathering may run until 60 - 20 = 40 s: wave 1 (2 searches, 30 s) reads; wave 2's reads are past it.
    const budgets = envelope({ branches: 2, max_wallclock_secs: 60, synthesis_time_reserve_secs: 20 });
    const result = await runResearch({ question, mode: "standard", budgets, include_sources: false }, { providers, now: () => now });
    expect(result.stopped_reason).toBe("deadline");
    expect(result.wave_count).toBe(2);
    expect(providers.reader.reads.length).toBeGreaterThan(0);
    expect(result.brief).not.toBe("");
  });

  it("fails with NoEvidenceError when the deadline passes before anything is read", async () => {
    let now = 0;
    const providers = memoryProviders(TWO_HOP_DOCS);
    const search = providers.search.search.bind(providers.search);
    providers.search.search = async (query) => {
      now += 50_000;
      return search(query);
    };
    const budgets = envelope({ max_wallclock_secs: 60, synthesis_time_reserve_secs: 20 });
    await expect(runResearch({ question, mode: "standard", budgets, include_sources: false }, { providers, now: () => now })).rejects.toMatchObject({
      name: "NoEvidenceError",
    });
  });

  it("answers a two-hop question by following the entity found in wave 1", async () => {
    const providers = memoryProviders(TWO_HOP_DOCS);
    const result = await runResearch({ question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true }, { providers });
    expect(result.wave_count).toBe(2);
    expect(providers.search.queries.some((query) => query.query === "Shirley Temple")).toBe(true);
    expect(result.sources.map((source) => source.title)).toEqual(expect.arrayContaining(["Kiss and Tell (1945 film)", "Shirley Temple"]));
    expect(result.brief).toContain("Chief of Protocol");
  });

  it("stops early when a wave adds nothing new", async () => {
    const docs: FakeDoc[] = [{ url: "https://a.example/only", title: "Kiss and Tell", text: "Kiss and Tell starred Shirley Temple as Corliss Archer." }];
    const result = await runResearch({ question, mode: "pro", budgets: budgetsForMode("pro"), include_sources: true }, { providers: memoryProviders(docs) });
    expect(result.stopped_reason).toBe("no_new_evidence");
    expect(result.wave_count).toBe(2);
  });

  it("re-checks every result against include_domains / exclude_domains; diversity brings in every domain", async () => {
    const docs: FakeDoc[] = [
      ...["a", "b", "c", "d"].map((name) => ({ url: `https://news.example.com/${name}`, title: `Tariff ${name}`, text: `The tariff was debated (${name}).` })),
      ...["a", "b", "c"].map((name) => ({ url: `https://blog.other.org/${name}`, title: `Tariff blog ${name}`, text: `Tariffs rose (${name}).` })),
      { url: "https://sub.news.example.com/x", title: "Tariff sub", text: "The tariff fell." },
    ];
    const mixed = await runResearch(
      { question: "What was said about the tariff?", mode: "standard", budgets: budgetsForMode("standard"), include_sources: true },
      { providers: memoryProviders(docs) },
    );
    expect(new Set(memoryProvidersReads(mixed))).toEqual(new Set(["news.example.com", "blog.other.org", "sub.news.example.com"]));

    const only = await runResearch(
      {
        question: "What was said about the tariff?",
        mode: "standard",
        budgets: budgetsForMode("standard"),
        include_sources: true,
        include_domains: ["example.com"],
        exclude_domains: ["sub.news.example.com"],
      },
      { providers: memoryProviders(docs) },
    );
    expect(only.sources.length).toBeGreaterThan(0);
    for (const source of only.sources) {
      expect(source.domain.endsWith("example.com")).toBe(true);
      expect(source.domain).not.toBe("sub.news.example.com");
    }
  });

  it("can be cancelled between steps", async () => {
    const controller = new AbortController();
    const stages: string[] = [];
    const run = runResearch(
      { question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true },
      { providers: memoryProviders(TWO_HOP_DOCS) },
      {
        signal: controller.signal,
        onProgress: (progress) => {
          stages.push(progress.stage);
          if (progress.stage === "reading") controller.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({ name: "ResearchCancelledError" });
    expect(stages).not.toContain("synthesizing");
  });
});

function memoryProvidersReads(result: { sources: { domain: string }[] }): string[] {
  return result.sources.map((source) => source.domain);
}
