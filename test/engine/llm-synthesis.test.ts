import { describe, expect, it } from "vitest";
import { runResearch } from "../../src/research/engine";
import { citationProblems } from "../../src/research/engine/write";
import type { ChatModel, ChatRequest } from "../../src/research/providers/types";
import { budgetsForMode } from "../../src/research/pricing";
import { declined, isPlanOrReflect, memoryProviders, TWO_HOP_DOCS } from "./helpers";

class OneAnswer implements ChatModel {
  readonly name = "one-answer";
  readonly requests: ChatRequest[] = [];

  constructor(private readonly text: string | Error) {}

  async complete(request: ChatRequest) {
    if (isPlanOrReflect(request)) throw declined();
    this.requests.push(request);
    if (this.text instanceof Error) throw this.text;
    return { text: this.text, inputTokens: 3000, outputTokens: 200 };
  }
}

const question = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?";

async function run(model: ChatModel, mode: "standard" | "pro" = "pro") {
  return runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers: { ...memoryProviders(TWO_HOP_DOCS), llm: model } });
}

describe("brief written by a model", () => {
  it("keeps the claims whose quotes check and drops the rest (issue 40)", async () => {
    const temple =
      "As an adult, she was named United States ambassador to Ghana and to Czechoslovakia and also served as Chief of Protocol of the United States.";
    const film = "Kiss and Tell is a 1945 American comedy film starring then 17-year-old Shirley Temple as Corliss Archer.";
    const quote = (source: number, text: string) => ({ source, quote: text });
    const model = new OneAnswer(
      JSON.stringify({
        claims: [
          {
            text: "Shirley Temple, who played Corliss Archer in Kiss and Tell, served as Chief of Protocol of the United States.",
            quotes: [quote(1, film), quote(2, temple)],
          },
          { text: "Shirley Temple was also named ambassador to Ghana and Czechoslovakia.", quotes: [quote(2, temple)], bullet: true },
          { text: "Shirley Temple won three Nobel prizes in chemistry.", quotes: [], bullet: true }, // no quote
          { text: "Penguins invented jazz in Antarctica.", quotes: [quote(1, "Penguins invented jazz in Antarctica")], bullet: true }, // not in the source
          { text: "The answer is in source 9.", quotes: [quote(9, "The answer is in source 9")], bullet: true }, // no source 9
        ],
        answer: null,
      }),
    );
    const result = await run(model);
    expect(result.brief).toContain("Chief of Protocol");
    expect(result.brief).toContain("Ghana");
    expect(result.brief).not.toMatch(/Nobel|Penguins|source 9/);
    expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
    const ghana = result.citations.filter((citation) => citation.claim.includes("Ghana"));
    expect(ghana).toHaveLength(1);
    expect(ghana[0]!.quote).toContain("ambassador to Ghana");
    // The prompt numbers the same sources the brief cites, and tokens are metered.
    expect(model.requests[0]!.messages[0]!.content).toContain("[1] ");
    expect(result.cost_usd).toBeGreaterThan(0.0015);
  });

  it("falls back to the extractive brief when the model fails or writes nothing usable", async () => {
    for (const model of [new OneAnswer(new Error("HTTP 500")), new OneAnswer("No citations at all here.")]) {
      const result = await run(model, "standard");
      expect(result.brief).toContain("Shirley Temple");
      expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
    }
  });
});
