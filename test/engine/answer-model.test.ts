import { describe, expect, it } from "vitest";
import {
  ANSWER_MODEL,
  type AnswerCandidate,
  type AnswerModel,
  answerProbability,
  checkModel,
  confidenceFor,
  FEATURE_NAMES,
  featureMap,
  candidateFeatures,
  reliabilityBins,
  typeFits,
} from "../../src/research/engine/answer";
import { analyzeEvidence, type Evidence } from "../../src/research/engine/evidence";
import { analyzeQuestion } from "../../src/research/engine/question";
import heldback from "./fixtures/answer-heldback.json";
import { evidenceOf } from "./helpers";

const PAGES: [string, string][] = [
  ["Shadows Unseen", "Abuso di potere (internationally released as Shadows Unseen) is a 1972 Italian crime film directed by Camillo Bazzoni."],
  [
    "Camillo Bazzoni",
    "Camillo Bazzoni (born 29 December 1934) is an Italian cinematographer. Born in Salsomaggiore Terme, Bazzoni started as camera operator in 1960.",
  ],
  ["Salsomaggiore Terme", "Salsomaggiore Terme is a town in the province of Parma, Italy."],
];

function contextFor(question: string, candidates: AnswerCandidate[]) {
  const query = analyzeQuestion(question);
  const evidence = evidenceOf(PAGES);
  const ranked = analyzeEvidence(evidence, query).ranked.filter((entry) => entry.score > 0);
  return { query, evidence, ranked, candidates };
}

function candidate(path: AnswerCandidate["path"], text: string, evidence: Evidence, signals: AnswerCandidate["signals"] = {}): AnswerCandidate {
  const bazzoni = evidence.docs.find((doc) => doc.title === "Camillo Bazzoni")!;
  const passage = bazzoni.passages[1]!;
  return { path, text, sentence: `Answer: ${text}.`, basis: [passage], docs: [bazzoni.index], chain: { docs: [], links: [] }, signals };
}

