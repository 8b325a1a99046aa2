import { describe, expect, it } from "vitest";
import { answerFromOpening, readAnswer } from "../../scripts/eval/answer";
import type { EvalQuestion } from "../../scripts/eval/dataset";
import { hopCount } from "../../scripts/eval/hops";
import { buildRow, type Outcome } from "../../scripts/eval/row";
import { openingSentence } from "../../scripts/eval/sentences";
import { exactMatch, scoreShortAnswer, tokenF1 } from "../../scripts/eval/short-answer";
import { summarizeGroups } from "../../scripts/eval/summary";

/** The scoring of `npm run eval` (scripts/eval/): short answers, hops, the opening fallback, the aggregates. */

describe("short answer: exact match and F1 (SQuAD/HotpotQA normalisation)", () => {
  it("ignores case, punctuation and articles for exact match", () => {
    expect(exactMatch("The Eiffel Tower.", "eiffel tower")).toBe(true);
    expect(exactMatch("Eiffel Tower in Paris", "Eiffel Tower")).toBe(false);
  });

  it("computes token F1 as precision and recall of shared tokens", () => {
    // "eiffel tower in paris" vs "eiffel tower": 2 shared of 4 predicted, of 2 expected: P 0.5, R 1.
    expect(tokenF1("the Eiffel Tower in Paris", "Eiffel Tower")).toBeCloseTo(2 / 3, 10);
    // A repeated token counts once per occurrence in the gold answer.
    expect(tokenF1("city city", "city")).toBeCloseTo(2 / 3, 10);
    expect(tokenF1("Boston", "New York City")).toBe(0);
  });

  it("gives a yes / no F1 only when both sides are that word (hotpot_evaluate_v1.py)", () => {
    expect(tokenF1("yes", "Yes")).toBe(1);
    expect(tokenF1("yes it is", "yes")).toBe(0);
    expect(tokenF1("no", "yes")).toBe(0);
  });

  it("takes the best score over the gold answer and its aliases", () => {
    const scores = scoreShortAnswer("USA", "United States", ["USA", "America"]);
    expect(scores).toEqual({ exactMatch: true, f1: 1, correct: true });
    expect(scoreShortAnswer("USA", "United States")).toEqual({ exactMatch: false, f1: 0, correct: false });
  });

  it("counts an answer right at F1 >= 0.5, or when it contains the gold answer as whole words", () => {
    expect(scoreShortAnswer("the Eiffel Tower in Paris", "Eiffel Tower").correct).toBe(true);
    // 3 shared tokens of 11: F1 0.43, but "new york city" is in it.
    const contained = scoreShortAnswer("He was born in the city of New York City in 1950", "New York City");
    expect(contained.f1).toBeLessThan(0.5);
    expect(contained.correct).toBe(true);
    expect(scoreShortAnswer("Yorkshire", "York").correct).toBe(false);
    expect(scoreShortAnswer("Boston", "New York City").correct).toBe(false);
  });

  it("counts a yes / no answer right only when it starts with that word", () => {
    expect(scoreShortAnswer("Yes: A is 2,850 km and B 1,230 km", "yes").correct).toBe(true);
    expect(scoreShortAnswer("No.", "yes").correct).toBe(false);
    expect(scoreShortAnswer("It is not clear, but yes", "yes").correct).toBe(false);
  });

  it("scores a null answer as nothing", () => {
    expect(scoreShortAnswer(null, "Lyon")).toEqual({ exactMatch: false, f1: 0, correct: false });
  });
});

describe("hop count", () => {
  it("reads MuSiQue's hop count from its id", () => {
    expect(hopCount("2hop__150763_14904", ["A", "B"])).toBe(2);
    expect(hopCount("3hop1__9285_5188_23307", ["A", "A"])).toBe(3);
    expect(hopCount("4hop3__373866_5189_38229_86687", [])).toBe(4);
  });

  it("otherwise counts the distinct supporting-fact titles", () => {
    expect(hopCount("5a7a06935542990198eaf050", ["Scott Derrickson", "Ed Wood", "Scott Derrickson"])).toBe(2);
    expect(hopCount("a8d4a6d20bdd11eba7f7acde48001122", ["F1", "F2", "D1", "D2"])).toBe(4);
  });
});

describe("the answer scored: the result's field, or the brief's opening sentence", () => {
  const brief = "## Answer\n\nPierre Dupont was born in Lyon [2, 3]. He later moved to Paris [1].";

  it("takes the answer field when the result has one, null included", () => {
    expect(readAnswer({ brief, answer: { text: "Lyon", confidence: "high", citations: [1] } }, "field")).toEqual({
      answer: { text: "Lyon", confidence: "high", citations: [1] },
      source: "field",
    });
    expect(readAnswer({ brief, answer: null }, "field")).toEqual({ answer: null, source: "field" });
  });

  it("falls back to the opening sentence, confidence unknown, when the result has no answer key", () => {
    expect(readAnswer({ brief }, "field")).toEqual({
      answer: { text: "Pierre Dupont was born in Lyon.", confidence: "unknown", citations: [1, 2] },
      source: "opening-fallback",
    });
  });

  it("scores the opening sentence whatever the field says when asked to (--answer-from opening)", () => {
    const read = readAnswer({ brief, answer: null }, "opening");
    expect(read.source).toBe("opening");
    expect(read.answer?.text).toBe("Pierre Dupont was born in Lyon.");
  });

  it("treats an opening that says the sources do not answer as no answer", () => {
    expect(answerFromOpening("The sources read do not answer this question.")).toBeNull();
    expect(answerFromOpening('The sources read do not answer this directly; the closest evidence: "..." [1].')).toBeNull();
    expect(answerFromOpening("")).toBeNull();
  });
});

