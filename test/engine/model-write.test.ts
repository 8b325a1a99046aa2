import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ResearchCancelledError, runResearch } from "../../src/research/engine";
import { briefClaims, citationProblems, citationsIn } from "../../src/research/engine/write";
import { budgetsForMode, llmCostUsd, opCostUsd, type ResearchBudgets, type ResearchMode } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { type ModelCall, type ScriptedAnswer, scriptedModel } from "../scripted-model";
import { type FakeDoc, memoryProviders, TWO_HOP_DOCS, WIKI } from "./helpers";

/**
 * The write, critic and typed-output stages with a hosted model (issue 27), through the engine's
 * job path: fake search and reader, and a scripted OpenAI-compatible model (MSW) that answers
 * each call from what it contains. No network.
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BASE = "https://llm.test/v1";
const question = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";
/** What one scripted call costs: the usage the scripted model reports. */
const CALL_USD = llmCostUsd(800, 150);

type Route = (call: ModelCall) => ScriptedAnswer;
const isWrite = (call: ModelCall) => call.system.startsWith("You are a research analyst");
const isCritic = (call: ModelCall) => call.system.startsWith("You are a fact checker");
const isRevise = (call: ModelCall) => call.system.startsWith("You are revising");
const isTyped = (call: ModelCall) => call.system.startsWith("You convert a research brief into JSON");

/** The number the write prompt gave a page ("[2] Shirley Temple (en.wikipedia.org)"). */
function numberOf(call: ModelCall, title: string): number {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const found = new RegExp(`^\\[(\\d+)\\] ${escaped} \\(`, "m").exec(call.user);
  if (!found) throw new Error(`${title} is not among the numbered sources`);
  return Number(found[1]);
}

/** The claims of a critic prompt, by their number: "[3] She was named ...". */
function criticClaims(call: ModelCall): { id: number; text: string }[] {
  return [...call.user.matchAll(/^\[(\d+)\] (.+)$/gm)].map((match) => ({ id: Number(match[1]), text: match[2]! }));
}

/** The critic's answer: every claim supported. */
const allSupported: Route = (call) => JSON.stringify({ verdicts: criticClaims(call).map(({ id }) => ({ id, verdict: "supported" })) });

/** The scripted model: each stage answered by its own route; any other call (a stage not under test) is refused with a 400. */
function model(routes: { write?: Route; critic?: Route; revise?: Route; typed?: Route }) {
  const scripted = scriptedModel(BASE, (call) => {
    if (isWrite(call) && routes.write) return routes.write(call);
    if (isCritic(call) && routes.critic) return routes.critic(call);
    if (isRevise(call) && routes.revise) return routes.revise(call);
    if (isTyped(call) && routes.typed) return routes.typed(call);
    return { status: 400 };
  });
  server.use(scripted.handler);
  return scripted.calls;
}

function run(
  mode: ResearchMode,
  withModel: boolean,
  options: { budgets?: ResearchBudgets; schema?: Record<string, unknown>; docs?: FakeDoc[]; signal?: AbortSignal; question?: string } = {},
) {
  const budgets = options.budgets ?? budgetsForMode(mode, mode === "max" ? { maxCredits: 300 } : {});
  const providers = { ...memoryProviders(options.docs ?? TWO_HOP_DOCS), llm: withModel ? new OpenAiCompatibleModel(BASE, "scripted") : null };
  return runResearch(
    { question: options.question ?? question, mode, budgets, include_sources: true, response_schema: options.schema ?? null },
    { providers },
    { signal: options.signal },
  );
}

type Result = Awaited<ReturnType<typeof run>>;

/** The brief's contract: every [n] resolves to a source, every claim's quote is that source's text at its offsets, sources in citation order, every source cited. */
function expectContract(result: Result, docs: FakeDoc[] = TWO_HOP_DOCS) {
  expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
  const order = [...new Set(citationsIn(briefClaims(result.brief)))];
  expect(order).toEqual(result.sources.map((_, index) => index + 1));
  for (const citation of result.citations) {
    const doc = docs.find((entry) => entry.url === result.sources[citation.source]!.url)!;
    expect(doc.text.slice(citation.start, citation.end)).toBe(citation.quote);
  }
  // Every sentence of the brief has at least one citation entry quoting what it rests on.
  for (const claim of result.citations.filter((citation) => citation.field === undefined)) expect(claim.quote.length).toBeGreaterThan(0);
}

