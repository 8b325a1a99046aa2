import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ResearchInput, runResearch } from "../../src/research/engine";
import { computePlan, planBranches } from "../../src/research/engine/plan";
import { planPrompt } from "../../src/research/engine/prompts";
import { analyzeQuestion } from "../../src/research/engine/question";
import { budgetsForMode } from "../../src/research/pricing";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";
import { scriptedModel } from "../scripted-model";
import { type FakeDoc, MemoryReader, MemorySearch } from "./helpers";

/**
 * The plan of POST /v1/research/plan (engine/plan/first-wave.ts) with a model and without, and a
 * job given a reviewed plan (issue 45, item 2): the plan shown is the job's own plan stage, and a
 * job that runs a plan searches exactly its queries and makes no plan call of its own. Through the
 * engine with a scripted model over MSW (a job's object takes its model from its environment).
 */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BASE = "https://llm.example/v1";
const PLAN_SYSTEM = planPrompt("", 1).system;
const QUESTION = "How many towns signed the Zorblat Accord?";
const DOCS: FakeDoc[] = [
  {
    url: "https://archive.example.org/zorblat-accord",
    title: "Zorblat Accord",
    text: "The Zorblat Accord was signed in 1911 by the seven river towns of the Zorblat valley. The accord set tolls on the river.",
  },
  { url: "https://archive.example.org/zorblat-river", title: "Zorblat River", text: "The Zorblat River runs through the valley for 140 km." },
];

function input(mode: "lite" | "standard" = "lite", plan?: ResearchInput["plan"]): ResearchInput {
  return {
    question: QUESTION,
    mode,
    budgets: budgetsForMode(mode),
    include_sources: true,
    include_domains: [],
    exclude_domains: [],
    ...(plan ? { plan } : {}),
  };
}

/** A model that plans (two sub-questions, two searches) and refuses everything else (the engine then falls back). */
function planningModel() {
  const scripted = scriptedModel(BASE, (call) =>
    call.system === PLAN_SYSTEM
      ? JSON.stringify({
          sub_questions: ["What is the Zorblat Accord?", "Which towns signed it?"],
          queries: ["Zorblat Accord signatories", "Zorblat valley towns"],
        })
      : { status: 400 },
  );
  server.use(scripted.handler);
  return {
    calls: scripted.calls,
    planCalls: () => scripted.calls.filter((call) => call.system === PLAN_SYSTEM),
    llm: new OpenAiCompatibleModel(BASE, "scripted", "k"),
  };
}

describe("computePlan", () => {
  it("offline: the engine's own first wave, no sub-questions, nothing spent", async () => {
    const plan = await computePlan(input("standard"), null, 5_000);
    expect(plan).toEqual({ planner: "engine", subQuestions: [], queries: planBranches(analyzeQuestion(QUESTION), 4), costUsd: 0 });
  });

  it("with a model: the model's plan stage, one call, its cost reported", async () => {
    const model = planningModel();
    const plan = await computePlan(input(), model.llm, 5_000);
    expect(plan.planner).toBe("model");
    expect(plan.subQuestions).toEqual(["What is the Zorblat Accord?", "Which towns signed it?"]);
    expect(plan.queries).toEqual(["Zorblat Accord signatories", "Zorblat valley towns"]);
    expect(plan.costUsd).toBeGreaterThan(0);
    expect(model.calls).toHaveLength(1);
  });
});

describe("a job given a reviewed plan", () => {
  it("searches exactly its queries and makes no plan call", async () => {
    const model = planningModel();
    const search = new MemorySearch(DOCS);
    const queries = ["Zorblat Accord 1911", "river towns tolls"];
    await runResearch(input("lite", { subQuestions: ["Which towns signed it?"], queries }), {
      providers: { search, reader: new MemoryReader(DOCS), llm: model.llm },
    });
    expect(search.queries.map((query) => query.query)).toEqual(queries);
    expect(model.planCalls()).toEqual([]);
  });

  it("without a plan, the same job plans with the model (the plan stage the plan endpoint shows)", async () => {
    const model = planningModel();
    const search = new MemorySearch(DOCS);
    await runResearch(input("lite"), { providers: { search, reader: new MemoryReader(DOCS), llm: model.llm } });
    expect(model.planCalls()).toHaveLength(1);
    expect(search.queries.map((query) => query.query)).toEqual(["Zorblat Accord signatories", "Zorblat valley towns"]);
  });
});
