import type { AnswerConfidence } from "../../shapes";
import trained from "./answer-model.json";
import { FEATURE_NAMES } from "./features";

/**
 * The probability that a candidate short answer is right: a logistic regression over the
 * candidate's features (answer/features.ts), starting from the baseline of the path or rule that
 * produced it, then Platt scaling fitted on training questions the regression never saw. Both are learned by `npm run train:answer` (scripts/train-answer.ts) and
 * shipped as answer-model.json, with the reliability they showed on a third, held-back part.
 * `high` is an estimated 0.95 or more, `medium` 0.8 or more; below, the engine states no answer.
 */

export interface ReliabilityBin {
  /** The bin's predicted probabilities, [from, to) (the last bin includes 1). */
  from: number;
  to: number;
  count: number;
  /** Mean predicted probability of the bin's rows. */
  predicted: number;
  /** Share of the bin's rows that were right. */
  observed: number;
}

export interface AnswerModel {
  version: number;
  features: string[];
  /** How each feature was centred and scaled before the weights apply. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /**
   * Each path's and rule's baseline log-odds (its share of right answers in training, shrunk
   * toward its path's, and the path's toward all): the weights adjust from there.
   */
  baselines: Record<string, number>;
  /** p = sigmoid(a * z + b), z the regression's log-odds. */
  platt: { a: number; b: number };
  thresholds: { high: number; medium: number };
  /** Where it was learned and how it did on questions it never saw (see the training script). */
  training: Record<string, unknown>;
  heldBack: { bins: ReliabilityBin[]; candidates: number; brier: number; [key: string]: unknown };
}

export const ANSWER_MODEL = trained as AnswerModel;

/** The edges of the reliability table's bins: finer where the thresholds are. */
export const RELIABILITY_EDGES = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1];

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * The group a candidate's baseline is learned for: the rule that decided it (`rule_overlap`) when
 * one did, else its path (`path_general`); `parent` is always its path.
 */
export function candidateGroup(features: readonly number[]): { group: string; parent: string } {
  const on = FEATURE_NAMES.filter((_, index) => features[index] === 1);
  const parent = on.find((name) => name.startsWith("path_")) ?? "default";
  return { group: on.find((name) => name.startsWith("rule_")) ?? parent, parent };
}

/** The baseline log-odds of a candidate's group (its path's when the group had no training rows). */
export function baselineOf(features: readonly number[], model: AnswerModel = ANSWER_MODEL): number {
  const { group, parent } = candidateGroup(features);
  return model.baselines[group] ?? model.baselines[parent] ?? model.baselines.default ?? 0;
}

/** The regression's log-odds for a feature vector (in FEATURE_NAMES order). */
export function logOdds(features: readonly number[], model: AnswerModel = ANSWER_MODEL): number {
  let z = model.bias + baselineOf(features, model);
  for (let index = 0; index < model.weights.length; index++) {
    const scale = model.scale[index] || 1;
    z += (model.weights[index]! * ((features[index] ?? 0) - model.mean[index]!)) / scale;
  }
  return z;
}

/** The calibrated probability that the candidate with these features is right. */
export function answerProbability(features: readonly number[], model: AnswerModel = ANSWER_MODEL): number {
  return sigmoid(model.platt.a * logOdds(features, model) + model.platt.b);
}

/** The confidence an estimated probability earns, or null: below `medium` no answer is stated. */
export function confidenceFor(probability: number, model: AnswerModel = ANSWER_MODEL): Exclude<AnswerConfidence, "low"> | null {
  if (probability >= model.thresholds.high) return "high";
  if (probability >= model.thresholds.medium) return "medium";
  return null;
}

/** Predicted against observed, per bin of predicted probability (bins without rows are left out). */
export function reliabilityBins(rows: readonly { probability: number; correct: boolean }[], edges: readonly number[] = RELIABILITY_EDGES): ReliabilityBin[] {
  const bins: ReliabilityBin[] = [];
  for (let index = 0; index < edges.length - 1; index++) {
    const from = edges[index]!;
    const to = edges[index + 1]!;
    const last = index === edges.length - 2;
    const inBin = rows.filter((row) => row.probability >= from && (row.probability < to || (last && row.probability <= to)));
    if (inBin.length === 0) continue;
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    bins.push({
      from,
      to,
      count: inBin.length,
      predicted: round(mean(inBin.map((row) => row.probability))),
      observed: round(mean(inBin.map((row) => (row.correct ? 1 : 0)))),
    });
  }
  return bins;
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** The model's features must be the engine's, in the same order: a stale weights file fails loudly. */
export function checkModel(model: AnswerModel = ANSWER_MODEL): void {
  if (model.features.length !== FEATURE_NAMES.length || model.features.some((name, index) => name !== FEATURE_NAMES[index])) {
    throw new Error("answer-model.json was trained on other features than answer/features.ts computes: run npm run train:answer");
  }
}