const sourceIndex = (result: Result, title: string) => result.sources.findIndex((source) => source.title === title);

type Quote = { source: number; quote: string };
type Claim = { text: string; quotes: Quote[]; heading?: string | null; bullet?: boolean };

/** A write answer: the claims with their quotes, the answer and (for a report) the open questions. */
function written(claims: Claim[], answer: { text: string; confidence: string; quotes: Quote[] } | null, openQuestions?: string[]): string {
  return JSON.stringify({ claims, answer, ...(openQuestions ? { open_questions: openQuestions } : {}) });
}

/** The claims a revise prompt lists: "[2] Shirley Temple won…". */
function revisedClaims(call: ModelCall): { id: string; text: string; problem: string }[] {
  return [...call.user.matchAll(/^\[(\d+|answer)\] (.+)\n(?: {2}quote[^\n]*\n)* {2}problem: (.+)$/gm)].map((match) => ({
    id: match[1]!,
    text: match[2]!,
    problem: match[3]!,
  }));
}

const TEMPLE = "As an adult, she was named United States ambassador to Ghana and to Czechoslovakia and also served as Chief of Protocol of the United States.";
const FILM = "Kiss and Tell is a 1945 American comedy film starring then 17-year-old Shirley Temple as Corliss Archer.";
const BORN = "Shirley Temple Black (April 23, 1928 – February 10, 2014) was an American actress, singer, dancer, businesswoman, and diplomat.";

