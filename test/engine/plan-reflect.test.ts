import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ResearchCancelledError, runResearch } from "../../src/research/engine";
import { KnownPages, urlsInText } from "../../src/research/engine/gather";
import { Evidence } from "../../src/research/engine/evidence";
import { MODEL_ATTEMPTS } from "../../src/research/engine/model";
import { freshQueries, planBranches, REFLECT_CONTEXT_CHARS } from "../../src/research/engine/plan";
import { planPrompt, reflectPrompt, writePrompt } from "../../src/research/engine/prompts";
import { analyzeQuestion } from "../../src/research/engine/question";
import type { ResearchBudgets, ResearchMode } from "../../src/research/pricing";
import { budgetsForMode, opCostUsd } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import type { ResearchInput, ResearchProgress } from "../../src/research/engine";
import { type ModelCall, type ScriptedAnswer, scriptedModel } from "../scripted-model";
import { type FakeDoc, MemoryReader, MemorySearch, TWO_HOP_DOCS } from "./helpers";

/**
 * The plan and reflect stages with a hosted model (issue 27), through `runResearch` with a real
 * OpenAI-compatible client talking to a scripted model over MSW, and an in-memory search and
 * reader. (The job's Durable Object builds its providers from its own environment, which a test
 * cannot set per job; the engine entry is the job path below the HTTP layer.)
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BASE = "https://llm.example/v1";
/** Each stage's system texts (the write stage has two: a brief, and the report of pro and max). */
const SYSTEM = {
  plan: [planPrompt("", 1).system],
  reflect: [reflectPrompt({ question: "", subQuestions: [], passages: [], searched: [], pages: [], maxQueries: 1, maxUrls: 1 }).system],
  brief: [writePrompt("", [], false).system, writePrompt("", [], true).system],
};
type Stage = keyof typeof SYSTEM | "other";
const stageOf = (call: ModelCall): Stage => (Object.entries(SYSTEM).find(([, systems]) => systems.includes(call.system))?.[0] as Stage | undefined) ?? "other";

/**
 * A model answering each stage from what its prompt holds. Unscripted stages: the plan and
 * reflect calls are refused (a 400, not retried), the brief cites the first source's opening.
 */
function model(script: Partial<Record<Stage, (call: ModelCall, nth: number) => ScriptedAnswer>>) {
  const counts: Record<Stage, number> = { plan: 0, reflect: 0, brief: 0, other: 0 };
  const scripted = scriptedModel(BASE, (call) => {
    const stage = stageOf(call);
    const nth = counts[stage]++;
    const answer = script[stage];
    if (answer) return answer(call, nth);
    return { status: 400 };
  });
  server.use(scripted.handler);
  const of = (stage: Stage) => scripted.calls.filter((call) => stageOf(call) === stage);
  return { calls: scripted.calls, of, llm: new OpenAiCompatibleModel(BASE, "scripted", "k") };
}

const json = (value: unknown) => JSON.stringify(value);

// A corpus where the answer is on a page no search returns: a registry page whose address is
// written in the text of the page about the accord.
const LEDGER_URL = "https://records.example.net/ledger-42";
const SEARCHABLE: FakeDoc[] = [
  {
    url: "https://archive.example.org/zorblat-accord",
    title: "Zorblat Accord",
    text: `The Zorblat Accord was signed in 1911 by the river towns of the Zorblat valley. Its ledger is kept by the registry at ${LEDGER_URL} and has not been published elsewhere. The accord set tolls on the river.`,
  },
  {
    url: "https://archive.example.org/zorblat-river",
    title: "Zorblat River",
    text: "The Zorblat River runs through the valley for 140 km. Barges carried grain to the sea.",
  },
  {
    url: "https://news.example.com/river-towns",
    title: "River towns",
    text: "The river towns elect their mayors every four years. Their markets trade grain and salt.",
  },
];
const LEDGER: FakeDoc = {
  url: LEDGER_URL,
  title: "Ledger 42",
  text: "The ledger of the Zorblat Accord lists 42 signatories. All of the signatories were mayors of the river towns.",
};
const ZORBLAT_QUESTION = "How many signatories does the ledger of the Zorblat Accord list?";
const KISS_QUESTION = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";

function providers(llm: OpenAiCompatibleModel | null, searchable: FakeDoc[] = SEARCHABLE, readable: FakeDoc[] = [...SEARCHABLE, LEDGER]) {
  return { search: new MemorySearch(searchable), reader: new MemoryReader(readable), llm };
}