describe("the features of a candidate answer", () => {
  it("says which path produced it, and whether it has the asked type", () => {
    const question = "Where was the director of film Shadows Unseen born?";
    const base = contextFor(question, []);
    const chain = candidate("chain", "Salsomaggiore Terme", base.evidence, { hops: 1 });
    const general = candidate("general", "1960", base.evidence, { linked: true, near: false, share: 0.7, chainFollowed: true });
    const context = { ...base, candidates: [chain, general] };
    const ofChain = featureMap(chain, context);
    expect(ofChain).toMatchObject({ path_chain: 1, path_general: 0, asks_place: 1, type_fit: 1, hops: 1 / 3, question_hops: 1 / 3 });
    // The answer has a page of its own, and the page it was read on ranks among those that scored.
    expect(ofChain.answer_has_page).toBe(1);
    expect(ofChain.answer_page_rank).toBeGreaterThan(0);
    expect(ofChain.answer_sentence_on_subject).toBe(1);
    // The other path disagrees: a year is no place.
    expect(ofChain.disagreeing_paths).toBe(0.5);
    expect(ofChain.agreeing_paths).toBe(0);
    const ofGeneral = featureMap(general, context);
    expect(ofGeneral).toMatchObject({ path_general: 1, type_fit: 0, linked: 1, near: 0, share: 0.7, chain_followed: 1 });
  });

  it("says whether the answer is a name of the kind asked, read from its own page", () => {
    const base = contextFor("Where was the director of film Shadows Unseen born?", []);
    const place = candidate("general", "Salsomaggiore Terme", base.evidence);
    const person = candidate("general", "Camillo Bazzoni", base.evidence);
    const unknown = candidate("general", "Parma Vale", base.evidence);
    const context = { ...base, candidates: [place, person, unknown] };
    expect(featureMap(place, context)).toMatchObject({ kind_fit: 1, kind_misfit: 0 });
    expect(featureMap(person, context)).toMatchObject({ kind_fit: 0, kind_misfit: 1 });
    expect(featureMap(unknown, context)).toMatchObject({ kind_fit: 0, kind_misfit: 0 });
  });

  it("says whether a name answer holds the noun the question asks", () => {
    const base = contextFor("Which town was the director of film Shadows Unseen born in?", []);
    const town = candidate("general", "Salsomaggiore Terme Town", base.evidence);
    const other = candidate("general", "Salsomaggiore Terme", base.evidence);
    const context = { ...base, candidates: [town, other] };
    expect(featureMap(town, context).names_asked_noun).toBe(1);
    expect(featureMap(other, context).names_asked_noun).toBe(0);
    // A year asked is no name: the noun "year" in an answer says nothing.
    const year = contextFor("In which year was the director of film Shadows Unseen born?", []);
    expect(featureMap(candidate("general", "1934 year", year.evidence), { ...year, candidates: [] }).names_asked_noun).toBe(0);
    // A word that marks the kind asked counts as its noun: a chief is a position.
    const position = contextFor("What government position was held by the director of film Shadows Unseen?", []);
    expect(featureMap(candidate("description", "Chief of Protocol", position.evidence), { ...position, candidates: [] }).names_asked_noun).toBe(1);
    expect(featureMap(candidate("description", "Salsomaggiore Terme", position.evidence), { ...position, candidates: [] }).names_asked_noun).toBe(0);
  });

  it("measures how much of the question the answer's passages say, and that share again when the asked words stand next to it", () => {
    const base = contextFor("Where was the director of film Shadows Unseen born?", []);
    const film = base.evidence.docs.find((doc) => doc.title === "Shadows Unseen")!;
    const alone = candidate("general", "Salsomaggiore Terme", base.evidence, { near: true });
    const withLink = { ...alone, basis: [film.passages[0]!, ...alone.basis] };
    const context = { ...base, candidates: [alone] };
    const saidAlone = featureMap(alone, context).question_said;
    const saidWithLink = featureMap(withLink, context).question_said;
    // "Born in Salsomaggiore Terme, Bazzoni started …" says "born" only; the film's lead adds the film, its name and "directed".
    expect(saidAlone).toBeGreaterThan(0);
    expect(saidWithLink).toBeGreaterThan(saidAlone);
    expect(saidWithLink).toBeLessThanOrEqual(1);
    expect(featureMap(alone, context).said_near).toBe(saidAlone);
    expect(featureMap({ ...alone, signals: { near: false } }, context).said_near).toBe(0);
  });

  it("counts paths that agree on the same answer, whatever its case or accents", () => {
    const base = contextFor("Where was the director of film Shadows Unseen born?", []);
    const chain = candidate("chain", "Salsomaggiore Terme", base.evidence);
    const general = candidate("general", "salsomaggiore terme", base.evidence);
    expect(featureMap(chain, { ...base, candidates: [chain, general] }).agreeing_paths).toBe(0.5);
    // A nationality and its country say the same.
    const demonym = candidate("chain", "Italian", base.evidence);
    const country = candidate("general", "Italy", base.evidence);
    expect(featureMap(demonym, { ...base, candidates: [demonym, country] })).toMatchObject({ agreeing_paths: 0.5, disagreeing_paths: 0 });
  });

  it("does not count a span known to answer an earlier hop as another path's reading", () => {
    const base = contextFor("Where was the director of film Shadows Unseen born?", []);
    const chain = candidate("chain", "Salsomaggiore Terme", base.evidence);
    const earlierHop = candidate("general", "Camillo Bazzoni", base.evidence, { wrongHop: true });
    expect(featureMap(chain, { ...base, candidates: [chain, earlierHop] }).disagreeing_paths).toBe(0);
    const otherReading = candidate("general", "Parma", base.evidence);
    expect(featureMap(chain, { ...base, candidates: [chain, earlierHop, otherReading] }).disagreeing_paths).toBe(0.5);
  });

  it("reads yes/no answers, countries and the question's own words", () => {
    const base = contextFor("Are Shadows Unseen and Salsomaggiore Terme both Italian?", []);
    const no = candidate("direct", "no", base.evidence, { rule: "nationality" });
    const features = featureMap(no, { ...base, candidates: [no] });
    expect(features).toMatchObject({ path_direct: 1, rule_nationality: 1, answer_no: 1, asks_yes_no: 1, type_fit: 1, answer_in_question: 0 });
    const italy = candidate("general", "Italy", base.evidence);
    expect(featureMap(italy, { ...base, candidates: [italy] }).answer_country).toBe(1);
  });

  it("gives the vector in the weights file's order", () => {
    const base = contextFor("Where was the director of film Shadows Unseen born?", []);
    const chain = candidate("chain", "Salsomaggiore Terme", base.evidence);
    const vector = candidateFeatures(chain, { ...base, candidates: [chain] });
    expect(vector).toHaveLength(FEATURE_NAMES.length);
    expect(vector[FEATURE_NAMES.indexOf("path_chain")]).toBe(1);
    expect(vector.every((value) => value >= 0 && value <= 1)).toBe(true);
  });

  it("knows the shapes of the asked types", () => {
    expect(typeFits(analyzeQuestion("When was Camillo Bazzoni born?"), "29 December 1934")).toBe(true);
    expect(typeFits(analyzeQuestion("When was Camillo Bazzoni born?"), "Parma")).toBe(false);
    expect(typeFits(analyzeQuestion("Who directed Shadows Unseen?"), "Camillo Bazzoni")).toBe(true);
    expect(typeFits(analyzeQuestion("Who directed Shadows Unseen?"), "yes")).toBe(false);
  });
});

