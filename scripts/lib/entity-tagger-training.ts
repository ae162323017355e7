import { hintsOfText } from "../../src/intelligence/entities";
import { bestTag, decode, entityConfidence, logOdds, entitySpans, featureRows, staticFeatures, tokenRows, TAGS, type EntityTaggerModel, type Tag } from "../../src/intelligence/entity-tagger";
import { packWeights, unpackWeights } from "../../src/intelligence/linear-model";
import type { NerSentence } from "./corpora";
import { fitCalibration, shuffled } from "./logistic-regression";

export interface TaggerOptions {
  buckets: number;
  /** At most this many passes; the weights kept are those of the pass best on the held-out sentences. */
  epochs: number;
  /** Averaged weights smaller than this are dropped from the shipped model. */
  keepAbove: number;
  source: string;
}

interface Prepared {
  sentence: NerSentence;
  rows: number[][];
  gold: Tag[];
}

const TEMPERATURES = [0.5, 1, 2, 3, 4, 6, 8, 12, 16];

function prepare(sentences: NerSentence[], buckets: number, progress: (message: string) => void): Prepared[] {
  return sentences.map((sentence, i) => {
    if (i % 500 === 0) progress(`compromise's hints ${i}/${sentences.length}`);
    const hints = hintsOfText(sentence.text, sentence.tokens);
    const rows = staticFeatures(sentence.tokens, hints).map((features) => featureRows(features, buckets));
    return { sentence, rows, gold: sentence.tokens.map((t) => t.tag as Tag) };
  });
}

type Held = { sentence: NerSentence; hints: ReturnType<typeof hintsOfText> }[];

/** Entity F1 (exact span and type) of weights on held-out sentences. */
function heldOutF1(held: Held, buckets: number, weight: (index: number) => number): number {
  const found = scoreEntities(held, { buckets }, weight, 1);
  const gold = held.reduce((sum, { sentence }) => sum + sentence.entities.length, 0);
  return (2 * found.filter((f) => f.right).length) / Math.max(found.length + gold, 1);
}

/**
 * An averaged perceptron (Collins 2002) trained greedily as it decodes: each token's features
 * include the tags it predicted before it, and a wrong tag moves the weights at once. After each
 * pass the averaged weights are scored on the held-out sentences; the best pass's are kept.
 */
function averagedWeights(prepared: Prepared[], held: Held, options: TaggerOptions, progress: (message: string) => void): { weights: Float64Array; epoch: number } {
  const size = options.buckets * TAGS.length;
  const weights = new Float64Array(size);
  // Each weight's sum of updates times the step they came at: the average is w - sums / steps.
  const sums = new Float64Array(size);
  let step = 1;
  const scores = new Float64Array(TAGS.length);
  const weight = (index: number) => weights[index]!;
  let best = { weights: weights, epoch: 0, f1: -1 };
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    progress(`epoch ${epoch}/${options.epochs}${best.epoch ? `, best so far ${best.epoch} (held-out F1 ${best.f1.toFixed(3)})` : ""}`);
    for (const { sentence, rows, gold } of shuffled(prepared, epoch)) {
      const predicted: Tag[] = [];
      for (let i = 0; i < gold.length; i++) {
        const all = tokenRows(rows[i]!, predicted, i, sentence.tokens[i]!.text, options.buckets);
        const best = bestTag(all, predicted[i - 1] ?? "O", weight, scores);
        const truth = TAGS.indexOf(gold[i]!);
        if (best !== truth) {
          for (const row of all) {
            weights[row + truth]! += 1;
            sums[row + truth]! += step;
            weights[row + best]! -= 1;
            sums[row + best]! -= step;
          }
        }
        // The history is what the tagger will see at run time: its own tags.
        predicted.push(TAGS[best]!);
        step++;
      }
    }
    const averaged = weights.map((w, i) => w - sums[i]! / step);
    const f1 = heldOutF1(held, options.buckets, (index) => averaged[index]!);
    if (f1 > best.f1) best = { weights: averaged, epoch, f1 };
  }
  return best;
}

/** The found PER, LOC and ORG entities of sentences, each with its mean tag probability and whether it is right. */
export function scoreEntities(prepared: Held, model: Pick<EntityTaggerModel, "buckets">, weight: (index: number) => number, temperature: number) {
  return prepared.flatMap(({ sentence, hints }) => {
    const { tags, probabilities } = decode(sentence.tokens, hints, model.buckets, weight, temperature);
    const gold = new Set(sentence.entities.map((e) => `${e.start}:${e.end}:${e.type}`));
    return entitySpans(sentence.tokens, tags, probabilities)
      .filter((span) => span.label !== "MISC")
      .map((span) => ({ ...span, right: gold.has(`${sentence.tokens[span.first]!.start}:${sentence.tokens[span.last]!.end}:${span.label}`) ? 1 : 0 }));
  });
}

/** Trains on `train`, then fits the temperature and the calibration of the shipped (packed) weights on `calibration`. */
export function trainEntityTagger(train: NerSentence[], calibration: NerSentence[], options: TaggerOptions, progress: (message: string) => void): EntityTaggerModel {
  const prepared = prepare(train, options.buckets, progress);
  const held: Held = calibration.map((sentence) => ({ sentence, hints: hintsOfText(sentence.text, sentence.tokens) }));
  const { weights: averaged, epoch } = averagedWeights(prepared, held, options, progress);
  const kept: [number, number][] = [];
  averaged.forEach((w, index) => {
    if (Math.abs(w) >= options.keepAbove) kept.push([index, w]);
  });
  const packed = packWeights(kept);
  const table = unpackWeights(packed);
  const weight = (index: number) => table.get(index) ?? 0;
  progress("calibrating");
  const platt = (found: ReturnType<typeof scoreEntities>) =>
    fitCalibration(
      found.map((f) => logOdds(f.probability)),
      found.map((f) => f.right),
    );
  const fits = TEMPERATURES.map((temperature) => {
    const found = scoreEntities(held, options, weight, temperature);
    const calibrated = platt(found);
    const loss = -found.reduce((sum, f) => {
      const p = entityConfidence({ calibration: calibrated }, f.probability);
      return sum + Math.log(Math.max(f.right ? p : 1 - p, 1e-12));
    }, 0);
    return { temperature, calibrated, loss };
  });
  const best = fits.reduce((x, y) => (y.loss < x.loss ? y : x));
  return { buckets: options.buckets, epochs: epoch, weights: packed, temperature: best.temperature, calibration: best.calibrated, source: options.source };
}