async function research(
  question: string,
  deps: ReturnType<typeof providers>,
  options: { mode?: ResearchMode; budgets?: ResearchBudgets; signal?: AbortSignal; include_domains?: string[] } = {},
) {
  const mode = options.mode ?? "standard";
  const progress: ResearchProgress[] = [];
  const input: ResearchInput = {
    question,
    mode,
    budgets: options.budgets ?? budgetsForMode(mode),
    include_sources: true,
    include_domains: options.include_domains ?? [],
    exclude_domains: [],
  };
  const result = await runResearch(input, { providers: deps }, { onProgress: (event) => void progress.push(event), signal: options.signal });
  return { result, progress };
}

/** The searches of wave 1: those made before the first `reading` event (searches are charged as they are scheduled). */
function waveOneSearches(deps: ReturnType<typeof providers>, progress: ResearchProgress[]): string[] {
  const count = progress.find((event) => event.stage === "reading")!.searches;
  return deps.search.queries.slice(0, count).map((query) => query.query);
}

/** The model's plan for the Zorblat question. */
const plan = () =>
  json({ sub_questions: ["What is the Zorblat Accord?", "How many signatories does its ledger list?"], queries: ["Zorblat Accord", "Zorblat Accord ledger"] });

/** The plan the offline engine makes for a question. */
const offlinePlan = (question: string, mode: ResearchMode = "standard") => planBranches(analyzeQuestion(question), budgetsForMode(mode).branches);

describe("plan with a model", () => {
  it("searches the model's queries in wave 1: at most `branches`, none empty or repeated", async () => {
    const m = model({
      plan: () =>
        json({
          sub_questions: ["Who played Corliss Archer in Kiss and Tell?", "What government position did she hold?"],
          queries: [
            "Kiss and Tell 1945 film",
            "kiss and tell 1945 FILM",
            "",
            "Corliss Archer actress",
            "Shirley Temple",
            "Chief of Protocol",
            "Ghana ambassador",
          ],
        }),
      reflect: () => json({ answered: true, open_sub_question: null, queries: [], urls: [] }),
    });
    const deps = providers(m.llm, TWO_HOP_DOCS, TWO_HOP_DOCS);
    const { result, progress } = await research(KISS_QUESTION, deps);
    expect(waveOneSearches(deps, progress)).toEqual(["Kiss and Tell 1945 film", "Corliss Archer actress", "Shirley Temple", "Chief of Protocol"]);
    expect(offlinePlan(KISS_QUESTION)).not.toContain("Kiss and Tell 1945 film");
    // The plan prompt holds the question and the cap; the sub-questions reach each reflection.
    expect(m.of("plan")[0]!.user).toContain(KISS_QUESTION);
    expect(m.of("plan")[0]!.user).toContain("At most 4 queries");
    expect(m.of("plan")[0]!.body.response_format).toEqual({ type: "json_object" });
    expect(result.brief).toContain("Shirley Temple");
    // The plan call is metered with the job: 800 prompt and 150 answer tokens reported per call.
    expect(progress.find((event) => event.stage === "searching")!.cost_usd).toBeGreaterThan(opCostUsd("search") * 4);
  });
});

