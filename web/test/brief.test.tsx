import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import type { Schemas } from "../src/api/client";
import { BriefWithSources } from "../src/research/Brief";

afterEach(cleanup);

type Result = Pick<Schemas["ResearchResult"], "status" | "answer" | "brief" | "sources" | "citations">;

const sources: Schemas["SourceDto"][] = [
  { url: "https://example.org/tariffs", title: "Tariffs in the Gilded Age", domain: "example.org", summary: "How tariffs were argued." },
  { url: "https://example.net/railroads", title: "The railroads and Congress", domain: "example.net" },
];

const brief = [
  "Presidents defended tariffs as protection for wages [1].",
  "",
  "## Findings",
  "",
  "**Railroads**",
  "- Grants to the railroads drew criticism [2].",
  "- A source the brief has no entry for [3].",
  "",
  "## Open questions",
  "",
  "- What did the **voters** think?",
].join("\n");

function result(over: Partial<Result> = {}): Result {
  return {
    status: "succeeded",
    answer: { text: "They defended them as protection.", confidence: "high", citations: [0] },
    brief,
    sources,
    citations: [
      { claim: "c", quote: "Protection keeps wages up.", source: 0, start: 0, end: 26 },
      { claim: "c", quote: "The grants were a scandal.", source: 1, start: 0, end: 26 },
    ],
    ...over,
  };
}

function show(r: Result) {
  return render(
    <MemoryRouter>
      <BriefWithSources result={r} />
    </MemoryRouter>,
  );
}

describe("BriefWithSources (the brief renderer)", () => {
  it("renders the brief's blocks: the opening as a paragraph, sections and groups as headings, bullets as a list", () => {
    show(result());
    const briefSection = screen.getByRole("region", { name: "Brief" });
    expect(within(briefSection).getByText(/Presidents defended tariffs as protection for wages/).tagName).toBe("P");
    expect(within(briefSection).getByRole("heading", { level: 3, name: "Findings" })).toBeTruthy();
    expect(within(briefSection).getByRole("heading", { level: 3, name: "Open questions" })).toBeTruthy();
    expect(within(briefSection).getByRole("heading", { level: 4, name: "Railroads" })).toBeTruthy();
    const items = within(briefSection)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual(["Grants to the railroads drew criticism 2.", "A source the brief has no entry for [3].", "What did the voters think?"]);
  });

  it("makes a marker of a known source a button named by the source, and leaves a marker of no source as text", () => {
    show(result());
    const briefSection = screen.getByRole("region", { name: "Brief" });
    expect(within(briefSection).getByRole("button", { name: "Source 1: Tariffs in the Gilded Age" }).textContent).toBe("1");
    expect(within(briefSection).getByRole("button", { name: "Source 2: The railroads and Congress" }).textContent).toBe("2");
    expect(within(briefSection).queryByRole("button", { name: /Source 3/ })).toBeNull();
  });

  it("lists the sources with their links and summary; a click on a citation selects its source and shows only that source's passages", () => {
    show(result());
    const list = screen.getByRole("region", { name: "Sources" });
    const link = within(list).getByRole("link", { name: "Tariffs in the Gilded Age" });
    expect(link.getAttribute("href")).toBe("https://example.org/tariffs");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(within(list).getByText("How tariffs were argued.")).toBeTruthy();
    expect(screen.queryByRole("list", { name: /Passages of source/ })).toBeNull();

    const briefSection = screen.getByRole("region", { name: "Brief" });
    fireEvent.click(within(briefSection).getByRole("button", { name: "Source 2: The railroads and Congress" }));
    const passages = screen.getByRole("list", { name: "Passages of source 2" });
    expect(
      within(passages)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["The grants were a scandal."]);
    const items = list.querySelectorAll("ol.sources > li");
    expect(items[1]!.getAttribute("aria-current")).toBe("true");
    expect(items[0]!.getAttribute("aria-current")).toBeNull();
  });

  it("shows the short answer only for a succeeded job, and says when there is no brief or no source", () => {
    show(result({ status: "failed", brief: null, sources: [], citations: [] }));
    expect(screen.queryByRole("heading", { name: "Short answer" })).toBeNull();
    expect(screen.getByText("No brief.")).toBeTruthy();
    expect(screen.getByText("No sources.")).toBeTruthy();
    cleanup();
    show(result());
    expect(screen.getByRole("heading", { name: "Short answer" })).toBeTruthy();
  });
});
