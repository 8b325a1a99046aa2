/**
 * The answer model's fitting, pure and deterministic: an L2-regularised logistic regression by
 * Newton's method (IRLS) on standardised features, and Platt scaling of its log-odds. Same rows
 * in, same weights out.
 */

export interface Row {
  features: number[];
  correct: boolean;
  /** Log-odds the row starts from before the weights apply (its group's baseline); 0 when absent. */
  offset?: number;
}

export interface Regression {
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and, with the ridge, positive definite). */
export function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const head = a[col]![col]!;
    if (Math.abs(head) < 1e-12) continue;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = a[row]![col]! / head;
      if (factor === 0) continue;
      for (let k = col; k <= n; k++) a[row]![k]! -= factor * a[col]![k]!;
    }
  }
  return a.map((row, index) => (Math.abs(row[index]!) < 1e-12 ? 0 : row[n]! / row[index]!));
}

/**
 * The least scale a feature is divided by. The L2 penalty weighs standardised weights, so a
 * feature seen on a handful of rows (a count asked, 0.7% of them, all wrong) could take a weight
 * worth −5 log-odds for free and silence every such question; below this spread (a feature on
 * about 4% of rows) its weight costs what a common feature's would.
 */
const MIN_SCALE = 0.2;

/** Each feature's mean and standard deviation over the rows (1 where it does not vary), never below MIN_SCALE. */
export function standardise(rows: readonly Row[]): { mean: number[]; scale: number[] } {
  const width = rows[0]?.features.length ?? 0;
  const mean = Array.from({ length: width }, (_, index) => rows.reduce((sum, row) => sum + row.features[index]!, 0) / Math.max(rows.length, 1));
  const scale = mean.map((mu, index) => {
    const variance = rows.reduce((sum, row) => sum + (row.features[index]! - mu) ** 2, 0) / Math.max(rows.length, 1);
    return variance > 1e-12 ? Math.max(Math.sqrt(variance), MIN_SCALE) : 1;
  });
  return { mean, scale };
}

/**
 * Logistic regression with an L2 penalty `lambda` on the weights (not the bias; `penalty[j]`, 1
 * where not given, scales it for feature j: a group intercept is barely penalised), fitted by
 * Newton's method from zero: the log-likelihood is concave, so the result does not depend on the
 * starting point or on row order.
 */
export function fitLogistic(rows: readonly Row[], lambda: number, iterations = 50, penalty: readonly number[] = []): Regression {
  const { mean, scale } = standardise(rows);
  const width = mean.length;
  const x = rows.map((row) => [1, ...row.features.map((value, index) => (value - mean[index]!) / scale[index]!)]);
  const y = rows.map((row) => (row.correct ? 1 : 0));
  const offsets = rows.map((row) => row.offset ?? 0);
  let beta = new Array(width + 1).fill(0) as number[];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array(width + 1).fill(0) as number[];
    const hessian = Array.from({ length: width + 1 }, () => new Array(width + 1).fill(0) as number[]);
    x.forEach((xi, i) => {
      const p = sigmoid(offsets[i]! + xi.reduce((sum, value, k) => sum + value * beta[k]!, 0));
      const w = Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j <= width; j++) {
        gradient[j]! += (y[i]! - p) * xi[j]!;
        for (let k = 0; k <= width; k++) hessian[j]![k]! += w * xi[j]! * xi[k]!;
      }
    });
    for (let j = 1; j <= width; j++) {
      const ridge = lambda * (penalty[j - 1] ?? 1);
      gradient[j]! -= ridge * beta[j]!;
      hessian[j]![j]! += ridge;
    }
    hessian[0]![0]! += 1e-6;
    const step = solve(hessian, gradient);
    // Newton's step, halved while it would make the penalised loss worse (near-separable rows overshoot).
    let size = 1;
    const before = penalisedLoss(x, y, offsets, beta, lambda, penalty);
    while (
      size > 1e-6 &&
      penalisedLoss(
        x,
        y,
        offsets,
        beta.map((value, index) => value + size * step[index]!),
        lambda,
        penalty,
      ) > before
    )
      size /= 2;
    beta = beta.map((value, index) => value + size * step[index]!);
    if (size <= 1e-6 || Math.max(...step.map((value) => Math.abs(value * size))) < 1e-8) break;
  }
  return { mean, scale, weights: beta.slice(1), bias: beta[0]! };
}

function penalisedLoss(x: number[][], y: number[], offsets: number[], beta: number[], lambda: number, penalty: readonly number[]): number {
  let loss = 0;
  x.forEach((xi, i) => {
    const z = offsets[i]! + xi.reduce((sum, value, k) => sum + value * beta[k]!, 0);
    // log(1 + e^z) - y z, computed without overflow.
    loss += Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))) - y[i]! * z;
  });
  return loss + (lambda / 2) * beta.slice(1).reduce((sum, value, j) => sum + (penalty[j] ?? 1) * value * value, 0);
}

