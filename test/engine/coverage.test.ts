import { describe, expect, it } from "vitest";
import { analyzeEvidence, Evidence, namesPerson, nameForms } from "../../src/research/engine/evidence";
import { coverageQueries } from "../../src/research/engine/plan";
import { analyzeQuestion } from "../../src/research/engine/question";
import { answerQuestion } from "../../src/research/engine/answer";
import { coverageGaps, extractiveBrief, readCoverage } from "../../src/research/engine/write";
import type { FakeDoc } from "./helpers";

/**
 * The coverage check of pro's depth (issue 43, item 4): which side of a comparison, hop of a
 * chain or decade of an open question over time the pages read leave uncovered, and what a deeper
 * search looks for.
 */
function speech(speaker: string, year: number, text: string): FakeDoc {
  const slug = speaker.toLowerCase().replace(/[^a-z]+/g, "-");
  return { url: `corpus://sotu.corpus/${year}-${slug}`, title: `${speaker}: State of the Union address, ${year}`, text };
}

function coverageOf(question: string, docs: FakeDoc[]) {
  const evidence = new Evidence();
  for (const doc of docs) evidence.add(doc, "sotu.corpus", 1, [question]);
  const query = analyzeQuestion(question);
  const coverage = readCoverage(query, analyzeEvidence(evidence, query), evidence);
  return { query, coverage, gaps: coverageGaps(coverage) };
}

const REAGAN_1987 = speech("Ronald Reagan", 1987, "We have deficits because big government spends too much. The state of our Union is strong.");
const REAGAN_1984 = speech("Ronald Reagan", 1984, "Big government has not solved our problems. We must restrain the growth of spending.");
const CLINTON_1996 = speech("William J Clinton", 1996, "We know big government does not have all the answers. The era of big government is over.");
const REAGAN_1982 = speech(
  "Ronald Reagan",
  1982,
  "The role of government is to serve the people, not to run their lives. We will restore the balance of our federal system.",
);
const ROOSEVELT_1939 = speech("Franklin D Roosevelt", 1939, "We have had to forge new tools for a new role of government operating in a democracy.");

