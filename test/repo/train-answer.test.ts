import { describe, expect, it } from "vitest";
import { FOLDS, foldOf, splitOf } from "../../scripts/train-answer";
import { fitLogistic, fitPlatt, fitSigned, groupBaselines, logOddsOf, type Row, solve } from "../../scripts/train-answer/fit";

/** Rows where the first feature decides the outcome 90% of the time and the second is noise (a fixed pseudo-random sequence). */
function rows(count: number): Row[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: count }, () => {
    const signal = next() < 0.5 ? 1 : 0;
    const noise = next();
    const flip = next() < 0.1;
    return { features: [signal, noise], correct: flip ? signal === 0 : signal === 1 };
  });
}

describe("the answer model's fitting (npm run train:answer)", () => {
  it("solves small linear systems", () => {
    expect(
      solve(
        [
          [2, 1],
          [1, 3],
        ],
        [3, 5],
      ).map((value) => Number(value.toFixed(10))),
    ).toEqual([0.8, 1.4]);
  });

  it("learns the feature that decides and ignores the noise, the same way every time", () => {
    const data = rows(400);
    const model = fitLogistic(data, 1);
    expect(model.weights[0]!).toBeGreaterThan(1);
    expect(Math.abs(model.weights[1]!)).toBeLessThan(0.3);
    expect(fitLogistic(data, 1)).toEqual(model);
    // About 90% right where the signal is on.
    const p = 1 / (1 + Math.exp(-logOddsOf(model, [1, 0.5])));
    expect(p).toBeGreaterThan(0.85);
    expect(p).toBeLessThan(0.95);
  });

  it("a stronger penalty shrinks the weights", () => {
    const data = rows(400);
    expect(Math.abs(fitLogistic(data, 100).weights[0]!)).toBeLessThan(Math.abs(fitLogistic(data, 1).weights[0]!));
  });

  it("holds a weight of the wrong sign at zero and fits the rest", () => {
    const data = rows(400);
    // The first feature helps; required to hurt, it is held at zero.
    const free = fitLogistic(data, 1);
    const signed = fitSigned(data, 1, [-1, 0]);
    expect(free.weights[0]!).toBeGreaterThan(1);
    expect(signed.weights[0]).toBe(0);
    expect(fitSigned(data, 1, [1, 0]).weights[0]).toBeCloseTo(free.weights[0]!, 10);
  });

  it("gives each group its share right, shrunk toward its parent's", () => {
    const members = [
      ...Array.from({ length: 8 }, (_, index) => ({ group: "rule_a", parent: "path_x", correct: index < 6 })),
      ...Array.from({ length: 2 }, () => ({ group: "rule_b", parent: "path_x", correct: false })),
    ];
    const baselines = groupBaselines(members, 4);
    const p = (value: number) => 1 / (1 + Math.exp(-value));
    // path_x: 6 of 10 right, shrunk toward all (7/12) by 4 pseudo-rows.
    const parent = (6 + 4 * (7 / 12)) / 14;
    expect(p(baselines.path_x!)).toBeCloseTo(parent, 10);
    expect(p(baselines.rule_b!)).toBeCloseTo((0 + 4 * parent) / 6, 10);
    expect(p(baselines.rule_a!)).toBeGreaterThan(p(baselines.rule_b!));
  });

  it("Platt scaling undoes an overconfident score", () => {
    // Scores three times too large: the fitted slope brings them back to about a third.
    const data = rows(600);
    const truth = fitLogistic(data, 0.01);
    const scores = data.map((row) => 3 * logOddsOf(truth, row.features));
    const { a } = fitPlatt(
      scores,
      data.map((row) => row.correct),
    );
    expect(a).toBeGreaterThan(0.25);
    expect(a).toBeLessThan(0.45);
  });

  it("splits questions by their id, three quarters to fit in five folds, a quarter held back", () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `question-${index}`);
    const counts = { fit: 0, heldback: 0 };
    for (const id of ids) counts[splitOf(id)]++;
    expect(counts.fit / 2000).toBeCloseTo(0.75, 1);
    expect(splitOf("question-1")).toBe(splitOf("question-1"));
    const folds = Array.from({ length: FOLDS }, (_, fold) => ids.filter((id) => foldOf(id) === fold).length / 2000);
    for (const share of folds) expect(share).toBeCloseTo(1 / FOLDS, 1);
    // A question the rules were tuned on fits in every fold, and is never held back.
    const tuned = new Set(["question-1"]);
    expect(splitOf("question-1", tuned)).toBe("fit");
    expect(foldOf("question-1", tuned)).toBe(-1);
  });
});
