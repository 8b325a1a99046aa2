import { describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../scripts/eval/args";
import type { EvalQuestion } from "../../scripts/eval/dataset";
import { onlyQuestions } from "../../scripts/eval/only";
import { type EvalWriteReport, reasonKind, summarizeWrites, writeDetail, writeSummaryTable } from "../../scripts/eval/write-summary";

/** `npm run eval` for a model run (issue 40, item 7): --wallclock, --only, and what was kept of the model's writing. */

describe("--wallclock and --only", () => {
  it("--wallclock takes whole seconds up to the request's 3600", () => {
    expect(parseArgs(["q.json", "--wallclock", "900"]).wallclock).toBe(900);
    expect(parseArgs(["q.json", "--wallclock=60"]).wallclock).toBe(60);
    expect(parseArgs(["q.json"]).wallclock).toBeUndefined();
    for (const bad of ["0", "-5", "1.5", "soon", "3601"]) expect(() => parseArgs(["q.json", "--wallclock", bad])).toThrow(UsageError);
    expect(() => parseArgs(["q.json", "--wallclock"])).toThrow(/--wallclock needs a positive integer/);
  });

  it("--only takes ids and 1-based numbers, comma-separated, each once", () => {
    expect(parseArgs(["q.json", "--only", "3, 5a8b57f2,3,12"]).only).toEqual(["3", "5a8b57f2", "12"]);
    expect(parseArgs(["q.json", "--only=2hop__1_2"]).only).toEqual(["2hop__1_2"]);
    expect(parseArgs(["q.json"]).only).toBeUndefined();
    expect(() => parseArgs(["q.json", "--only", " , "])).toThrow(/--only needs question ids or 1-based question numbers/);
  });

  const question = (id: string) => ({ id, question: `question ${id}` }) as EvalQuestion;
  const questions = [question("5a8b"), question("2hop__1_2"), question("7"), question("abc")];

  it("selects by id first, else by number as the per-question lines print it (1-based), in the datasets' order", () => {
    expect(onlyQuestions(questions, ["abc", "1"]).map((q) => q.id)).toEqual(["5a8b", "abc"]);
    expect(onlyQuestions(questions, ["2hop__1_2"]).map((q) => q.id)).toEqual(["2hop__1_2"]);
    // "7" is an id here: an id wins over a number.
    expect(onlyQuestions(questions, ["7"]).map((q) => q.id)).toEqual(["7"]);
    expect(onlyQuestions(questions, ["4"]).map((q) => q.id)).toEqual(["abc"]);
  });

  it("names what it cannot find", () => {
    expect(() => onlyQuestions(questions, ["5"])).toThrow("--only 5: no question has that id, and the questions are numbered 1 to 4");
    expect(() => onlyQuestions(questions, ["0"])).toThrow(/numbered 1 to 4/);
    expect(() => onlyQuestions(questions, ["nope"])).toThrow("--only nope: no question has that id");
  });
});

const claim = (text: string, kept: boolean, revised: boolean, reason: string | null, kind?: string) => ({
  text,
  kept,
  revised,
  reason,
  ...(kind ? { kind } : {}),
});

/** Two jobs' reports as the write stage writes them, and a job that has none. */
const REPORTS: (EvalWriteReport | null)[] = [
  {
    claims: [
      claim("Buck-Tick is a Japanese rock band.", true, false, null),
      claim("It formed in 1983.", true, true, "1983 is in none of its quotes: quote where the sources state it, or leave it out"),
      claim("Its first album sold a million.", false, true, 'the quote "sold a million copies" is not in source 2: copy it word for word'),
      claim("It was led by Atsushi.", false, true, "Atsushi Sakurai is in none of its quotes: quote where the sources state it, or leave it out"),
    ],
    answer: { text: "Fujioka, Gunma, Japan", kept: true, reason: null },
    calls: 2,
  },
  {
    claims: [
      claim("Roncalli left Venice for the conclave.", true, false, null),
      claim("He was 76.", false, true, "withdrawn by the model"),
      claim("He had 12 siblings.", false, true, "anything", "number_not_in_quotes"),
    ],
    answer: { text: "2012", kept: false, reason: "source 4 is not one of the numbered sources" },
    calls: 2,
  },
  null,
];

describe("what the service kept of the model's writing", () => {
  it("groups reasons by kind: the service's own kind when it sends one, else read from the reason's words", () => {
    expect(reasonKind("1898 is in none of its quotes: quote where the sources state it")).toBe("number not in quotes");
    expect(reasonKind("$72,641, 1902 are in none of its quotes")).toBe("number not in quotes");
    expect(reasonKind("Japan is in none of its quotes")).toBe("name not in quotes");
    expect(reasonKind("none of its words is in its quotes: quote where the sources state it")).toBe("name not in quotes");
    expect(reasonKind('the quote "Roncalli left" is not in source 3: copy it word for word')).toBe("quote not in source");
    expect(reasonKind('the quote "a" is too short to show the claim')).toBe("quote too short");
    expect(reasonKind("it has no quote: quote the words of a source that state it")).toBe("no quote");
    expect(reasonKind("Withdrawn by the model")).toBe("withdrawn");
    // The write stage's own words (write/llm-synthesis.ts): a withdrawal names why the claim went back.
    expect(reasonKind('withdrawn: the quote "Arthur?" is too short to show the claim: quote at least a clause')).toBe("withdrawn (quote too short)");
    expect(reasonKind("withdrawn: 1898 is in none of its quotes: quote where the sources state it, or leave it out")).toBe("withdrawn (number not in quotes)");
    expect(reasonKind("a fact checker found that its quotes do not state all of it")).toBe("critic");
    expect(reasonKind("it leans on the sentence before it, which failed: name its subject")).toBe("dangling");
    expect(reasonKind("anything at all", "quote_not_in_source")).toBe("quote not in source");
    expect(reasonKind(null)).toBe("no reason given");
    // Unknown reasons still group: numbers and quoted words blanked, the advice after the colon left out.
    expect(reasonKind('the claim "x" repeats claim 3: drop it')).toBe(reasonKind('the claim "y" repeats claim 12: merge them'));
    expect(reasonKind('the claim "x" repeats claim 3: drop it')).toBe("other: the claim “…” repeats claim N");
  });

  it("sums claims written, kept (as written or after revision), dropped by kind, and answers kept or dropped", () => {
    const summary = summarizeWrites(REPORTS);
    expect(summary).toEqual({
      jobs: 3,
      reported: 2,
      claims: {
        written: 7,
        kept: 3,
        keptAtOnce: 2,
        keptAfterRevision: 1,
        dropped: 4,
        droppedBy: { "quote not in source": 1, "name not in quotes": 1, withdrawn: 1, "number not in quotes": 1 },
      },
      answers: { given: 2, kept: 1, dropped: 1, droppedBy: { "source not listed": 1 } },
      revisedJobs: 2,
      calls: 4,
    });
    const table = writeSummaryTable(summary);
    expect(table).toContain("| claims kept | 42.9% (3/7) |");
    expect(table).toContain("| kept after revision | 1 |");
    expect(table).toContain("| dropped: name not in quotes | 1 |");
    expect(table).toContain("| answers kept | 50.0% (1/2) |");
    expect(table).toContain("| answer dropped: source not listed | 1 |");
    expect(table).toContain("| jobs with a revise call | 100.0% (2/2) |");
    expect(table).toContain("| model calls of the write, a job | 2.00 |");
    expect(table).toContain("1 of 3 jobs: no model write report.");
  });

  it("says there is no model write report rather than a share of nothing", () => {
    const summary = summarizeWrites([null, null]);
    expect(summary.reported).toBe(0);
    expect(writeSummaryTable(summary)).toBe(
      "no model write report: none of the 2 jobs carried one (the offline engine, or a write stage that does not report).",
    );
    expect(writeDetail(null)).toEqual(["   write: no model write report"]);
  });

  it("shows one question's write with each dropped claim and why (--verbose)", () => {
    expect(writeDetail(REPORTS[1]!)).toEqual([
      "   write: 1/3 claims kept, 2 call(s)",
      "     dropped (withdrawn): He was 76. — withdrawn by the model",
      "     dropped (number not in quotes): He had 12 siblings. — anything",
      "     answer dropped (source not listed): 2012 — source 4 is not one of the numbered sources",
    ]);
    expect(writeDetail(REPORTS[0]!)[0]).toBe("   write: 2/4 claims kept (1 after revision), 2 call(s)");
  });
});
