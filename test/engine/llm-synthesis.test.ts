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
  it("keeps cited, supported sentences and drops the rest (critic)", async () => {
    const model = new OneAnswer(
      [
        "Shirley Temple, who played Corliss Archer in Kiss and Tell, served as Chief of Protocol of the United States [1][2].",
        "- She was also named ambassador to Ghana and Czechoslovakia [1][2].", // only one of the two supports it
        "- She won three Nobel prizes in chemistry.", // no citation
        "- Penguins invented jazz in Antarctica [1].", // cites a source that does not support it
        "- The answer is in source [9].", // indexes no source
      ].join("\n"),
    );
    const result = await run(model);
    expect(result.brief).toContain("Chief of Protocol");
    expect(result.brief).toContain("Ghana");
    expect(result.brief).not.toMatch(/Nobel|Penguins|\[9\]/);
    expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
    // The marker of the source that does not support the Ghana sentence was removed; its citation quotes the one that does.
    expect(result.brief).toMatch(/Ghana and Czechoslovakia \[\d\]\./);
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
