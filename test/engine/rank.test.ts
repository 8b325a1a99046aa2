import { describe, expect, it } from "vitest";
import { bm25Scores, mmr, type Passage, similarity } from "../../src/research/engine/evidence";
import { terms } from "../../src/research/engine/language";

function passage(text: string, title = "", doc = 0, position = 0): Passage {
  return { doc, position, text, terms: terms(text), titleTerms: terms(title), start: 0, end: text.length };
}

describe("BM25 passage scoring", () => {
  const passages = [
    passage("The tariff of 1828 raised duties on imported goods.", "Tariff of 1828"),
    passage("Bread is baked from dough.", "Bread"),
    passage("Tariffs and duties were debated by Congress; the tariff was lowered.", "Congress"),
    passage("Congress met in December.", "Congress"),
  ];
  const query = new Map([
    ["tariff", 1],
    ["duty", 1],
  ]);

  it("ranks passages with the query terms above those without", () => {
    const scores = bm25Scores(passages, query);
    expect(scores[1]).toBe(0);
    expect(scores[3]).toBe(0);
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[2]).toBeGreaterThan(0);
  });

  it("counts a title match as evidence for the passage", () => {
    const scores = bm25Scores([passage("It was passed in May.", "Tariff of 1828"), passage("It was passed in May.", "Bread")], new Map([["tariff", 1]]));
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it("weights rare terms above common ones (idf) and honours term weights", () => {
    const common = bm25Scores(passages, new Map([["congress", 1]]));
    const rare = bm25Scores(passages, new Map([["bread", 1]]));
    expect(Math.max(...rare)).toBeGreaterThan(Math.max(...common));
    const heavy = bm25Scores(passages, new Map([["tariff", 3]]));
    const light = bm25Scores(passages, new Map([["tariff", 1]]));
    expect(heavy[0]).toBeCloseTo(light[0]! * 3);
  });
});

describe("MMR", () => {
  it("prefers a relevant but different item over a near duplicate", () => {
    const items = [
      passage("Tariff duties protect northern industry from British goods."),
      passage("Tariff duties protect northern industry from cheap British goods."),
      passage("South Carolina nullified the tariff in 1832."),
    ];
    const picked = mmr(items, [1, 0.95, 0.7], (item) => item.terms, 2, 0.5);
    expect(picked.map((item) => item.text)).toEqual([items[0]!.text, items[2]!.text]);
  });

  it("with lambda 1 is plain relevance order", () => {
    const items = [passage("a b c"), passage("d e f"), passage("g h i")];
    expect(mmr(items, [0.2, 0.9, 0.5], (item) => item.terms, 3, 1).map((item) => item.text)).toEqual(["d e f", "g h i", "a b c"]);
  });

  it("measures overlap with Jaccard similarity", () => {
    expect(similarity(["a", "b"], ["a", "b"])).toBe(1);
    expect(similarity(["a", "b"], ["c"])).toBe(0);
    expect(similarity(["a", "b"], ["b", "c"])).toBeCloseTo(1 / 3);
  });
});
