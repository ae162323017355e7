import {
  featureWordCount,
  hashedFeatures,
  lengthShrunk,
  packWeights,
  plattScaled,
  scoreText,
  textLength,
  type Calibration,
  type FeatureOptions,
  type LengthDoubt,
  type LinearModel,
  type TextLength,
  type Valences,
} from "../../../src/intelligence/linear-model";
import type { LabelledText } from "./corpora";
import { seededRandom } from "./random";

export interface TrainingOptions {
  features: FeatureOptions;
  buckets: number;
  epochs: number;
  /** L2 penalty per example step. */
  l2: number;
  /** Weights smaller than this are dropped from the shipped model. */
  keepAbove: number;
  /** A feature in fewer training texts than this is not learned (rare ones mostly memorise). */
  minDocuments: number;
  /** The label whose probability the model gives; the other is the only other one. */
  positive: string;
  source: string;
  valences?: Valences;
}

interface Example {
  buckets: number[];
  y: number;
}

const MIN_CALIBRATION_ITEMS = 100;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** A deterministic shuffle (the same model from the same data on every run). */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Logistic regression by AdaGrad over hashed features, with L2; classes weighted to balance them. */
function fit(examples: Example[], options: TrainingOptions, progress: (epoch: number) => void) {
  const weights = new Float64Array(options.buckets);
  const squares = new Float64Array(options.buckets).fill(1e-8);
  let bias = 0;
  let biasSquares = 1e-8;
  const positives = examples.filter((e) => e.y === 1).length;
  const classWeight = [examples.length / (2 * (examples.length - positives)), examples.length / (2 * positives)];
  const rate = 0.2;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (const { buckets, y } of shuffled(examples, 7 + epoch)) {
      let z = bias;
      for (const b of buckets) z += weights[b]!;
      const gradient = (sigmoid(z) - y) * classWeight[y]!;
      for (const b of buckets) {
        const g = gradient + options.l2 * weights[b]!;
        squares[b]! += g * g;
        weights[b]! -= (rate * g) / Math.sqrt(squares[b]!);
      }
      biasSquares += gradient * gradient;
      bias -= (rate * gradient) / Math.sqrt(biasSquares);
    }
    progress(epoch + 1);
  }
  return { weights, bias };
}

/** The log loss (natural log, summed) of probabilities against what happened (1 or 0). */
export const logLoss = (probabilities: readonly number[], outcomes: readonly number[]) =>
  -probabilities.reduce((sum, p, i) => sum + Math.log(Math.max(outcomes[i] ? p : 1 - p, 1e-12)), 0);

/** Platt scaling: a and b of σ(a·score + b) that minimise the log loss of held-out scores (Newton's method). */
export function fitCalibration(scores: number[], ys: number[]): Calibration {
  // Platt's smoothed targets: a held-out set the model separates must not make it certain.
  const positives = ys.filter((y) => y === 1).length;
  const targets = ys.map((y) => (y === 1 ? (positives + 1) / (positives + 2) : 1 / (ys.length - positives + 2)));
  let a = 1;
  let b = 0;
  for (let step = 0; step < 50; step++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    scores.forEach((s, i) => {
      const p = sigmoid(a * s + b);
      const error = p - targets[i]!;
      const curvature = p * (1 - p);
      ga += error * s;
      gb += error;
      haa += curvature * s * s;
      hab += curvature * s;
      hbb += curvature;
    });
    const determinant = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / determinant;
    const db = (haa * gb - hab * ga) / determinant;
    // Damped: a step never moves a parameter by more than one.
    const damping = Math.max(1, Math.abs(da), Math.abs(db));
    a -= da / damping;
    b -= db / damping;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a: Number(a.toFixed(4)), b: Number(b.toFixed(4)) };
}

/**
 * Trains on `train`, fits the calibration on `calibration` (data the weights never saw), and keeps
 * the weights that matter.
 */
export function trainLinearModel(
  train: LabelledText[],
  calibration: LabelledText[],
  options: TrainingOptions,
  progress: (message: string) => void,
): LinearModel {
  const labels = [...new Set(train.map((e) => e.label))].sort();
  if (labels.length !== 2 || !labels.includes(options.positive))
    throw new Error(`expected two labels including ${options.positive}, got ${labels.join(", ")}`);
  const negative = labels.find((l) => l !== options.positive)!;
  const shape = { buckets: options.buckets, features: options.features };
  const hashed = train.map((e) => hashedFeatures(e.text, shape, options.valences));
  const documents = new Uint32Array(options.buckets);
  for (const buckets of hashed) for (const b of buckets) documents[b]!++;
  const examples = hashed.map((buckets, i) => ({
    buckets: buckets.filter((b) => documents[b]! >= options.minDocuments),
    y: train[i]!.label === options.positive ? 1 : 0,
  }));
  const { weights, bias } = fit(examples, options, (epoch) => progress(`epoch ${epoch}/${options.epochs}`));
  const kept: [number, number][] = [];
  weights.forEach((w, bucket) => {
    if (Math.abs(w) >= options.keepAbove) kept.push([bucket, Number(w.toFixed(3))]);
  });
  const model: LinearModel = {
    labels: [negative, options.positive],
    buckets: options.buckets,
    features: options.features,
    bias: Number(bias.toFixed(4)),
    weights: packWeights(kept),
    calibration: { short: { a: 1, b: 0 }, long: { a: 1, b: 0 } },
    source: options.source,
  };
  // Calibrated on the weights as shipped (packed), not as trained: the Worker's own scoring.
  model.calibration = fitCalibrations(scoredBy(model, calibration, options));
  return model;
}