describe("the coverage check", () => {
  it("finds the side of a comparison no page read speaks for, and searches it by the forms of its name with the topic", () => {
    const { query, coverage, gaps } = coverageOf("How did Ronald Reagan and Bill Clinton differ on big government?", [REAGAN_1987, REAGAN_1984]);
    expect(coverage.sides.map((side) => [side.name, side.covered, side.years])).toEqual([
      ["Ronald Reagan", true, [1984, 1987]],
      ["Bill Clinton", false, []],
    ]);
    expect(gaps).toEqual([{ kind: "side", name: "Bill Clinton", next: null }]);
    const searched = new Set(["Bill Clinton big government"]);
    expect(coverageQueries(query, coverage, searched, 6)).toEqual(["william clinton big government", "clinton big government"]);
  });

  it("counts a side covered by the page of its speaker under another form of the name", () => {
    const { coverage, gaps } = coverageOf("How did Ronald Reagan and Bill Clinton differ on big government?", [REAGAN_1987, CLINTON_1996]);
    expect(coverage.sides.map((side) => [side.name, side.covered, side.years])).toEqual([
      ["Ronald Reagan", true, [1987]],
      ["Bill Clinton", true, [1996]],
    ]);
    expect(gaps).toEqual([]);
  });

  it("expands known initials to the name to search for", () => {
    const { query, coverage, gaps } = coverageOf("How did Ronald Reagan and FDR differ on the role of government?", [REAGAN_1982]);
    expect(gaps).toEqual([{ kind: "side", name: "FDR", next: null }]);
    expect(coverageQueries(query, coverage, new Set(), 6)).toEqual([
      "FDR role government",
      "franklin d roosevelt role government",
      "roosevelt role government",
    ]);
    expect(namesPerson("Franklin D Roosevelt", "FDR")).toBe(true);
    expect(namesPerson("Franklin D Roosevelt", "JFK")).toBe(false);
    expect(nameForms("Teddy Roosevelt")).toEqual(["teddy roosevelt", "theodore roosevelt", "roosevelt"]);
    expect(nameForms("JQA")).toEqual(["JQA", "john quincy adams", "adams"]);
    expect(nameForms("Joe Biden")).toEqual(["joe biden", "joseph biden", "biden"]);
  });

  it("finds the unresolved hop of a chain: the entity whose page is needed next", () => {
    const film: FakeDoc = { url: "https://en.wikipedia.org/wiki/Lorna", title: "Lorna", text: "Lorna is a 1964 American film directed by Russ Meyer." };
    const { query, coverage, gaps } = coverageOf("Where was the director of film Lorna born?", [film]);
    expect(coverage.hop).toEqual({ reached: ["Lorna"], next: "Russ Meyer", closed: false });
    expect(gaps).toEqual([{ kind: "hop", name: "Russ Meyer" }]);
    expect(coverageQueries(query, coverage, new Set(), 6)).toEqual(["Russ Meyer"]);
  });

  it("finds the decades of an asked period no page read on the topic comes from", () => {
    const docs = [
      speech("James Monroe", 1824, "The tariff of duties should be revised to encourage our manufactures."),
      speech("Andrew Jackson", 1832, "The tariff has become a source of discord between the States."),
      speech("Grover Cleveland", 1887, "The difficulty attending a wise and fair revision of our tariff laws is not underestimated."),
      speech("Theodore Roosevelt", 1902, "The tariff should be revised by its friends."),
    ];
    const { query, coverage, gaps } = coverageOf("How did presidents describe tariffs in the 19th century?", docs);
    expect(coverage.period?.covered.map((entry) => entry.decade)).toEqual([1820, 1830, 1880]);
    expect(coverage.period?.missing).toEqual([1800, 1810, 1840, 1850, 1860, 1870, 1890, 1900]);
    expect(gaps.slice(0, 2)).toEqual([
      { kind: "period", decade: 1800 },
      { kind: "period", decade: 1810 },
    ]);
    expect(coverageQueries(query, coverage, new Set(["tariffs 1800s"]), 3)).toEqual(["tariffs 1810s", "tariffs 1840s", "tariffs 1850s"]);
  });

  it("leaves nothing uncovered when every side is read, and gives a question without sides, hops or period no gap", () => {
    expect(coverageOf("How did Ronald Reagan and FDR differ on the role of government?", [REAGAN_1982, ROOSEVELT_1939]).gaps).toEqual([]);
    expect(coverageOf("In which year did Lyndon Johnson declare war on poverty?", [REAGAN_1987]).gaps).toEqual([]);
  });
});

describe("the coverage section of a pro brief", () => {
  it("gives each decade its pages and names the decades no page read comes from", () => {
    const docs = [
      speech("James Monroe", 1824, "The tariff of duties should be revised to encourage our manufactures."),
      speech("Andrew Jackson", 1832, "The tariff has become a source of discord between the States."),
      speech("Grover Cleveland", 1887, "The difficulty attending a wise and fair revision of our tariff laws is not underestimated."),
    ];
    const evidence = new Evidence();
    const question = "How did presidents describe tariffs in the 19th century?";
    for (const doc of docs) evidence.add(doc, "sotu.corpus", 1, [question]);
    const query = analyzeQuestion(question);
    const analysis = analyzeEvidence(evidence, query);
    const brief = (deepens: boolean) =>
      extractiveBrief(query, analysis, answerQuestion(query, analysis, evidence), true, { maxSources: 12, includeSummaries: false, critic: deepens, deepens })
        .brief;
    expect(brief(false)).not.toContain("## Coverage");
    expect(brief(true).startsWith(brief(false))).toBe(true);
    expect(brief(true)).toMatch(
      /\n## Coverage\nOn tariffs, the sources read cover 1820–1829 \[\d\]; 1830–1839 \[\d\]; 1880–1889 \[\d\]\. No source read on tariffs is from 1801–1809, 1810–1819, 1840–1849, 1850–1859, 1860–1869, 1870–1879, 1890–1899 or 1900\.$/,
    );
  });
});