/**
 * The regression with sign constraints: `signs[j]` +1 (the weight may not be negative), -1 (may not
 * be positive) or 0 (free). A weight that comes out on the wrong side is held at zero and the rest
 * refitted, until none is (an active set; each round fixes at least one more weight, so it ends).
 */
export function fitSigned(rows: readonly Row[], lambda: number, signs: readonly number[], penalty: readonly number[] = []): Regression {
  const held = [...penalty];
  for (;;) {
    const model = fitLogistic(rows, lambda, 50, held);
    const wrong = model.weights.flatMap((weight, index) => ((held[index] ?? 1) < 1e6 && (signs[index] ?? 0) * weight < 0 ? [index] : []));
    if (wrong.length === 0) return { ...model, weights: model.weights.map((weight, index) => ((held[index] ?? 1) >= 1e6 ? 0 : weight)) };
    for (const index of wrong) held[index] = 1e6;
  }
}

/** The regression's log-odds for one feature vector, from its offset (0 when none). */
export function logOddsOf(model: Regression, features: readonly number[], offset = 0): number {
  return features.reduce((z, value, index) => z + (model.weights[index]! * (value - model.mean[index]!)) / model.scale[index]!, model.bias + offset);
}

/**
 * Each group's baseline log-odds: its share of right rows, shrunk toward its parent's share by
 * `strength` pseudo-rows (a rule of three rows says little on its own).
 */
export function groupBaselines(rows: readonly { group: string; parent: string; correct: boolean }[], strength = 4): Record<string, number> {
  const overall = (rows.filter((row) => row.correct).length + 1) / (rows.length + 2);
  const rate = (members: readonly { correct: boolean }[], prior: number) =>
    (members.filter((row) => row.correct).length + strength * prior) / (members.length + strength);
  const parents = new Map<string, number>();
  for (const parent of new Set(rows.map((row) => row.parent)))
    parents.set(
      parent,
      rate(
        rows.filter((row) => row.parent === parent),
        overall,
      ),
    );
  const out: Record<string, number> = { default: Math.log(overall / (1 - overall)) };
  for (const parent of [...parents.keys()].sort()) out[parent] = Math.log(parents.get(parent)! / (1 - parents.get(parent)!));
  for (const group of [...new Set(rows.map((row) => row.group))].sort()) {
    const members = rows.filter((row) => row.group === group);
    const p = rate(members, parents.get(members[0]!.parent)!);
    out[group] = Math.log(p / (1 - p));
  }
  return out;
}

/**
 * Platt scaling: p = sigmoid(a z + b) fitted to the outcomes by Newton's method, with Platt's
 * target smoothing ((n+ + 1)/(n+ + 2), 1/(n- + 2)) so a small set never yields certainty.
 */
export function fitPlatt(scores: readonly number[], outcomes: readonly boolean[], iterations = 100): { a: number; b: number } {
  const positives = outcomes.filter(Boolean).length;
  const negatives = outcomes.length - positives;
  const hi = (positives + 1) / (positives + 2);
  const lo = 1 / (negatives + 2);
  const targets = outcomes.map((correct) => (correct ? hi : lo));
  // The smoothed targets' cross-entropy, which each Newton step must not increase (halved until it does not).
  const loss = (a: number, b: number) =>
    -scores.reduce((sum, z, i) => {
      const p = Math.min(Math.max(sigmoid(a * z + b), 1e-12), 1 - 1e-12);
      return sum + targets[i]! * Math.log(p) + (1 - targets[i]!) * Math.log(1 - p);
    }, 0);
  let a = 1;
  let b = 0;
  let current = loss(a, b);
  for (let iteration = 0; iteration < iterations; iteration++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    scores.forEach((z, i) => {
      const p = sigmoid(a * z + b);
      const d = targets[i]! - p;
      const w = Math.max(p * (1 - p), 1e-9);
      ga += d * z;
      gb += d;
      haa += w * z * z;
      hab += w * z;
      hbb += w;
    });
    const [da, db] = solve(
      [
        [haa, hab],
        [hab, hbb],
      ],
      [ga, gb],
    ) as [number, number];
    let step = 1;
    while (step > 1e-6 && loss(a + step * da, b + step * db) > current) step /= 2;
    if (step <= 1e-6) break;
    a += step * da;
    b += step * db;
    const next = loss(a, b);
    const done = current - next < 1e-12;
    current = next;
    if (done) break;
  }
  return { a, b };
}

/** Mean log-loss of probabilities against outcomes. */
export function logLoss(probabilities: readonly number[], outcomes: readonly boolean[]): number {
  const clip = (p: number) => Math.min(Math.max(p, 1e-6), 1 - 1e-6);
  return -probabilities.reduce((sum, p, i) => sum + (outcomes[i] ? Math.log(clip(p)) : Math.log(1 - clip(p))), 0) / Math.max(probabilities.length, 1);
}

/** Mean squared error of probabilities against outcomes. */
export function brier(probabilities: readonly number[], outcomes: readonly boolean[]): number {
  return probabilities.reduce((sum, p, i) => sum + (p - (outcomes[i] ? 1 : 0)) ** 2, 0) / Math.max(probabilities.length, 1);
}
