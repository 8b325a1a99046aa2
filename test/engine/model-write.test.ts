import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ResearchCancelledError, runResearch } from "../../src/research/engine";
import { MODEL_ATTEMPTS } from "../../src/research/engine/model";
import { briefClaims, citationProblems, citationsIn } from "../../src/research/engine/write";
import { budgetsForMode, llmCostUsd, opCostUsd, type ResearchBudgets, type ResearchMode } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { type ModelCall, type ScriptedAnswer, scriptedModel } from "../scripted-model";
import { type FakeDoc, memoryProviders, TWO_HOP_DOCS } from "./helpers";

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

/** The scripted model: each stage answered by its own route; any other call (a stage not under test) is refused with a 400. */
function model(routes: { write?: Route; critic?: Route; typed?: Route }) {
  const scripted = scriptedModel(BASE, (call) => {
    if (isWrite(call) && routes.write) return routes.write(call);
    if (isCritic(call) && routes.critic) return routes.critic(call);
    if (isTyped(call) && routes.typed) return routes.typed(call);
    return { status: 400 };
  });
  server.use(scripted.handler);
  return scripted.calls;
}

function run(
  mode: ResearchMode,
  withModel: boolean,
  options: { budgets?: ResearchBudgets; schema?: Record<string, unknown>; docs?: FakeDoc[]; signal?: AbortSignal } = {},
) {
  const budgets = options.budgets ?? budgetsForMode(mode, mode === "max" ? { maxCredits: 300 } : {});
  const providers = { ...memoryProviders(options.docs ?? TWO_HOP_DOCS), llm: withModel ? new OpenAiCompatibleModel(BASE, "scripted") : null };
  return runResearch({ question, mode, budgets, include_sources: true, response_schema: options.schema ?? null }, { providers }, { signal: options.signal });
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

/** A write answer: JSON with the brief, the answer and (for a report) the open questions. */
function written(brief: string, answer: { text: string; confidence: string; sources: number[] } | null, openQuestions?: string[]): string {
  return JSON.stringify({ brief, answer, ...(openQuestions ? { open_questions: openQuestions } : {}) });
}

describe("write: the model's brief and answer under the contract", () => {
  it("(a) reaches the output with every [n] resolved to a cited passage, its quote and offsets in citations", async () => {
    const calls = model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        const film = numberOf(call, "Kiss and Tell (1945 film)");
        return written(
          [
            `Shirley Temple, who played Corliss Archer, served as Chief of Protocol of the United States [${temple}].`,
            `- Kiss and Tell is a 1945 American comedy film starring Shirley Temple as Corliss Archer [${film}].`,
            // Two markers, one source that states it: the other marker is removed.
            `- As an adult, she was named United States ambassador to Ghana and to Czechoslovakia [${film}][${temple}].`,
          ].join("\n"),
          { text: "Chief of Protocol of the United States", confidence: "high", sources: [temple] },
        );
      },
    });
    const result = await run("standard", true);
    expect(calls.filter(isWrite)).toHaveLength(1);
    // JSON mode was asked for.
    expect(calls[0]!.body.response_format).toEqual({ type: "json_object" });
    expect(result.brief).toMatch(/^Shirley Temple, who played Corliss Archer, served as Chief of Protocol of the United States \[1\]\.\n\n- Kiss and Tell/);
    expect(result.brief).toContain("ambassador to Ghana and to Czechoslovakia [1].");
    expectContract(result);
    expect(result.answer).toEqual({ text: "Chief of Protocol of the United States", confidence: "high", citations: [sourceIndex(result, "Shirley Temple")] });
    expect(result.sources.map((source) => source.title)).toEqual(["Shirley Temple", "Kiss and Tell (1945 film)"]);
    const protocol = result.citations.filter((citation) => citation.claim.includes("Chief of Protocol"));
    expect(protocol).toHaveLength(1);
    expect(protocol[0]).toMatchObject({ source: 0, quote: expect.stringContaining("Chief of Protocol of the United States") as unknown });
    expect(result.citations.filter((citation) => citation.claim.includes("Ghana")).map((citation) => citation.source)).toEqual([0]);
    // The call is charged from the usage it reported.
    const offline = await run("standard", false);
    expect(result.cost_usd).toBeCloseTo(offline.cost_usd + CALL_USD, 6);
  });

  it("(b) a sentence no passage supports never reaches the customer, nor an answer its sources do not state", async () => {
    const calls = model({
      write: (call) => {
        const temple = numberOf(call, "Shirley Temple");
        return written(
          [
            `Shirley Temple served as Chief of Protocol of the United States [${temple}].`,
            `- Shirley Temple won three Nobel prizes in chemistry [${temple}].`,
            "- She also ran a bakery in Ohio.",
          ].join("\n"),
          { text: "Secretary of State", confidence: "high", sources: [temple] },
        );
      },
    });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    expect(calls.filter(isWrite)).toHaveLength(1);
    expect(result.brief).toContain("Chief of Protocol");
    expect(result.brief).not.toMatch(/Nobel|bakery|Secretary of State/);
    expectContract(result);
    // The engine's own answer (or its null) stands, never the model's unsupported one.
    expect(result.answer?.text).not.toBe("Secretary of State");
    expect(result.answer?.text ?? null).toBe(offline.answer?.text ?? null);
  });
});