interface ScoredText {
  length: TextLength;
  words: number;
  score: number;
  y: number;
}

/** Each text's raw score by a model, its length class and its label as 1 or 0. */
const scoredBy = (model: LinearModel, texts: LabelledText[], options: TrainingOptions): ScoredText[] =>
  texts.map((e) => ({
    length: textLength(e.text),
    words: featureWordCount(e.text),
    score: scoreText(model, e.text, options.valences).score,
    y: e.label === options.positive ? 1 : 0,
  }));

/** Platt scaling of scored texts, for short and long texts each where there is enough of each. */
function fitCalibrations(scored: ScoredText[]): Record<TextLength, Calibration> {
  const fitOn = (items: ScoredText[]) =>
    fitCalibration(
      items.map((i) => i.score),
      items.map((i) => i.y),
    );
  const overall = fitOn(scored);
  const own = (length: TextLength) => scored.filter((s) => s.length === length);
  const enough = (items: ScoredText[]) => items.length >= MIN_CALIBRATION_ITEMS && new Set(items.map((s) => s.y)).size === 2;
  return { short: enough(own("short")) ? fitOn(own("short")) : overall, long: enough(own("long")) ? fitOn(own("long")) : overall };
}

/**
 * Platt scaling for text of sources a model has not seen: for each source, the recipe learns
 * from the others and scores that one; the scores of all, pooled, fit the scaling. Its scores
 * then carry the doubt of a new source, not the ease of a held-out part of a known one.
 */
export function crossSourceCalibration(
  sources: LabelledText[][],
  extra: LabelledText[],
  options: TrainingOptions,
): { calibration: Record<TextLength, Calibration>; lengthDoubt: LengthDoubt } {
  const scored = sources.flatMap((source, i) => {
    const others = sources.filter((_, j) => j !== i).flat();
    const tenth = others.filter((_, k) => k % 10 === 9);
    const model = trainLinearModel([...others.filter((_, k) => k % 10 !== 9), ...extra], tenth, options, () => undefined);
    return scoredBy(model, source, options);
  });
  // Where the plain scaling of short texts (nearly all of them) is undecided: the shrinkage keeps those decisions and moves only the confidences.
  const plain = fitCalibrations(scored).short;
  const center = -plain.b / plain.a;
  // The length shrinkage whose scaling loses least on these unseen-source scores: powers 0 (none) to 1, by twentieths.
  const counts = scored.map((s) => s.words).sort((a, b) => a - b);
  const cap = counts[Math.floor(0.99 * (counts.length - 1))]!;
  const fits = Array.from({ length: 21 }, (_, i) => {
    const lengthDoubt = { power: i / 20, cap, center: Number(center.toFixed(4)) };
    const distances = scored.map((s) => lengthShrunk(lengthDoubt, s.score, s.words) - lengthDoubt.center);
    const a = fitSlope(
      distances,
      scored.map((s) => s.y),
    );
    const scaling = { a, b: Number((-a * lengthDoubt.center).toFixed(4)) };
    const loss = logLoss(
      distances.map((d) => plattScaled({ a, b: 0 }, d)),
      scored.map((s) => s.y),
    );
    return { calibration: { short: scaling, long: scaling }, lengthDoubt, loss };
  });
  const { calibration, lengthDoubt } = fits.reduce((best, fit) => (fit.loss < best.loss ? fit : best));
  return { calibration, lengthDoubt };
}

/** The a of σ(a·d) that minimises the log loss of distances d from the undecided point (Newton's method). */
function fitSlope(distances: number[], ys: number[]): number {
  let a = 1;
  for (let step = 0; step < 50; step++) {
    let gradient = 0;
    let curvature = 1e-9;
    distances.forEach((d, i) => {
      const p = plattScaled({ a, b: 0 }, d);
      gradient += (p - ys[i]!) * d;
      curvature += p * (1 - p) * d * d;
    });
    const move = gradient / curvature;
    a -= move / Math.max(1, Math.abs(move));
    if (Math.abs(move) < 1e-9) break;
  }
  return Number(a.toFixed(4));
}
