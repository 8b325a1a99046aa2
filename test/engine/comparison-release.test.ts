import { describe, expect, it } from "vitest";
import { answerOutcome, evidenceOf } from "./helpers";

/** "Which was formed / published first, A or B?": each side's start read on its own page, in the wordings pages use. */
describe("comparing when things began", () => {
  const evidence = evidenceOf([
    ["The Marrows", "The Marrows were an American rock band from Tulsa, Oklahoma, formed in 1997. Their two albums sold well."],
    ["Copper Vale", "Copper Vale is an American rock band, formed in early 2006 by two brothers from Denver."],
    ["Lantern Weekly", "Lantern Weekly is a music magazine, published since July 1980."],
    ["Field Notes Review", "Field Notes Review is a science magazine. It was started in 1922 by a society of naturalists."],
  ]);
  const comparisonOf = (question: string) => (answerOutcome(question, evidence).candidates ?? []).find((candidate) => candidate.path === "comparison");

  it("reads a pick written without the comma before its options, and 'formed in early 2006'", () => {
    expect(comparisonOf("Which band was formed first Copper Vale or The Marrows?")?.text).toBe("The Marrows");
    expect(comparisonOf("Which band was formed later, The Marrows or Copper Vale?")?.text).toBe("Copper Vale");
  });

  it("reads 'published since July 1980' and 'started in 1922'", () => {
    expect(comparisonOf("Which magazine was started first, Lantern Weekly or Field Notes Review?")?.text).toBe("Field Notes Review");
  });
});
