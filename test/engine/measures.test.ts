import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../src/research/engine/question";
import { answerOutcome, evidenceOf } from "./helpers";

/** A measure is asked as a number, and its unit belongs to the answer. */
describe("measures", () => {
  const evidence = evidenceOf([
    ["Marrowfield", "Marrowfield is a town in Kent, England. Its average snowfall is 6.8 inches a year, and it lies 1,400 metres above sea level."],
  ]);
  const spansFor = (question: string) => ({
    query: analyzeQuestion(question),
    texts: (answerOutcome(question, evidence).candidates ?? []).map((candidate) => candidate.text),
  });

  it("asks a number of 'what is the average snowfall', and answers with the unit", () => {
    const { query, texts } = spansFor("What is the usual average snowfall in Marrowfield?");
    expect(query.expects).toBe("number");
    expect(texts[0]).toBe("6.8 inches");
    // A place is no snowfall.
    expect(texts).not.toContain("Kent");
  });

  it("keeps the unit of an elevation", () => {
    const { query, texts } = spansFor("What is the altitude of Marrowfield above sea level?");
    expect(query.expects).toBe("number");
    expect(texts).toContain("1,400 metres");
  });
});