describe("critic (pro, max): each claim judged by the model against its quotes", () => {
  const brief = (call: ModelCall) => {
    const temple = numberOf(call, "Shirley Temple");
    const film = numberOf(call, "Kiss and Tell (1945 film)");
    return written(
      [
        `Shirley Temple, who played Corliss Archer, served as Chief of Protocol of the United States [${temple}].`,
        "## Findings",
        `- Kiss and Tell is a 1945 American comedy film starring Shirley Temple as Corliss Archer [${film}].`,
        `- Kiss and Tell is a 1945 American comedy film starring Shirley Temple as Corliss Archer, then 17 [${film}].`,
        `- Shirley Temple was named United States ambassador to Ghana and to Czechoslovakia in 1950 [${temple}].`,
        `- Shirley Temple won three Nobel prizes in chemistry [${temple}].`,
      ].join("\n"),
      { text: "Chief of Protocol of the United States", confidence: "high", sources: [temple] },
      ["When did Shirley Temple serve as Chief of Protocol?"],
    );
  };

  it("(c) drops what the model-critic calls unsupported or partly supported, and its call is charged", async () => {
    const calls = model({
      write: brief,
      critic: (call) => JSON.stringify({ verdicts: criticClaims(call).map(({ id, text }) => ({ id, verdict: /Ghana/.test(text) ? "partly" : "supported" })) }),
    });
    const result = await run("pro", true);
    const critic = calls.filter(isCritic);
    expect(critic).toHaveLength(1);
    // The critic saw each kept claim with its exact quote, and the answer.
    expect(critic[0]!.user).toMatch(
      /\[\d\] Shirley Temple was named United States ambassador to Ghana[^\n]*\n {2}quote: "As an adult, she was named United States ambassador to Ghana/,
    );
    expect(critic[0]!.user).toContain('The answer to "What government position');
    expect(critic[0]!.user).not.toContain("Nobel"); // the offline check dropped it before the critic
    expect(result.brief).toContain("Chief of Protocol");
    expect(result.brief).not.toMatch(/Ghana|Nobel/);
    // The offline de-dup ran too: the near repeat of the film sentence is gone.
    expect(result.brief.match(/1945 American comedy film/g)).toHaveLength(1);
    expectContract(result);
    expect(result.answer).toMatchObject({ text: "Chief of Protocol of the United States", confidence: "high" });
    const offline = await run("pro", false);
    expect(result.cost_usd).toBeCloseTo(offline.cost_usd + 2 * CALL_USD, 6);
  });

  it("(c) when the critic call fails (500s), the offline check still runs and the job succeeds", async () => {
    const calls = model({ write: brief, critic: () => ({ status: 500 }) });
    const result = await run("pro", true);
    expect(calls.filter(isCritic)).toHaveLength(MODEL_ATTEMPTS);
    expect(result.brief).toContain("Ghana"); // supported by its passage's words: the offline check keeps it
    expect(result.brief).not.toContain("Nobel");
    expect(result.brief.match(/1945 American comedy film/g)).toHaveLength(1);
    expectContract(result);
    // Failed calls are not charged: only the write call is.
    const offline = await run("pro", false);
    expect(result.cost_usd).toBeCloseTo(offline.cost_usd + CALL_USD, 6);
  });

  it("(b) an answer the critic rejects is not stated, even when its words are in a passage", async () => {
    model({
      write: brief,
      critic: (call) =>
        JSON.stringify({ verdicts: criticClaims(call).map(({ id, text }) => ({ id, verdict: text.startsWith("The answer") ? "unsupported" : "supported" })) }),
    });
    const result = await run("pro", true);
    const offline = await run("pro", false);
    expect(result.answer?.text).not.toBe("Chief of Protocol of the United States");
    expect(result.answer?.text ?? null).toBe(offline.answer?.text ?? null);
  });

  it("(d) pro and max write the longer report: sections, findings, and the questions the sources leave open", async () => {
    for (const mode of ["pro", "max"] as const) {
      // The model leaves out the Findings heading in max (its line, "\n" escaped in the JSON): the engine puts its bullets under one.
      model({
        write: (call) => (mode === "pro" ? brief(call) : brief(call).replace("## Findings\\n", "")),
        critic: (call) => JSON.stringify({ verdicts: criticClaims(call).map(({ id }) => ({ id, verdict: "supported" })) }),
      });
      const result = await run(mode, true);
      expect(result.brief).toMatch(/^Shirley Temple, who played Corliss Archer/);
      expect(result.brief).toMatch(/\n\n## Findings\n- /);
      expect(result.brief).toMatch(/\n\n## Open questions\n- When did Shirley Temple serve as Chief of Protocol\?$/);
      expectContract(result);
      server.resetHandlers();
    }
  });

  it("(d) standard asks for a brief, and lists no open questions even when the model sends some", async () => {
    const calls = model({ write: brief });
    const result = await run("standard", true);
    expect(calls[0]!.system).not.toMatch(/## Findings|open_questions/);
    expect(result.brief).not.toMatch(/Open questions|When did/);
    expect(result.brief).toContain("Chief of Protocol");
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

  it("(e) a 429 then success: the model's brief, charged once", async () => {
    let attempts = 0;
    const calls = model({
      write: (call) => {
        attempts++;
        if (attempts === 1) return { status: 429 };
        return written(`Shirley Temple served as Chief of Protocol of the United States [${numberOf(call, "Shirley Temple")}].`, null);
      },
    });
    const result = await run("standard", true);
    const offline = await run("standard", false);
    expect(calls.filter(isWrite)).toHaveLength(2);
    expect(result.brief).toMatch(/^Shirley Temple served as Chief of Protocol of the United States \[1\]\.$/);
    expectContract(result);
    // The model gave no answer: the engine's own stands where the brief still cites its sources.
    expect(result.cost_usd).toBeCloseTo(offline.cost_usd + CALL_USD, 6);
  });

  it("a prose brief with its [n] markers (a model without JSON) is read as the brief", async () => {
    model({ write: (call) => `Shirley Temple served as Chief of Protocol of the United States [${numberOf(call, "Shirley Temple")}].` });
    const result = await run("standard", true);
    expect(result.brief).toBe("Shirley Temple served as Chief of Protocol of the United States [1].");
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
      write: (call) => written(`Shirley Temple served as Chief of Protocol of the United States [${numberOf(call, "Shirley Temple")}].`, null),
      typed: () => 'Sure! Here is the JSON:\n```json\n{"position": "Chief of Protocol", "birthplace": "Paris"}\n```\nLet me know if you need more.',
    });
    const result = await run("standard", true, { schema });
    const typed = calls.filter(isTyped);
    expect(typed).toHaveLength(1);
    expect(typed[0]!.user).toContain("Chief of Protocol"); // the brief and its quotes are the evidence
    expect(result.typed).toEqual({ position: "Chief of Protocol" });
    const basis = result.citations.filter((citation) => citation.field !== undefined);
    expect(basis.map((entry) => entry.field)).toEqual(["position"]);
    expect(basis[0]!.quote).toContain("Chief of Protocol");
    expectContract(result);
  });

  it("(f) a required value no passage supports fails the job as the offline rules say", async () => {
    model({
      write: (call) => written(`Shirley Temple served as Chief of Protocol of the United States [${numberOf(call, "Shirley Temple")}].`, null),
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
    const calls = model({ write: () => written("Never [1].", null), critic: () => "{}", typed: () => "{}" });
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
    const calls = model({ write: () => written("Never [1].", null) });
    await run("standard", true, { docs });
    expect(calls[0]!.user.length).toBeLessThan(8000 * 4 + 500);
  });

  it("the deadline aborts an in-flight write call: the extractive brief stands, inside the envelope's time", async () => {
    const budgets = { ...budgetsForMode("standard"), max_wallclock_secs: 3, synthesis_time_reserve_secs: 2 };
    const calls = model({ write: () => ({ delayMs: 20_000, text: written("Shirley Temple served as Chief of Protocol of the United States [1].", null) }) });
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
        return { delayMs: 20_000, text: written("Late [1].", null) };
      },
    });
    const started = Date.now();
    await expect(run("standard", true, { signal: cancel.signal })).rejects.toBeInstanceOf(ResearchCancelledError);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});
