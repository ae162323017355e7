import { hintsOfText } from "../../../src/intelligence/entities";
import {
  bestTag,
  decode,
  entityConfidence,
  entitySpans,
  featureRows,
  logOdds,
  staticFeatures,
  TAGS,
  tokenRows,
  type EntityTaggerModel,
  type Tag,
  type TokenHints,
} from "../../../src/intelligence/entity-tagger";
import { packWeights, weightsOf } from "../../../src/intelligence/linear-model";
import { calibrationSplit, evenSample, nerSentenceOf, type NerSentence } from "./corpora";
import { fitCalibration, logLoss, shuffled } from "./logistic-regression";

export interface TaggerOptions {
  buckets: number;
  /** At most this many passes; the weights kept are those of the fewest passes near the best on the held-out sentences. */
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
/** A pass whose held-out F1 is this close to the best pass's is as good, and smaller. */
const NEAR_BEST_F1 = 0.005;

// compromise's hints of a sentence, read once however many taggers learn from it (one gazetteer a run).
const hintsCache = new WeakMap<NerSentence, TokenHints[]>();
function hintsOf(sentence: NerSentence, personNames: ReadonlySet<string>): TokenHints[] {
  let hints = hintsCache.get(sentence);
  if (!hints) hintsCache.set(sentence, (hints = hintsOfText(sentence.text, sentence.tokens, personNames)));
  return hints;
}

function prepare(sentences: NerSentence[], personNames: ReadonlySet<string>, buckets: number, progress: (message: string) => void): Prepared[] {
  return sentences.map((sentence, i) => {
    if (i % 500 === 0) progress(`compromise's hints ${i}/${sentences.length}`);
    const hints = hintsOf(sentence, personNames);
    const rows = staticFeatures(sentence.tokens, hints).map((features) => featureRows(features, buckets));
    return { sentence, rows, gold: sentence.tokens.map((t) => t.tag as Tag) };
  });
}

type Held = { sentence: NerSentence; hints: TokenHints[] }[];

/** Entity F1 (exact span and type) of weights on held-out sentences. */
function heldOutF1(held: Held, buckets: number, weight: (index: number) => number): number {
  const found = scoreEntities(held, { buckets }, weight, 1);
  const gold = held.reduce((sum, { sentence }) => sum + sentence.entities.length, 0);
  return (2 * found.filter((f) => f.right).length) / Math.max(found.length + gold, 1);
}

/**
 * An averaged perceptron (Collins 2002) trained greedily as it decodes: each token's features
 * include the tags it predicted before it, and a wrong tag moves the weights at once. After each
 * pass the averaged weights are scored on the held-out sentences.
 */
function averagedWeights(
  prepared: Prepared[],
  held: Held,
  options: TaggerOptions,
  progress: (message: string) => void,
): { weights: Float32Array; epoch: number; f1: number } {
  const size = options.buckets * TAGS.length;
  const weights = new Float64Array(size);
  // Each weight's sum of updates times the step they came at: the average is w - sums / steps.
  const sums = new Float64Array(size);
  let step = 1;
  const scores = new Float64Array(TAGS.length);
  const weight = (index: number) => weights[index]!;
  const passes: { weights: Float32Array; epoch: number; f1: number }[] = [];
  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    progress(`epoch ${epoch}/${options.epochs}${passes.length ? ` (held-out F1 ${passes.at(-1)!.f1.toFixed(3)})` : ""}`);
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
    const averaged = Float32Array.from(weights, (w, i) => w - sums[i]! / step);
    passes.push({ weights: averaged, epoch, f1: heldOutF1(held, options.buckets, (index) => averaged[index]!) });
  }
  // Held-out F1 flattens after a few passes while the weights keep growing in number: the fewest passes near the best.
  const top = Math.max(...passes.map((p) => p.f1));
  return passes.find((p) => p.f1 >= top - NEAR_BEST_F1)!;
}

/** The found PER, LOC and ORG entities of sentences, each with its mean tag probability and whether it is right. */
function scoreEntities(prepared: Held, model: Pick<EntityTaggerModel, "buckets">, weight: (index: number) => number, temperature: number) {
  return prepared.flatMap(({ sentence, hints }) => {
    const { tags, probabilities } = decode(sentence.tokens, hints, model.buckets, weight, temperature);
    const gold = new Set(sentence.entities.map((e) => `${e.start}:${e.end}:${e.type}`));
    return entitySpans(sentence.tokens, tags, probabilities)
      .filter((span) => span.label !== "MISC")
      .map((span) => ({
        ...span,
        right: gold.has(`${sentence.tokens[span.first]!.start}:${sentence.tokens[span.last]!.end}:${span.label}`) ? 1 : 0,
      }));
  });
}

/**
 * The temperature and Platt scaling (of the log-odds) that make entity confidences likeliest over
 * the sentences each tagger is scored on, pooled.
 */