describe("write: claims that carry their quotes (issue 40)", () => {
  it("a paraphrased claim with verbatim quotes is kept as written, its quotes its citations; a job whose write checks makes no revise call", async () => {
    const calls = model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        const film = numberOf(call, "Kiss and Tell (1945 film)");
        return written(
          [
            // A paraphrase: "Corliss Archer" and "Chief of Protocol" are in its two quotes, from two sources.
            {
              text: "The actress who played Corliss Archer, Shirley Temple, later became the United States Chief of Protocol.",
              quotes: [
                { source: film, quote: FILM },
                // Typographic quotes and extra spaces are a copy, not a change.
                { source: temple, quote: "also  served as Chief of Protocol of the United States" },
              ],
            },
            { text: "Shirley Temple was also an ambassador to Ghana and Czechoslovakia.", quotes: [{ source: temple, quote: TEMPLE }], bullet: true },
            { text: "Kiss and Tell came out in 1945.", quotes: [{ source: film, quote: FILM }], bullet: true },
          ],
          { text: "Chief of Protocol of the United States", confidence: "high", quotes: [{ source: temple, quote: TEMPLE }] },
        );
      },
      critic: allSupported,
    });
    const result = await run("standard", true);
    expect(calls.filter(isWrite)).toHaveLength(1);
    expect(calls.filter(isRevise)).toHaveLength(0);
    // The critic runs in standard too, when the envelope pays for it.
    expect(calls.filter(isCritic)).toHaveLength(1);
    expect(calls[0]!.body.response_format).toEqual({ type: "json_object" });
    expect(result.brief).toMatch(/^The actress who played Corliss Archer, Shirley Temple, later became the United States Chief of Protocol \[1\]\[2\]\./);
    expect(result.brief).toContain("- Shirley Temple was also an ambassador to Ghana and Czechoslovakia [2].");
    expectContract(result);
    const protocol = result.citations.filter((citation) => citation.claim.startsWith("The actress"));
    // Each quote is the source's own text at its offsets (a closing full stop is not part of a span).
    expect(protocol.map((citation) => citation.quote)).toEqual([FILM.slice(0, -1), "also served as Chief of Protocol of the United States"]);
    expect(result.answer).toEqual({ text: "Chief of Protocol of the United States", confidence: "high", citations: [sourceIndex(result, "Shirley Temple")] });
    expect(result.write_report).toMatchObject({ calls: 2, answer: { kept: true, reason: null } });
    expect(result.write_report!.claims.every((claim) => claim.kept && !claim.revised)).toBe(true);
  });

  it("a fabricated quote and a number its quotes lack go back to the model once with why; what it cannot fix is dropped", async () => {
    const calls = model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        return written(
          [
            { text: "Shirley Temple served as Chief of Protocol of the United States.", quotes: [{ source: temple, quote: TEMPLE }] },
            {
              text: "Shirley Temple won three Nobel prizes in chemistry.",
              quotes: [{ source: temple, quote: "Shirley Temple won three Nobel prizes in chemistry" }],
              bullet: true,
            },
            { text: "Shirley Temple became ambassador to Ghana in 1974.", quotes: [{ source: temple, quote: TEMPLE }], bullet: true },
          ],
          { text: "Secretary of State", confidence: "high", quotes: [{ source: temple, quote: "she was named Secretary of State" }] },
        );
      },
      critic: allSupported,
      // The model withdraws the prize and keeps the year: both still fail, and are dropped.
      revise: (call) => {
        const listed = revisedClaims(call);
        return JSON.stringify({
          claims: listed
            .filter((claim) => claim.id !== "answer")
            .map((claim) =>
              claim.text.includes("Nobel")
                ? { id: Number(claim.id), withdraw: true }
                : { id: Number(claim.id), text: claim.text, quotes: [{ source: 1, quote: TEMPLE }] },
            ),
          answer: { withdraw: true },
        });
      },
    });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    const revise = calls.filter(isRevise);
    expect(revise).toHaveLength(1);
    const listed = revisedClaims(revise[0]!);
    expect(listed.map((claim) => claim.problem)).toEqual([
      expect.stringMatching(/^the quote "Shirley Temple won three Nobel prizes in chemistry" is not in source \d/),
      expect.stringMatching(/^1974 is in none of its quotes/),
      expect.stringMatching(/^the quote "she was named Secretary of State" is not in source \d/),
    ]);
    expect(result.brief).toContain("Chief of Protocol");
    expect(result.brief).not.toMatch(/Nobel|1974|Secretary of State/);
    expectContract(result);
    expect(result.answer?.text ?? null).toBe(offline.answer?.text ?? null);
    const report = result.write_report!;
    expect(report.calls).toBe(3);
    expect(report.claims.map((claim) => [claim.kept, claim.revised])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect(report.claims[1]!.reason).toMatch(/^withdrawn: the quote/);
    expect(report.answer).toMatchObject({ text: "Secretary of State", kept: false });
  });

  it("a claim the revise turn corrects is kept in its corrected form", async () => {
    const calls = model({
      write: (call) =>
        written(
          [{ text: "Shirley Temple was born in 1929 and served as Chief of Protocol.", quotes: [{ source: numberOf(call, "Shirley Temple"), quote: TEMPLE }] }],
          null,
        ),
      critic: allSupported,
      revise: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        return JSON.stringify({
          claims: [
            {
              id: 1,
              text: "Shirley Temple was born in 1928 and served as Chief of Protocol.",
              quotes: [
                { source: temple, quote: BORN },
                { source: temple, quote: TEMPLE },
              ],
            },
          ],
        });
      },
    });
    const result = await run("standard", true);
    expect(calls.filter(isRevise)).toHaveLength(1);
    expect(result.brief).toBe("Shirley Temple was born in 1928 and served as Chief of Protocol [1].");
    expectContract(result);
    expect(result.write_report!.claims[0]).toMatchObject({ kept: true, revised: true });
  });

  it("a dropped opening is replaced by a kept claim that names its subject, never by a dangling pronoun", async () => {
    model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        const film = numberOf(call, "Kiss and Tell (1945 film)");
        return written(
          [
            { text: "The woman who played Corliss Archer became Secretary of State in 1990.", quotes: [{ source: temple, quote: TEMPLE }] },
            { text: "She was also named ambassador to Ghana.", quotes: [{ source: temple, quote: TEMPLE }] },
            { text: "Shirley Temple played Corliss Archer in Kiss and Tell.", quotes: [{ source: film, quote: FILM }], heading: "The film", bullet: true },
            {
              text: "Shirley Temple served as Chief of Protocol of the United States.",
              quotes: [{ source: temple, quote: TEMPLE }],
              heading: "Her career",
              bullet: true,
            },
          ],
          null,
        );
      },
      critic: allSupported,
      revise: () =>
        JSON.stringify({
          claims: [
            { id: 1, withdraw: true },
            { id: 2, withdraw: true },
          ],
        }),
    });
    const result = await run("standard", true);
    // "She was also…" leaned on the withdrawn opening: it went back with it, and is gone.
    expect(result.brief).not.toMatch(/Secretary of State|^She\b|\bShe was also/m);
    expect(result.brief).toMatch(/^Shirley Temple played Corliss Archer in Kiss and Tell \[\d\]\./);
    // One line under a heading is a sentence, not an orphaned bullet.
    expect(result.brief).toContain("**Her career**\nShirley Temple served as Chief of Protocol");
    expect(result.brief).not.toMatch(/^- /m);
    expectContract(result);
  });

  it("a demonym holds its country: an answer naming Japan rests on a quote saying Japanese", async () => {
    const docs: FakeDoc[] = [
      {
        url: WIKI("Buck-Tick"),
        title: "Buck-Tick",
        text: "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983. The band has released many albums.",
      },
    ];
    const quote = "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983";
    const calls = model({
      write: () =>
        written([{ text: "Buck-Tick was formed in Fujioka, Gunma, Japan, in 1983.", quotes: [{ source: 1, quote }] }], {
          text: "Fujioka, Gunma, Japan",
          confidence: "high",
          quotes: [{ source: 1, quote }],
        }),
      critic: allSupported,
    });
    const result = await run("standard", true, { docs, question: "Where was the band Buck-Tick formed?" });
    expect(calls.filter(isRevise)).toHaveLength(0);
    expect(result.brief).toBe("Buck-Tick was formed in Fujioka, Gunma, Japan, in 1983 [1].");
    expect(result.answer).toEqual({ text: "Fujioka, Gunma, Japan", confidence: "high", citations: [0] });
  });

  it("a comparison that states both sides from two sources is kept, and so is the answer resting on both", async () => {
    const docs: FakeDoc[] = [
      {
        url: WIKI("Letters to Cleo"),
        title: "Letters to Cleo",
        text: "Letters to Cleo is an American alternative rock band from Boston. The band had six members over its history.",
      },
      {
        url: WIKI("Screaming Trees"),
        title: "Screaming Trees",
        text: "Screaming Trees was an American rock band from Ellensburg. The band had four members at its peak.",
      },
    ];
    const cleo = "The band had six members over its history";
    const trees = "The band had four members at its peak";
    const calls = model({
      write: (call) => {
        const a = numberOf(call, "Letters to Cleo");
        const b = numberOf(call, "Screaming Trees");
        return written(
          [
            {
              text: "Letters to Cleo had more members: 6, against the four of Screaming Trees.",
              quotes: [
                { source: a, quote: `Letters to Cleo is an American alternative rock band from Boston. ${cleo}` },
                { source: b, quote: `Screaming Trees was an American rock band from Ellensburg. ${trees}` },
              ],
            },
          ],
          {
            text: "Letters to Cleo",
            confidence: "high",
            quotes: [
              { source: a, quote: cleo },
              { source: b, quote: trees },
            ],
          },
        );
      },
      critic: allSupported,
    });
    const result = await run("standard", true, { docs, question: "Which band had more members, Letters to Cleo or Screaming Trees?" });
    expect(calls.filter(isRevise)).toHaveLength(0);
    expect(result.brief).toMatch(/^Letters to Cleo had more members: 6, against the four of Screaming Trees \[1\]\[2\]\.$/);
    expectContract(result, docs);
    expect(result.answer).toMatchObject({ text: "Letters to Cleo", citations: [0, 1] });
  });

  it("an answer resting on a document the brief does not cite is refused", async () => {
    model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        const film = numberOf(call, "Kiss and Tell (1945 film)");
        // The brief cites only the film; the answer quotes Shirley Temple's page.
        return written([{ text: "Kiss and Tell starred Shirley Temple as Corliss Archer.", quotes: [{ source: film, quote: FILM }] }], {
          text: "Chief of Protocol of the United States",
          confidence: "high",
          quotes: [{ source: temple, quote: TEMPLE }],
        });
      },
      critic: allSupported,
    });
    const result = await run("standard", true);
    expect(result.sources.map((source) => source.title)).toEqual(["Kiss and Tell (1945 film)"]);
    expect(result.answer).toBeNull();
  });

  it("what the critic calls partly supported goes back to be revised, and a report keeps its sections and open questions", async () => {
    for (const mode of ["pro", "max"] as const) {
      const calls = model({
        write: (call) => {
          const temple = numberOf(call, "Shirley Temple");
          const film = numberOf(call, "Kiss and Tell (1945 film)");
          return written(
            [
              {
                text: "Shirley Temple, who played Corliss Archer, served as Chief of Protocol of the United States.",
                quotes: [
                  { source: film, quote: FILM },
                  { source: temple, quote: TEMPLE },
                ],
              },
              {
                text: "Kiss and Tell is a 1945 American comedy starring Shirley Temple.",
                quotes: [{ source: film, quote: FILM }],
                heading: mode === "pro" ? "Findings" : null,
                bullet: true,
              },
              {
                text: "Shirley Temple was the best ambassador Ghana ever had.",
                quotes: [{ source: temple, quote: TEMPLE }],
                heading: mode === "pro" ? "Findings" : null,
                bullet: true,
              },
            ],
            { text: "Chief of Protocol of the United States", confidence: "high", quotes: [{ source: temple, quote: TEMPLE }] },
            ["When did Shirley Temple serve as Chief of Protocol?"],
          );
        },
        critic: (call) =>
          JSON.stringify({ verdicts: criticClaims(call).map(({ id, text }) => ({ id, verdict: /best ambassador/.test(text) ? "partly" : "supported" })) }),
        revise: () => JSON.stringify({ claims: [{ id: 1, withdraw: true }] }),
      });
      const result = await run(mode, true);
      expect(revisedClaims(calls.filter(isRevise)[0]!)).toEqual([expect.objectContaining({ problem: expect.stringMatching(/fact checker/) })]);
      expect(result.brief).toMatch(/^Shirley Temple, who played Corliss Archer/);
      expect(result.brief).toMatch(/\n\n## Findings\n/);
      expect(result.brief).not.toContain("best ambassador");
      expect(result.brief).toMatch(/\n\n## Open questions\n- When did Shirley Temple serve as Chief of Protocol\?$/);
      expectContract(result);
      server.resetHandlers();
    }
  });
});