function question(id: string, answer: string, extra: Partial<EvalQuestion> = {}): EvalQuestion {
  const goldUrls = ["https://en.wikipedia.org/wiki/A", "https://en.wikipedia.org/wiki/B"];
  return {
    id,
    file: "set.json",
    type: "bridge",
    hops: hopCount(id, ["A", "B"]),
    question: `Q ${id}?`,
    answer,
    aliases: [],
    goldTitles: ["A", "B"],
    goldUrls,
    documents: [],
    ...extra,
  };
}

function outcome(answer: Outcome["answer"], extra: Partial<Outcome> = {}): Outcome {
  return {
    status: "succeeded",
    error: null,
    jobId: "job",
    httpStatus: 202,
    via: "sse",
    brief: "A brief [1].",
    answer,
    answerSource: "field",
    sources: [{ url: "https://en.wikipedia.org/wiki/A", title: "A" }],
    jobMs: 1000,
    wallMs: 1100,
    credits: 60,
    costUsd: 0,
    waves: 2,
    ...extra,
  };
}

describe("aggregates: answered rate, precision when answered and per confidence level", () => {
  const rows = [
    buildRow(0, question("q0", "Lyon"), outcome({ text: "Lyon", confidence: "high", citations: [0] })),
    buildRow(1, question("q1", "Paris"), outcome({ text: "Lyon", confidence: "high", citations: [0] })),
    buildRow(2, question("3hop1__1_2_3", "Rome"), outcome({ text: "in Rome, Italy", confidence: "medium", citations: [0] })),
    buildRow(3, question("q3", "Oslo"), outcome(null)),
    buildRow(4, question("4hop1__1_2_3_4", "yes"), outcome({ text: "No, it is not.", confidence: "low", citations: [] })),
  ];
  const summary = summarizeGroups(rows);

  it("counts answered, correct of all, and precision when answered", () => {
    expect(summary.total.answered_rate).toBeCloseTo(4 / 5, 10);
    expect(summary.total.short_answer_correct).toBeCloseTo(2 / 5, 10);
    expect(summary.total.when_answered).toEqual({ answered: 4, correct: 2, precision: 0.5 });
    expect(summary.total.exact_match).toBeCloseTo(1 / 5, 10);
  });

  it("gives each confidence level its precision and count; unknown only when an opening stood in", () => {
    expect(summary.total.by_confidence).toEqual({
      high: { answered: 2, correct: 1, precision: 0.5 },
      medium: { answered: 1, correct: 1, precision: 1 },
      low: { answered: 1, correct: 0, precision: 0 },
    });
    const fallback = summarizeGroups([
      buildRow(0, question("q0", "Lyon"), outcome({ text: "Lyon is the city", confidence: "unknown", citations: [] }, { answerSource: "opening-fallback" })),
    ]);
    expect(fallback.total.by_confidence.unknown).toEqual({ answered: 1, correct: 1, precision: 1 });
    expect(fallback.total.answers_from_opening_fallback).toBe(1);
  });

  it("groups by hop count", () => {
    expect(Object.keys(summary.by_hops)).toEqual(["2 hops", "3 hops", "4 hops"]);
    expect(summary.by_hops["2 hops"]!.questions).toBe(3);
    expect(summary.by_hops["3 hops"]!.short_answer_correct).toBe(1);
  });

  it("scores a failed job as unanswered whatever it carried", () => {
    const failed = buildRow(0, question("q0", "Lyon"), outcome({ text: "Lyon", confidence: "high", citations: [] }, { status: "failed", error: "job failed" }));
    expect(failed.answer).toBeNull();
    expect(failed.metrics).toMatchObject({ answered: false, shortAnswerCorrect: false, f1: 0 });
  });
});

describe("the opening sentence", () => {
  it("ends at the first full stop that is not an initial or an abbreviation", () => {
    expect(openingSentence("Roger O. Egeberg was Assistant Secretary [1]. He served under Nixon.")).toBe("Roger O. Egeberg was Assistant Secretary [1].");
    expect(openingSentence("Dr. T.R.M. Howard criticized the U.S. Navy. Then more.")).toBe("Dr. T.R.M. Howard criticized the U.S. Navy.");
    expect(openingSentence("\n\nYes: both are American [1][2]. More.")).toBe("Yes: both are American [1][2].");
    expect(openingSentence("No full stop at all")).toBe("No full stop at all");
  });
});

describe("a yes / no opening", () => {
  it("is a sentence of its own", () => {
    expect(openingSentence("No. Mount Everest is higher than K2 [1].")).toBe("No.");
    expect(scoreShortAnswer(answerFromOpening("No. Mount Everest is higher [1].")!.text, "no")).toEqual({ exactMatch: true, f1: 1, correct: true });
  });
});