describe("reflect with a model", () => {
  it("reads a page only the reflection asks for (an address in a passage read, no search returns it), and the brief cites it", async () => {
    const m = model({
      plan,
      reflect: (call) => {
        const link = /https:\/\/records\.example\.net\/ledger-42/.exec(call.user.split("Pages not yet read:")[1] ?? "")?.[0];
        return json({ answered: false, open_sub_question: "How many signatories does its ledger list?", queries: [], urls: link ? [link] : [] });
      },
      brief: (call) => {
        const n = /\[(\d+)\] Ledger 42/.exec(call.user)?.[1];
        // Claims with their verbatim quotes (issue 40).
        const quote = "The ledger of the Zorblat Accord lists 42 signatories";
        return n ? JSON.stringify({ claims: [{ text: `${quote}.`, quotes: [{ source: Number(n), quote }] }], answer: null }) : "The sources do not say [1].";
      },
    });
    const deps = providers(m.llm);
    const { result } = await research(ZORBLAT_QUESTION, deps);
    expect(deps.search.queries.map((query) => query.query)).not.toContain(LEDGER_URL);
    expect(deps.reader.reads).toContain(LEDGER_URL);
    expect(result.sources.map((source) => source.url)).toContain(LEDGER_URL);
    expect(result.brief).toContain("42 signatories");
    expect(result.citations.some((citation) => citation.quote.includes("42 signatories"))).toBe(true);

    // Offline, the same corpus never reaches the ledger.
    const offline = providers(null);
    await research(ZORBLAT_QUESTION, offline);
    expect(offline.reader.reads).not.toContain(LEDGER_URL);
  });

  it("stops gathering when the model says the question is answered: fewer waves than the envelope", async () => {
    const answered = model({ plan, reflect: () => json({ answered: true, open_sub_question: null, queries: [], urls: [] }) });
    const { result } = await research(ZORBLAT_QUESTION, providers(answered.llm), { mode: "pro" });
    expect(result.wave_count).toBe(1);
    expect(result.stopped_reason).toBe("answered");
    expect(answered.of("reflect")).toHaveLength(1);
    server.resetHandlers();

    // Told to search on, the same job goes on to wave 2 and searches what the model asked.
    const onward = model({
      plan,
      reflect: (_call, nth) => json({ answered: false, open_sub_question: "How many signatories?", queries: [`Zorblat River towns ${nth}`], urls: [] }),
    });
    const deps = providers(onward.llm);
    const more = await research(ZORBLAT_QUESTION, deps, { mode: "pro" });
    expect(more.result.wave_count).toBeGreaterThan(1);
    expect(deps.search.queries.map((query) => query.query)).toContain("Zorblat River towns 0");
  });

  it("never repeats a search, and keeps the reflection's prompt inside its context budget however much was read", async () => {
    const long: FakeDoc[] = Array.from({ length: 12 }, (_, index) => ({
      url: `https://archive.example.org/zorblat-${index}`,
      title: `Zorblat chronicle ${index}`,
      text: Array.from(
        { length: 20 },
        (_, line) =>
          `In year ${1900 + line} the Zorblat towns of chronicle ${index} met again about the tolls of the accord, ${"and the barges, the grain, the salt and the mayors of the valley ".repeat(8)}all over again.`,
      ).join(" "),
    }));
    const m = model({
      plan,
      reflect: () => json({ answered: false, open_sub_question: null, queries: ["Zorblat Accord", "ZORBLAT ACCORD LEDGER", "Zorblat registry"], urls: [] }),
    });
    const deps = providers(m.llm, [...SEARCHABLE, ...long], [...SEARCHABLE, ...long]);
    await research(ZORBLAT_QUESTION, deps, { mode: "pro" });
    const searched = deps.search.queries.map((query) => query.query.toLowerCase());
    expect(new Set(searched).size).toBe(searched.length);
    expect(searched).toContain("zorblat registry");
    for (const call of m.of("reflect")) expect(call.user.length).toBeLessThan(REFLECT_CONTEXT_CHARS + 1000);
    expect(m.of("reflect")[0]!.user).toContain("…");
  });
});