describe("failures of the write call fall back, and the job succeeds", () => {
  it("(e) malformed JSON twice: the extractive brief and the engine's own answer", async () => {
    const calls = model({ write: () => "Sure, here is the brief: {brief: oops" });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    expect(calls.filter(isWrite)).toHaveLength(2); // the answer and its repair turn
    expect(calls.filter(isWrite)[1]!.user).toMatch(/^That answer cannot be used/);
    expect(result.brief).toBe(offline.brief);
    expect(result.answer).toEqual(offline.answer);
    expectContract(result);
  });

  it("(e) a 429 then success: the model's brief, its calls charged once each", async () => {
    let attempts = 0;
    const calls = model({
      write: (call) => {
        attempts++;
        if (attempts === 1) return { status: 429 };
        return written(
          [{ text: "Shirley Temple served as Chief of Protocol of the United States.", quotes: [{ source: numberOf(call, "Shirley Temple"), quote: TEMPLE }] }],
          null,
        );
      },
      critic: allSupported,
    });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    expect(calls.filter(isWrite)).toHaveLength(2);
    expect(result.brief).toBe("Shirley Temple served as Chief of Protocol of the United States [1].");
    expectContract(result);
    expect(result.cost_usd).toBeCloseTo(offline.cost_usd + 2 * CALL_USD, 6);
  });

  it("a prose brief with [n] markers and no quotes (a model without JSON) is asked for its quotes once, then dropped", async () => {
    const calls = model({
      write: (call) => `Shirley Temple served as Chief of Protocol of the United States [${numberOf(call, "Shirley Temple")}].`,
      revise: () => ({ status: 500 }),
    });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    expect(revisedClaims(calls.filter(isRevise)[0]!)[0]!.problem).toMatch(/^it has no quote/);
    expect(result.brief).toBe(offline.brief);
  });
});

