import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PriorEvidence, type ResearchInput, runResearch } from "../../src/research/engine";
import { writePrompt } from "../../src/research/engine/prompts";
import { budgetsForMode } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { scriptedModel } from "../scripted-model";
import { type FakeDoc, MemoryReader, MemorySearch } from "./helpers";

/**
 * A follow-up's prior evidence at the engine's entry (issue 45): offline and with a model, the
 * pages the thread read before are evidence of the run without being read again (the reader never
 * sees them), and the brief may cite them beside what the run reads itself, in one numbering.
 * (The job path, through HTTP, is test/research/follow-up.test.ts; a job cannot be given a model
 * per test, so the model path is tested here, below the job, as test/engine/plan-reflect.test.ts does.)
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BASE = "https://llm.example/v1";
const LEDGER_URL = "https://records.example.net/ledger-42";
const PRIOR: PriorEvidence = {
  pages: [
    {
      url: LEDGER_URL,
      title: "Ledger 42",
      text: "The ledger of the Zorblat Accord lists 42 signatories from the river towns. It was sealed in 1911.",
      domain: "records.example.net",
      job_id: "0b5f5c3e-6d0e-4a53-9f1f-1d2b2f4b9a11",
    },
  ],
  searched: ["Zorblat Accord ledger"],
};
const SEARCHABLE: FakeDoc[] = [
  {
    url: "https://archive.example.org/zorblat-accord",
    title: "Zorblat Accord",
    text: "The Zorblat Accord was signed in 1911 by the river towns of the Zorblat valley. The accord set tolls on the river.",
  },
];
const QUESTION = "How many signatories does the ledger of the Zorblat Accord list, and what did the accord set?";

function input(): ResearchInput {
  return { question: QUESTION, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, include_domains: [], exclude_domains: [] };
}

describe("runResearch with prior evidence", () => {
  it("offline: the prior page is evidence without a read, and the brief numbers it with the pages read now", async () => {
    const search = new MemorySearch(SEARCHABLE);
    const reader = new MemoryReader([...SEARCHABLE, { url: LEDGER_URL, title: "Ledger 42", text: PRIOR.pages[0]!.text }]);
    const sources: string[] = [];
    const result = await runResearch(
      input(),
      { providers: { search, reader, llm: null } },
      { onSource: (source) => void sources.push(source.url) },
      { prior: PRIOR },
    );
    expect(reader.reads).not.toContain(LEDGER_URL);
    expect(reader.reads).toContain(SEARCHABLE[0]!.url);
    expect(search.queries.map((query) => query.query)).not.toContain("Zorblat Accord ledger");
    expect(sources[0]).toBe(LEDGER_URL);
    const urls = result.sources.map((source) => source.url);
    expect(urls).toContain(LEDGER_URL);
    expect(urls).toContain(SEARCHABLE[0]!.url);
  });

  it("with a model: the write stage is shown the prior page and cites it beside the new one", async () => {
    const briefSystems = [writePrompt("", [], false).system, writePrompt("", [], true).system];
    const scripted = scriptedModel(BASE, (call) => {
      if (!briefSystems.includes(call.system)) return { status: 400 };
      const ledger = /\[(\d+)\] Ledger 42/.exec(call.user)?.[1];
      const accord = /\[(\d+)\] Zorblat Accord/.exec(call.user)?.[1];
      if (!ledger || !accord) return "The sources do not say [1].";
      const first = "The ledger of the Zorblat Accord lists 42 signatories from the river towns";
      const second = "The accord set tolls on the river";
      return JSON.stringify({
        claims: [
          { text: `${first}.`, quotes: [{ source: Number(ledger), quote: first }] },
          { text: `${second}.`, quotes: [{ source: Number(accord), quote: second }] },
        ],
        answer: null,
      });
    });
    server.use(scripted.handler);
    const search = new MemorySearch(SEARCHABLE);
    const reader = new MemoryReader(SEARCHABLE);
    const llm = new OpenAiCompatibleModel(BASE, "scripted", "k");
    const result = await runResearch(input(), { providers: { search, reader, llm } }, {}, { prior: PRIOR });
    expect(reader.reads).not.toContain(LEDGER_URL);
    expect(scripted.calls.some((call) => briefSystems.includes(call.system) && call.user.includes("42 signatories"))).toBe(true);
    expect(result.brief).toContain("42 signatories");
    expect(result.brief).toContain("tolls on the river");
    const cited = new Set(result.citations.map((citation) => result.sources[citation.source]!.url));
    expect(cited).toEqual(new Set([LEDGER_URL, SEARCHABLE[0]!.url]));
  });
});
