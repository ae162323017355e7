import { hintsOfText } from "../../src/intelligence/entities";
import { bestTag, decode, entitySpans, featureRows, staticFeatures, tokenRows, TAGS, type EntityTaggerModel, type Tag } from "../../src/intelligence/entity-tagger";
import { packWeights, unpackWeights } from "../../src/intelligence/linear-model";
import type { NerSentence } from "./corpora";
import { fitCalibration, shuffled } from "./logistic-regression";

export interface TaggerOptions {
  buckets: number;
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

/**
 * An averaged perceptron (Collins 2002) trained greedily as it decodes: each token's features
 * include the tags it predicted before it, and a wrong tag moves the weights at once.
 */
function averagedWeights(prepared: Prepared[], options: TaggerOptions, progress: (message: string) => void): Float64Array {
  const size = options.buckets * TAGS.length;
  const weights = new Float64Array(size);
  // Each weight's sum of updates times the step they came at: the average is w - sums / steps.
  const sums = new Float64Array(size);
  let step = 1;
  const scores = new Float64Array(TAGS.length);
  const weight = (index: number) => weights[index]!;
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    progress(`epoch ${epoch}/${options.epochs}`);
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
  }
  return weights.map((w, i) => w - sums[i]! / step);
}

/** The found PER, LOC and ORG entities of sentences, each with its mean tag probability and whether it is right. */
export function scoreEntities(prepared: { sentence: NerSentence; hints: ReturnType<typeof hintsOfText> }[], model: Pick<EntityTaggerModel, "buckets">, weight: (index: number) => number, temperature: number) {
  return prepared.flatMap(({ sentence, hints }) => {
    const { tags, probabilities } = decode(sentence.tokens, hints, model.buckets, weight, temperature);
    const gold = new Set(sentence.entities.map((e) => `${e.start}:${e.end}:${e.type}`));
    return entitySpans(tags, probabilities)
      .filter((span) => span.label !== "MISC")
      .map((span) => ({ probability: span.probability, right: gold.has(`${sentence.tokens[span.first]!.start}:${sentence.tokens[span.last]!.end}:${span.label}`) ? 1 : 0 }));
  });
}

/** Trains on `train`, then fits the temperature and the calibration of the shipped (packed) weights on `calibration`. */
export function trainEntityTagger(train: NerSentence[], calibration: NerSentence[], options: TaggerOptions, progress: (message: string) => void): EntityTaggerModel {
  const prepared = prepare(train, options.buckets, progress);
  const averaged = averagedWeights(prepared, options, progress);
  const kept: [number, number][] = [];
  averaged.forEach((w, index) => {
    if (Math.abs(w) >= options.keepAbove) kept.push([index, w]);
  });
  const packed = packWeights(kept);
  const table = unpackWeights(packed);
  const weight = (index: number) => table.get(index) ?? 0;
  progress("calibrating");
  const held = calibration.map((sentence) => ({ sentence, hints: hintsOfText(sentence.text, sentence.tokens) }));
  const fits = TEMPERATURES.map((temperature) => {
    const found = scoreEntities(held, options, weight, temperature);
    const calibrated = fitCalibration(
      found.map((f) => f.probability),
      found.map((f) => f.right),
    );
    const loss = -found.reduce((sum, f) => {
      const p = 1 / (1 + Math.exp(-(calibrated.a * f.probability + calibrated.b)));
      return sum + Math.log(Math.max(f.right ? p : 1 - p, 1e-12));
    }, 0);
    return { temperature, calibrated, loss };
  });
  const best = fits.reduce((x, y) => (y.loss < x.loss ? y : x));
  return { buckets: options.buckets, weights: packed, temperature: best.temperature, calibration: best.calibrated, source: options.source };
}