function fitTaggerCalibration(
  scored: { model: Pick<EntityTaggerModel, "buckets" | "weights">; held: Held }[],
): Pick<EntityTaggerModel, "temperature" | "calibration"> {
  const weights = scored.map(({ model }) => {
    const table = weightsOf(model);
    return (index: number) => table.weightOf(index);
  });
  const fits = TEMPERATURES.map((temperature) => {
    const found = scored.flatMap(({ model, held }, i) => scoreEntities(held, model, weights[i]!, temperature));
    const outcomes = found.map((f) => f.right);
    const calibration = fitCalibration(
      found.map((f) => logOdds(f.probability)),
      outcomes,
    );
    const loss = logLoss(
      found.map((f) => entityConfidence({ calibration }, f.probability)),
      outcomes,
    );
    return { temperature, calibration, loss };
  });
  const { temperature, calibration } = fits.reduce((x, y) => (y.loss < x.loss ? y : x));
  return { temperature, calibration };
}

const withHints = (sentences: NerSentence[], personNames: ReadonlySet<string>): Held =>
  sentences.map((sentence) => ({ sentence, hints: hintsOf(sentence, personNames) }));

/** The averaged, pruned and packed weights learned from `train`, the passes chosen on `held`. */
function learnWeights(
  train: NerSentence[],
  held: NerSentence[],
  personNames: ReadonlySet<string>,
  options: TaggerOptions,
  progress: (message: string) => void,
) {
  const {
    weights: averaged,
    epoch,
    f1,
  } = averagedWeights(prepare(train, personNames, options.buckets, progress), withHints(held, personNames), options, progress);
  const kept: [number, number][] = [];
  averaged.forEach((w, index) => {
    if (Math.abs(w) >= options.keepAbove) kept.push([index, w]);
  });
  return { buckets: options.buckets, weights: packWeights(kept), epochs: epoch, heldOutF1: Number(f1.toFixed(4)) };
}

/**
 * The sentence with each person's name of two or more words cut to its last word ("Steven Seagal
 * said" → "Seagal said"), as news names a person after the first mention; undefined when it has none.
 */
function withSurnames(sentence: NerSentence): NerSentence | undefined {
  const tagged: { text: string; tag: string }[] = [];
  const tokens = sentence.tokens;
  for (let i = 0; i < tokens.length; i++) {
    let last = i;
    if (tokens[i]!.tag === "B-PER") while (tokens[last + 1]?.tag === "I-PER") last++;
    // A surname of three letters or more, written as one ("Seagal", not "Jr." or "MAX").
    if (last > i && /^\p{Lu}\p{Ll}{2,}$/u.test(tokens[last]!.text)) {
      tagged.push({ text: tokens[last]!.text, tag: "B-PER" });
      i = last;
    } else tagged.push(tokens[i]!);
  }
  return tagged.length < tokens.length ? nerSentenceOf(tagged, sentence.domain) : undefined;
}

/** Annotated sentences by corpus, which corpora stand for the text the tagger is sent, and the gazetteer. */
export interface TaggerCorpora {
  corpora: Record<string, NerSentence[]>;
  /** Their training sentences also teach second mentions: each again with its people named by surname (withSurnames). */
  edited: string[];
  /** Each is left out of a tagger of its own, and that tagger's entities on it fit the confidences. */
  unseen: string[];
  /** People's names: the tokens written so are marked for the tagger (the Worker ships the same list). */
  personNames: ReadonlySet<string>;
}

/**
 * Learns the tagger from every corpus (nine tenths of each; the passes chosen on the tenth left),
 * then calibrates its confidences on text it has not seen: for each corpus in `unseen`, a tagger
 * learned without it tags it, and the pooled entities fit the temperature and Platt scaling.
 * Confidences fitted on held-out sentences of the training corpora were too high on other text.
 */
export function trainEntityTagger(
  { corpora, edited, unseen, personNames }: TaggerCorpora,
  options: TaggerOptions,
  progress: (message: string) => void,
): EntityTaggerModel {
  const splits = Object.fromEntries(
    Object.entries(corpora).map(([name, sentences]) => {
      const { fit, calibration } = calibrationSplit(sentences);
      const surnamed = edited.includes(name) ? fit.map(withSurnames).filter((sentence) => sentence !== undefined) : [];
      return [name, { fit: [...fit, ...surnamed], calibration }];
    }),
  );
  const pooled = (names: string[], part: "fit" | "calibration") => names.flatMap((name) => splits[name]![part]);
  const names = Object.keys(corpora);
  const model = learnWeights(pooled(names, "fit"), pooled(names, "calibration"), personNames, options, (message) =>
    progress(`all corpora: ${message}`),
  );
  // Each unseen corpus weighs the same in the fit, whatever its size: an even sample of each, as many sentences as the smallest has.
  const share = Math.min(...unseen.map((name) => corpora[name]!.length));
  const scored = unseen.map((left) => {
    const others = names.filter((name) => name !== left);
    const without = learnWeights(pooled(others, "fit"), pooled(others, "calibration"), personNames, options, (message) =>
      progress(`without ${left}: ${message}`),
    );
    return { model: without, held: withHints(evenSample(corpora[left]!, share), personNames) };
  });
  progress("calibrating");
  return { ...model, ...fitTaggerCalibration(scored), source: options.source };
}