describe("each failure falls back to the offline stage, and the job still succeeds", () => {
  it("malformed JSON twice: the offline plan is searched", async () => {
    const m = model({ plan: () => "I would start by searching for the accord." });
    const deps = providers(m.llm);
    const { result, progress } = await research(ZORBLAT_QUESTION, deps);
    expect(m.of("plan")).toHaveLength(2); // the answer and its one repair turn
    expect(m.of("plan")[1]!.user).toMatch(/cannot be used/);
    expect(waveOneSearches(deps, progress)).toEqual(offlinePlan(ZORBLAT_QUESTION));
    expect(result.sources.length).toBeGreaterThan(0);
  });

  it("a 429 then success: retried, the model's plan stands", async () => {
    const m = model({ plan: (_call, nth) => (nth === 0 ? { status: 429 } : plan()), reflect: () => json({ answered: true, queries: [], urls: [] }) });
    const deps = providers(m.llm);
    const { progress } = await research(ZORBLAT_QUESTION, deps);
    expect(m.of("plan")).toHaveLength(2);
    expect(waveOneSearches(deps, progress)).toEqual(["Zorblat Accord", "Zorblat Accord ledger"]);
  });

  it("5xx on every attempt: after its attempts the offline follow-ups are searched", async () => {
    const m = model({ plan, reflect: () => ({ status: 503 }) });
    const deps = providers(m.llm);
    const { result } = await research(ZORBLAT_QUESTION, deps);
    expect(m.of("reflect")).toHaveLength(MODEL_ATTEMPTS);
    server.resetHandlers();
    // The same job whose model does not reflect at all: the same searches, the offline follow-ups.
    const control = providers(model({ plan }).llm);
    await research(ZORBLAT_QUESTION, control);
    expect(deps.search.queries.map((query) => query.query)).toEqual(control.search.queries.map((query) => query.query));
    expect(deps.search.queries.length).toBeGreaterThan(2);
    expect(result.sources.length).toBeGreaterThan(0);
  });

  it("a call that never returns is aborted at the gathering deadline; the brief is still written in the reserve", async () => {
    const m = model({ plan, reflect: () => ({ delayMs: 20_000, text: "{}" }) });
    const started = Date.now();
    const budgets = { ...budgetsForMode("standard"), max_wallclock_secs: 4, synthesis_time_reserve_secs: 2 };
    const { result } = await research(ZORBLAT_QUESTION, providers(m.llm), { budgets });
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(result.stopped_reason).toBe("deadline");
    expect(result.wave_count).toBe(1);
    expect(result.brief.length).toBeGreaterThan(0);
  });

  it("a reflection naming pages the run does not know, or the domain lists exclude, is ignored", async () => {
    const m = model({
      plan,
      reflect: () =>
        json({
          answered: false,
          open_sub_question: null,
          queries: [],
          urls: ["https://evil.example/steal", "http://169.254.169.254/latest/meta-data", LEDGER_URL],
        }),
    });
    const deps = providers(m.llm);
    // The ledger is named in a passage read, but outside include_domains.
    const { result } = await research(ZORBLAT_QUESTION, deps, { include_domains: ["example.org", "example.com"] });
    expect(deps.reader.reads.filter((url) => !/example\.(org|com)\//.test(url))).toEqual([]);
    expect(m.of("reflect")[0]!.user).not.toContain(LEDGER_URL.replace("https://", "- https://"));
    expect(result.sources.length).toBeGreaterThan(0);
  });
});

describe("budgets and cancel hold with a model", () => {
  it("a tiny envelope: no plan or reflect call (the offline plan is used), and the synthesis reserve is untouched while gathering", async () => {
    const m = model({
      plan,
      reflect: () => json({ answered: true, queries: [], urls: [] }),
      brief: () => "The Zorblat Accord was signed in 1911 by the river towns [1].",
    });
    const reserve = 0.01;
    const budgets: ResearchBudgets = {
      ...budgetsForMode("standard"),
      synthesis_cost_reserve_usd: reserve,
      max_cost_usd: reserve + opCostUsd("search") + opCostUsd("page_read"),
    };
    const deps = providers(m.llm);
    const { result, progress } = await research(ZORBLAT_QUESTION, deps, { budgets });
    expect(m.of("plan")).toHaveLength(0);
    expect(m.of("reflect")).toHaveLength(0);
    expect(deps.search.queries.map((query) => query.query)).toEqual([offlinePlan(ZORBLAT_QUESTION)[0]]);
    const gathered = progress.find((event) => event.stage === "synthesizing")!.cost_usd;
    expect(gathered).toBeLessThanOrEqual(budgets.max_cost_usd - reserve + 1e-9);
    expect(result.cost_usd).toBeLessThanOrEqual(budgets.max_cost_usd + 1e-9);
    expect(result.sources.length).toBeGreaterThan(0);
  });

  it("cancel during an in-flight model call ends the job promptly, as cancelled", async () => {
    const abort = new AbortController();
    const m = model({
      plan: () => {
        setTimeout(() => abort.abort(new Error("cancelled by the customer")), 100);
        return { delayMs: 10_000, text: plan() };
      },
    });
    const deps = providers(m.llm);
    const started = Date.now();
    await expect(research(ZORBLAT_QUESTION, deps, { signal: abort.signal })).rejects.toBeInstanceOf(ResearchCancelledError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(deps.search.queries).toHaveLength(0);
  });
});

describe("progress with a model", () => {
  it("reports planning and reflecting, each with the running cost", async () => {
    const m = model({ plan, reflect: () => json({ answered: false, open_sub_question: null, queries: ["Zorblat River"], urls: [] }) });
    const { progress } = await research(ZORBLAT_QUESTION, providers(m.llm));
    const stages = progress.map((event) => event.stage);
    expect(stages[0]).toBe("planning");
    expect(stages).toContain("reflecting");
    expect(stages.indexOf("reflecting")).toBeGreaterThan(stages.indexOf("analyzing"));
    // The plan's sub-questions reach the reflection.
    expect(m.of("reflect")[0]!.user).toContain("2. How many signatories does its ledger list?");
    const reflecting = progress.find((event) => event.stage === "reflecting")!;
    // By then the plan call, wave 1's searches and reads are charged.
    expect(reflecting.cost_usd).toBeGreaterThan(opCostUsd("search") * 2 + opCostUsd("page_read"));
    const costs = progress.map((event) => event.cost_usd);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
  });

  it("without a model: no reflecting stage, no call", async () => {
    const { progress } = await research(ZORBLAT_QUESTION, providers(null));
    expect(progress.map((event) => event.stage)).not.toContain("reflecting");
  });
});

describe("the pure parts", () => {
  it("urlsInText: http(s) addresses, sentence punctuation and unbalanced brackets left out", () => {
    expect(
      urlsInText("See https://a.example.org/x. Also (http://b.example.com/y_(z)) and https://a.example.org/x again; ftp://c.example/no, https://localhost"),
    ).toEqual(["https://a.example.org/x", "http://b.example.com/y_(z)"]);
  });

  it("KnownPages: only pages the run knows and has not read, allowed by the domain lists, each once, at most the limit", () => {
    const known = new KnownPages();
    known.recordHits([
      {
        query: "q",
        hits: [
          { url: "https://a.example.org/hit#top", title: "Hit", snippet: "", domain: "a.example.org" },
          { url: "https://a.example.org/read", title: "Read", snippet: "", domain: "a.example.org" },
        ],
      },
    ]);
    const evidence = new Evidence();
    evidence.add(
      { url: "https://a.example.org/read", title: "Read", text: "The page links to https://b.example.com/linked and https://blocked.example.net/page." },
      "a.example.org",
      1,
      ["q"],
    );
    const filter = { includeDomains: [], excludeDomains: ["blocked.example.net"] };
    expect(known.unread(evidence, filter).map((page) => page.url)).toEqual(["https://a.example.org/hit", "https://b.example.com/linked"]);
    const asked = [
      "https://evil.example/x",
      "https://a.example.org/read",
      "https://blocked.example.net/page",
      "https://b.example.com/linked",
      "https://a.example.org/hit#again",
      "https://b.example.com/linked/",
    ];
    expect(known.resolve(asked, evidence, filter, 5).map((candidate) => candidate.hit.url)).toEqual([
      "https://b.example.com/linked",
      "https://a.example.org/hit",
    ]);
    expect(known.resolve(asked, evidence, filter, 1)).toHaveLength(1);
    expect(known.resolve(asked, evidence, filter, 5)[1]!.hit.title).toBe("Hit");
  });

  it("freshQueries: trimmed, never already searched or repeated (case aside), never empty or sentence-long, at most the limit", () => {
    expect(freshQueries(["  Zorblat   Accord ", "zorblat accord", "Shirley Temple", "", "x".repeat(201), "New one", "Another"], ["SHIRLEY TEMPLE"], 2)).toEqual(
      ["Zorblat Accord", "New one"],
    );
  });
});

describe("reflect asks for more of a page already read (issue 40)", () => {
  const TREASURY: FakeDoc = {
    url: "https://archive.example.org/zorblat-treasury",
    title: "Zorblat Accord treasurer",
    text: [
      "The treasurer of the Zorblat Accord kept the accounts of the accord.",
      ...Array.from({ length: 12 }, (_, index) => `The treasurer of the Zorblat Accord audited the toll books of the accord in session ${index + 1}.`),
      "Each year, after the harvest fairs and the long winter councils of the valley had ended, he was paid 9,117 florins from the common chest, a sum fixed by custom long before him.",
      // A long page: more than a source's share of the write call, the pay sentence ranked below all of it.
      ...Array.from({ length: 300 }, (_, index) => `The treasurer of the Zorblat Accord signed toll receipt number ${index + 100} of the accord.`),
    ].join(" "),
  };
  const QUESTION = "What was the annual pay of the treasurer of the Zorblat Accord?";

  async function writePromptWith(moreOf: boolean) {
    const m = model({
      plan: () => json({ sub_questions: [QUESTION], queries: ["Zorblat Accord treasurer"] }),
      reflect: (call) => {
        const n = /^\[(\d+)\] Zorblat Accord treasurer \(/m.exec(call.user)?.[1];
        return json({ answered: false, open_sub_question: QUESTION, queries: [], urls: [], more_of: moreOf && n ? [Number(n)] : [] });
      },
      brief: () =>
        json({
          claims: [
            {
              text: "The treasurer of the Zorblat Accord kept its accounts.",
              quotes: [{ source: 1, quote: "The treasurer of the Zorblat Accord kept the accounts of the accord" }],
            },
          ],
          answer: null,
        }),
    });
    await research(QUESTION, providers(m.llm, [TREASURY, ...SEARCHABLE], [TREASURY, ...SEARCHABLE]));
    expect(m.of("reflect").length).toBeGreaterThan(0);
    return m.of("brief")[0]!.user;
  }

  it("a sentence outside the page's best passages reaches the write call only when the reflection asked for more of the page", async () => {
    expect(await writePromptWith(false)).not.toContain("9,117 florins");
    server.resetHandlers();
    expect(await writePromptWith(true)).toContain("he was paid 9,117 florins from the common chest");
  });
});