describe("scoring with the calibrated model", () => {
  const width = FEATURE_NAMES.length;
  const toy: AnswerModel = {
    ...ANSWER_MODEL,
    mean: new Array(width).fill(0),
    scale: new Array(width).fill(1),
    weights: FEATURE_NAMES.map((name) => (name === "path_chain" ? 4 : name === "backdrop" ? -3 : 0)),
    bias: -1,
    baselines: {},
    platt: { a: 1, b: 0 },
  };
  const vector = (names: string[]) => FEATURE_NAMES.map((name) => (names.includes(name) ? 1 : 0));

  it("starts from the baseline of the candidate's rule, or of its path when the rule has none", () => {
    const withBaselines = { ...toy, baselines: { default: 0, path_direct: 1, rule_overlap: -2 } };
    expect(answerProbability(vector(["path_direct", "rule_overlap"]), withBaselines)).toBeCloseTo(1 / (1 + Math.exp(3)), 10);
    expect(answerProbability(vector(["path_direct", "rule_nationality"]), withBaselines)).toBeCloseTo(0.5, 10);
    expect(answerProbability(vector(["path_general"]), withBaselines)).toBeCloseTo(1 / (1 + Math.exp(1)), 10);
  });

  it("is the Platt-scaled sigmoid of the regression's log-odds", () => {
    expect(answerProbability(vector([]), toy)).toBeCloseTo(1 / (1 + Math.exp(1)), 10);
    expect(answerProbability(vector(["path_chain"]), toy)).toBeCloseTo(1 / (1 + Math.exp(-3)), 10);
    expect(answerProbability(vector(["path_chain", "backdrop"]), toy)).toBeCloseTo(0.5, 10);
    const scaled = { ...toy, platt: { a: 2, b: -1 } };
    expect(answerProbability(vector(["path_chain"]), scaled)).toBeCloseTo(1 / (1 + Math.exp(-(2 * 3 - 1))), 10);
  });

  it("states high at 0.95, medium at 0.8, nothing below", () => {
    expect(confidenceFor(0.97)).toBe("high");
    expect(confidenceFor(0.95)).toBe("high");
    expect(confidenceFor(0.9)).toBe("medium");
    expect(confidenceFor(0.8)).toBe("medium");
    expect(confidenceFor(0.79)).toBeNull();
  });

  it("bins predictions against outcomes", () => {
    const bins = reliabilityBins([
      { probability: 0.1, correct: false },
      { probability: 0.15, correct: true },
      { probability: 0.97, correct: true },
      { probability: 1, correct: true },
    ]);
    expect(bins).toEqual([
      { from: 0, to: 0.2, count: 2, predicted: 0.125, observed: 0.5 },
      { from: 0.95, to: 1, count: 2, predicted: 0.985, observed: 1 },
    ]);
  });
});

describe("the shipped calibrator", () => {
  const rows = heldback as { features: number[]; correct: boolean; path: string }[];

  it("was trained on the features the engine computes", () => {
    expect(() => checkModel()).not.toThrow();
    expect(ANSWER_MODEL.thresholds).toEqual({ high: 0.95, medium: 0.8 });
  });

  it("reproduces its held-back reliability table from the held-back rows (to 0.001)", () => {
    expect(rows.length).toBe(ANSWER_MODEL.heldBack.candidates);
    const bins = reliabilityBins(rows.map((row) => ({ probability: answerProbability(row.features), correct: row.correct })));
    expect(bins.map((bin) => [bin.from, bin.count, bin.observed])).toEqual(ANSWER_MODEL.heldBack.bins.map((bin) => [bin.from, bin.count, bin.observed]));
    bins.forEach((bin, index) => expect(Math.abs(bin.predicted - ANSWER_MODEL.heldBack.bins[index]!.predicted)).toBeLessThanOrEqual(0.001));
  });

  it("is calibrated on the held-back questions: where it states an answer, it is right at least as often as a tolerance of 0.1 below its estimate", () => {
    const stated = rows.map((row) => ({ probability: answerProbability(row.features), correct: row.correct })).filter((row) => row.probability >= 0.8);
    const predicted = stated.reduce((sum, row) => sum + row.probability, 0) / stated.length;
    const observed = stated.filter((row) => row.correct).length / stated.length;
    expect(stated.length).toBeGreaterThan(50);
    expect(observed).toBeGreaterThanOrEqual(predicted - 0.1);
  });
});