describe("typed output from the model", () => {
  const schema = {
    type: "object",
    required: ["position"],
    properties: { position: { type: "string" }, birthplace: { type: "string" } },
    additionalProperties: false,
  };

  it("(f) parses a weak local model's fenced JSON and removes a value no passage supports", async () => {
    const calls = model({
      write: (call) =>
        written(
          [
            { text: "Shirley Temple served as Chief of Protocol of the United States.", quotes: [{ source: numberOf(call, "Shirley Temple"), quote: TEMPLE }] },
            { text: "Shirley Temple was an ambassador to Ghana.", quotes: [{ source: numberOf(call, "Shirley Temple"), quote: TEMPLE }], bullet: true },
          ],
          null,
        ),
      typed: () => 'Sure! Here is the JSON:\n```json\n{"position": "Chief of Protocol", "birthplace": "Paris"}\n```\nLet me know if you need more.',
    });
    const result = await run("standard", true, { schema });
    const typed = calls.filter(isTyped);
    expect(typed).toHaveLength(1);
    expect(typed[0]!.user).toContain("Chief of Protocol"); // the brief and its quotes are the evidence
    // The sentence both claims quote is listed once under its source.
    const sources = typed[0]!.user.split("\n\nSources:\n")[1]!;
    expect(sources.split("ambassador to Ghana").length - 1).toBe(1);
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    const basis = result.citations.filter((citation) => citation.field !== undefined);
    expect(basis.map((entry) => entry.field)).toEqual(["position"]);
    expect(basis[0]!.quote).toContain("Chief of Protocol");
    expectContract(result);
  });

  it("(f) a required value no passage supports fails the job as the offline rules say", async () => {
    model({
      write: (call) =>
        written(
          [{ text: "Shirley Temple served as Chief of Protocol of the United States.", quotes: [{ source: numberOf(call, "Shirley Temple"), quote: TEMPLE }] }],
          null,
        ),
      typed: () => '{"position": "Secretary of State"}',
    });
    await expect(run("standard", true, { schema })).rejects.toThrow("Typed output: no source supports the required field(s) position");
  });
});

