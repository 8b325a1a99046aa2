import { describe, expect, it } from "vitest";
import { runResearch } from "../../src/research/engine";
import {
  type BriefBlock,
  bulletText,
  citeClauses,
  inlineParts,
  lineSentences,
  markersIn,
  parseBrief,
  parseHeading,
  renderBrief,
  withoutMarkers,
} from "../../src/research/engine/write";
import { budgetsForMode } from "../../src/research/pricing";
import { memoryProviders, TWO_HOP_DOCS } from "./helpers";

/** A model's report as the format writes it: opening, a section of groups, a section of bullets. */
const REPORT: BriefBlock[] = [
  { heading: null, bullets: false, lines: ["Cleveland wanted lower tariffs [1].", "Harrison defended them [2]."] },
  { heading: { kind: "section", title: "Findings" }, bullets: true, lines: ["Tariffs paid for pensions [2]."] },
  { heading: { kind: "group", title: "Grover Cleveland" }, bullets: true, lines: ["He called the tariff a vicious tax [1][3].", "He vetoed bills [1]."] },
  { heading: { kind: "section", title: "Open questions" }, bullets: true, lines: ["Did the tariff raise prices?"] },
];

describe("the brief's Markdown: one writer, one reader", () => {
  it("renders blocks: a paragraph on one line, `## ` sections, `**group**` headings, `- ` bullets, blank lines between", () => {
    expect(renderBrief(REPORT)).toBe(
      [
        "Cleveland wanted lower tariffs [1]. Harrison defended them [2].",
        "## Findings\n- Tariffs paid for pensions [2].",
        "**Grover Cleveland**\n- He called the tariff a vicious tax [1][3].\n- He vetoed bills [1].",
        "## Open questions\n- Did the tariff raise prices?",
      ].join("\n\n"),
    );
  });

  it("never writes a heading without its lines", () => {
    expect(renderBrief([{ heading: { kind: "section", title: "Findings" }, bullets: true, lines: [] }, ...REPORT.slice(0, 1)])).toBe(
      "Cleveland wanted lower tariffs [1]. Harrison defended them [2].",
    );
  });

  it("reads back what it writes (a paragraph's sentences as its one line)", () => {
    const read = parseBrief(renderBrief(REPORT));
    expect(read).toEqual([{ ...REPORT[0]!, lines: [REPORT[0]!.lines.join(" ")] }, ...REPORT.slice(1)]);
    expect(renderBrief(read)).toBe(renderBrief(REPORT));
  });

  it("reads a model's looser Markdown: any heading level, bold with a colon, other bullets, a heading over groups", () => {
    const text = "Opening [1].\n\n### Findings:\n\n**Shirley Temple:**\n* Actress [1].\n1. Diplomat [2].\nA closing line [2].\n\n• Last [1].";
    expect(parseBrief(text)).toEqual([
      { heading: null, bullets: false, lines: ["Opening [1]."] },
      { heading: { kind: "section", title: "Findings" }, bullets: false, lines: [] },
      { heading: { kind: "group", title: "Shirley Temple" }, bullets: true, lines: ["Actress [1].", "Diplomat [2]."] },
      { heading: null, bullets: false, lines: ["A closing line [2]."] },
      { heading: null, bullets: true, lines: ["Last [1]."] },
    ]);
  });

  it("a heading's content may follow a blank line; a bold phrase inside a line is no heading", () => {
    expect(parseBrief("## Findings\n\nA paragraph [1].")).toEqual([
      { heading: { kind: "section", title: "Findings" }, bullets: false, lines: ["A paragraph [1]."] },
    ]);
    expect(parseHeading("**Cleveland** said so [1].")).toBeNull();
    expect(parseHeading("#Findings")).toBeNull();
    expect(bulletText("**Bold**")).toBeNull();
    expect(bulletText("- item")).toBe("item");
  });

  it("markers: read in order, taken out, split out for links, and sentence ends after them", () => {
    expect(markersIn("One [2][1]. Two [3].")).toEqual([2, 1, 3]);
    expect(withoutMarkers("One [2][1]. Two [3].")).toBe("One. Two.");
    expect(inlineParts("Cleveland [1][12].")).toEqual([{ text: "Cleveland " }, { source: 1 }, { source: 12 }, { text: "." }]);
    expect(lineSentences("One [1]. Two, in 1.5 [2]! Three")).toEqual(["One [1].", "Two, in 1.5 [2]!", "Three"]);
    expect(
      citeClauses(
        "In short, ",
        [
          { text: "a", numbers: [2, 1] },
          { text: "b", numbers: [3] },
        ],
        ".",
      ),
    ).toBe("In short, a [1][2]; b [3].");
  });

  it("every offline brief reads back into the blocks that render it byte for byte", async () => {
    const headings: string[] = [];
    for (const [question, mode] of [
      ["What did Shirley Temple do as an adult?", "pro"],
      ["Were Scott Derrickson and Ed Wood of the same nationality?", "standard"],
    ] as const) {
      const result = await runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers: memoryProviders(TWO_HOP_DOCS) });
      const blocks = parseBrief(result.brief);
      expect(renderBrief(blocks)).toBe(result.brief);
      headings.push(...blocks.flatMap((block) => (block.heading ? [`${block.heading.kind}: ${block.heading.title}`] : [])));
    }
    // The findings grouped under each page's title are read as groups.
    expect(headings).toContain("group: Shirley Temple");
  });
});
