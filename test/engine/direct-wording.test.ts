import { describe, expect, it } from "vitest";
import { directAnswer } from "../../src/research/engine/answer/direct";
import { analyzeEvidence } from "../../src/research/engine/evidence";
import { analyzeQuestion } from "../../src/research/engine/question";
import { evidenceOf } from "./helpers";

/** The direct path's sentences are read by customers: the question's own words, no stray stops. */
describe("the direct path's wording", () => {
  const decide = (question: string, pages: [string, string][]) => {
    const evidence = evidenceOf(pages);
    const query = analyzeQuestion(question);
    return directAnswer(query, analyzeEvidence(evidence, query).ranked);
  };

  it("says what both share in the question's words, never its stems", () => {
    const found = decide("Are Marrow Lane and Copper Vale both from the United States?", [
      ["Marrow Lane", "Marrow Lane is an American rock band from the United States, formed in Tulsa."],
      ["Copper Vale", "Copper Vale is a rock band from the United States, formed in Denver."],
    ]);
    expect(found).toMatchObject({ answer: "yes", rule: "attribute" });
    expect(found!.text).toBe('Yes: the sources describe both Marrow Lane and Copper Vale with the words "United States".');
  });

  it("ends a place read to its sentence's end without its full stop", () => {
    const found = decide("Are the Marrow Mosque and the Copper Mansion located in the same neighborhood?", [
      ["Marrow Mosque", "The Marrow Mosque is an 18th-century mosque located in Laleli, Fatih, Istanbul, Turkey."],
      ["Copper Mansion", "The Copper Mansion is a historical yalı located in Ortaköy, Istanbul."],
    ]);
    expect(found?.rule).toBe("place");
    expect(found!.text).not.toMatch(/\.\s+and\b/);
    expect(found!.text).toMatch(/^No: Marrow Mosque was located in Laleli, Fatih, Istanbul, Turkey and Copper Mansion in Ortaköy/);
  });
});