describe("budgets", () => {
  it("(g) with an envelope too small for the call, the extractive brief stands and nothing is charged for the model", async () => {
    const offline = await run("standard", false);
    const extra = 0.0001;
    const budgets = {
      ...budgetsForMode("standard"),
      max_cost_usd: offline.cost_usd + extra,
      synthesis_cost_reserve_usd: opCostUsd("extractive_synthesis") + extra,
    };
    const calls = model({ write: () => written([{ text: "Never.", quotes: [] }], null), critic: () => "{}", typed: () => "{}" });
    const result = await run("standard", true, { budgets });
    // No synthesis call (plan and reflect may be asked while gathering; this model refuses them).
    expect(calls.filter((call) => isWrite(call) || isCritic(call) || isTyped(call))).toHaveLength(0);
    expect(result.brief).toBe(offline.brief);
    expect(result.answer).toEqual(offline.answer);
    expect(result.cost_usd).toBe(offline.cost_usd);
  });

  it("the write call's evidence is cut to its context budget", async () => {
    // One sentence of 100,000 characters: a passage far larger than a call may hold.
    const long = `Shirley Temple served as Chief of Protocol of the United States${", and as a delegate to the United Nations".repeat(2500)}.`;
    const docs = TWO_HOP_DOCS.map((doc) => (doc.title === "Shirley Temple" ? { ...doc, text: `${doc.text} ${long}` } : doc));
    const calls = model({ write: () => written([{ text: "Never.", quotes: [] }], null) });
    await run("standard", true, { docs });
    expect(calls[0]!.user.length).toBeLessThan(8000 * 4 + 500);
  });

  it("the deadline aborts an in-flight write call: the extractive brief stands, inside the envelope's time", async () => {
    const budgets = { ...budgetsForMode("standard"), max_wallclock_secs: 3, synthesis_time_reserve_secs: 2 };
    const calls = model({
      write: () => ({
        delayMs: 20_000,
        text: written([{ text: "Shirley Temple served as Chief of Protocol of the United States.", quotes: [{ source: 1, quote: TEMPLE }] }], null),
      }),
    });
    const started = Date.now();
    const result = await run("standard", true, { budgets });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(calls.filter(isWrite)).toHaveLength(1);
    expect(result.brief).not.toMatch(/^Shirley Temple served as Chief of Protocol of the United States \[1\]\.$/);
    expectContract(result);
  });

  it("cancel aborts an in-flight write call and the job ends cancelled", async () => {
    const cancel = new AbortController();
    model({
      write: () => {
        cancel.abort(new Error("cancelled"));
        return { delayMs: 20_000, text: written([{ text: "Late.", quotes: [] }], null) };
      },
    });
    const started = Date.now();
    await expect(run("standard", true, { signal: cancel.signal })).rejects.toBeInstanceOf(ResearchCancelledError);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
