import { describe, expect, it } from "vitest";
import { type ResearchOutput, runResearch } from "../../src/research/engine";
import { chargeOf, type JobSpec } from "../../src/research/job/job-state";
import { budgetsForMode, type ResearchMode, reservationCredits } from "../../src/research/pricing";
import type { ChatModel, ChatRequest } from "../../src/research/providers/types";
import { declined, type FakeDoc, isPlanOrReflect, memoryProviders } from "./helpers";

/**
 * The one charge rule with a model writing the brief (issue 43, item 5): the job's charge is decided
 * from what the engine returns, whichever wrote the brief, by the same function the job settles with
 * (chargeOf). A question nothing read addresses is never sent to the model and pays its metered
 * work, the model's calls included; a brief the model writes from the sources pays the price.
 */
const DECLARES = "This administration today, here and now, declares unconditional war on poverty in America";
const DOCS: FakeDoc[] = [
  {
    url: "https://lbj.example.org/1964",
    title: "Lyndon B Johnson: State of the Union address, 1964",
    text: `Let us carry forward the plans and programs of John Fitzgerald Kennedy. ${DECLARES}.`,
  },
  { url: "https://lbj.example.net/1966", title: "Lyndon B Johnson: State of the Union address, 1966", text: "Tonight the cup of peril is full in Vietnam." },
  {
    url: "https://clinton.example.com/1998",
    title: "William J Clinton: State of the Union address, 1998",
    text: "Our leadership in the world is unrivaled. Ladies and gentlemen, the state of our Union is strong.",
  },
];

class ScriptedModel implements ChatModel {
  readonly name = "scripted";
  readonly requests: ChatRequest[] = [];

  constructor(private readonly answers: string[]) {}

  async complete(request: ChatRequest) {
    if (isPlanOrReflect(request)) throw declined();
    this.requests.push(request);
    return { text: this.answers.shift() ?? "", inputTokens: 1000, outputTokens: 100 };
  }
}

function spec(mode: ResearchMode): JobSpec {
  return {
    id: crypto.randomUUID(),
    userId: "user",
    origin: "api",
    mode,
    question: "",
    input: { question: "", mode, budgets: budgetsForMode(mode), include_sources: true },
    reservedCredits: reservationCredits(mode, null),
    maxCredits: null,
    notifiesWebhook: false,
    createdAt: new Date(0).toISOString(),
    deadlineAt: 60_000,
  };
}

async function charged(question: string, mode: ResearchMode, model: ScriptedModel) {
  const output: ResearchOutput = await runResearch(
    { question, mode, budgets: budgetsForMode(mode), include_sources: true },
    { providers: { ...memoryProviders(DOCS), llm: model } },
  );
  return { output, ...chargeOf(spec(mode), { status: "succeeded", output }) };
}

describe("the charge of a job whose brief a model writes", () => {
  for (const mode of ["standard", "pro"] as const) {
    it(`${mode}: nothing read addresses the question: one sentence, no source, its metered work`, async () => {
      const model = new ScriptedModel([]);
      const { output, credits, basis } = await charged("Who won the 1998 FIFA World Cup?", mode, model);
      expect(output).toMatchObject({ brief: "None of the sources read addresses this question.", sources: [], addressed: false });
      expect(model.requests).toHaveLength(0);
      expect(credits).toBe(Math.ceil(Math.round(output.cost_usd * 1e6) / 1e4 - 1e-9));
      expect(basis.rule).toBe("nothing_addressed");
    });
  }

  it("a brief the model writes from the sources that address the question pays the price", async () => {
    const claims = JSON.stringify({
      claims: [{ text: "Lyndon B Johnson declared unconditional war on poverty in 1964.", quotes: [{ source: 1, quote: DECLARES }] }],
      answer: null,
    });
    const model = new ScriptedModel([claims, JSON.stringify({ verdicts: [{ id: 1, verdict: "supported" }] })]);
    const { output, credits, basis } = await charged("Which president declared an unconditional war on poverty?", "standard", model);
    expect(model.requests.length).toBeGreaterThan(0);
    expect(output.brief).toContain("Lyndon B Johnson declared unconditional war on poverty in 1964 [1]");
    expect(output.sources.length).toBeGreaterThan(0);
    expect(credits).toBe(60);
    expect(basis.rule).toBe("mode_price");
  });
});
