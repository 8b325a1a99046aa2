import { describe, expect, it } from "vitest";
import { runResearch } from "../../src/research/engine";
import { briefSentences, citationProblems, citationsIn, cite } from "../../src/research/engine/write";
import { budgetsForMode } from "../../src/research/pricing";
import { memoryProviders, TWO_HOP_DOCS } from "./helpers";

async function research(question: string, mode: "lite" | "standard" | "pro" = "standard") {
  return runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers: memoryProviders(TWO_HOP_DOCS) });
}

describe("citations", () => {
  it("puts markers before the closing punctuation", () => {
    expect(cite("It rained.", [2, 1, 2])).toBe("It rained [1][2].");
    expect(cite('He said "no."', [3])).toBe('He said "no" [3].');
    expect(cite("No punctuation", [1])).toBe("No punctuation [1].");
  });

  it("finds uncited sentences and markers that index no source", () => {
    expect(citationProblems("One [1].\n\n- Two [2].", 2)).toEqual([]);
    expect(citationProblems("One [1]. Two.", 1)).toEqual(["uncited: Two."]);
    expect(citationProblems("One [3].", 2)).toEqual(["[3] indexes no source"]);
  });

  it("every sentence of every brief is cited and every [n] resolves to a source", async () => {
    for (const question of [
      "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?",
      "Were Scott Derrickson and Ed Wood of the same nationality?",
      "Which writer was from England, Henry Roth or Robert Erskine Childers?",
      "What did Shirley Temple do as an adult?",
    ]) {
      for (const mode of ["lite", "standard", "pro"] as const) {
        const result = await research(question, mode);
        expect(result.brief.length).toBeGreaterThan(0);
        expect(citationProblems(result.brief, result.sources.length)).toEqual([]);
        // Every source is cited at least once (no padding of the source list).
        const cited = new Set(briefSentences(result.brief).flatMap(citationsIn));
        expect(cited.size).toBe(result.sources.length);
      }
    }
  });
});

describe("direct answers", () => {
  it("says yes for a comparison when both sides are found and agree", async () => {
    const result = await research("Were Scott Derrickson and Ed Wood of the same nationality?");
    expect(result.brief).toMatch(/^Yes: Scott Derrickson is American; Ed Wood is American \[\d\]\[\d\]\./);
    expect(result.answer).toMatchObject({ text: "yes", confidence: "high" });
  });

  it("picks between two named options on a stated fact, never on word overlap", async () => {
    // Counting the asked words on each page is a guess: the calibrated model may state it (on
    // HotpotQA training questions such picks of a person were right 2 times in 3 above 0.8), never `high`.
    const result = await research("Which writer was from England, Henry Roth or Robert Erskine Childers?");
    expect(result.answer?.confidence ?? null).not.toBe("high");
    const older = await research("Who is older, Henry Roth or Robert Erskine Childers?");
    expect(older.brief.split("\n")[0]).toMatch(
      /^Robert Erskine Childers: Henry Roth was born on February 8, 1906; Robert Erskine Childers was born on 25 June 1870 \[\d\]\[\d\]\./,
    );
    expect(older.answer).toMatchObject({ text: "Robert Erskine Childers", confidence: "high" });
  });

  it("opens a two-hop answer with the link and then the answer", async () => {
    const result = await research("What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?");
    const opening = result.brief.split("\n")[0]!;
    expect(opening).toContain("Shirley Temple as Corliss Archer");
    expect(opening).toMatch(/Shirley Temple Black .* \[\d\]\./);
    expect(result.brief).toContain("Chief of Protocol");
  });

  it("gives per-source summaries only when include_sources is true", async () => {
    const withSummaries = await research("What did Shirley Temple do as an adult?");
    for (const source of withSummaries.sources) expect(source.summary).toBeTruthy();
    const without = await runResearch(
      { question: "What did Shirley Temple do as an adult?", mode: "standard", budgets: budgetsForMode("standard"), include_sources: false },
      { providers: memoryProviders(TWO_HOP_DOCS) },
    );
    for (const source of without.sources) expect(source.summary ?? null).toBeNull();
  });
});

describe("long sources", () => {
  it("quotes only on-topic sentences of a long page, under its speaker", async () => {
    const filler = Array.from({ length: 20 }, (_, index) => `Nor yet is this all, said the speaker for the ${index + 1}th time.`).join(" ");
    const speech = {
      url: "corpus://sotu.corpus/1830-andrew-jackson",
      title: "Andrew Jackson: State of the Union address, 1830",
      text: `${filler} The tariff of 1828 has divided the nation. ${filler} A tariff for revenue should protect our manufactures. ${filler}`,
    };
    const result = await runResearch(
      { question: "What did Andrew Jackson say about the tariff?", mode: "standard", budgets: budgetsForMode("standard"), include_sources: true },
      { providers: memoryProviders([speech]) },
    );
    // The overview and one finding (the two on-topic sentences), the finding under the speaker and year the title gives.
    expect(result.brief.split("\n").filter(Boolean)).toEqual([
      'Andrew Jackson (1830) said "The tariff of 1828 has divided the nation" [1].',
      "**Andrew Jackson (1830)**",
      "- A tariff for revenue should protect our manufactures [1].",
    ]);
    expect(result.brief).not.toContain("Nor yet");
  });
});
