import { fromBase64, toBase64 } from "../platform/crypto";
import { STOP_WORDS, words } from "./text";

/**
 * A binary logistic regression over hashed word and character n-grams, as trained by
 * `npm run train` (scripts/model/train-classifiers.ts). The trainer and the Worker share `textFeatures`,
 * so that a text is seen the same way by both.
 */
export interface LinearModel {
  /** The two labels: `labels[1]` is the one the probability is of. */
  labels: [string, string];
  /** Feature hashing space: a feature's bucket is its FNV-1a hash modulo this. */
  buckets: number;
  /** Which feature families the model was trained with. */
  features: FeatureOptions;
  bias: number;
  /** The weights kept (the others were too small to matter), packed by `packWeights`. */
  weights: PackedWeights;
  /** Platt scaling fitted on held-out data, p = σ(a·score + b), for short texts and for long ones. */
  calibration: Record<TextLength, Calibration>;
  /** Given, the raw score is shrunk by the text's length before the scaling (`lengthDoubt`). */
  lengthDoubt?: LengthDoubt;
  /** Where the training data came from, for the docs and the eval. */
  source: string;
}

export interface Calibration {
  a: number;
  b: number;
}

export type TextLength = "short" | "long";

/**
 * The raw score's distance from `center` (where the model is undecided) divided by (words + 1)^power, words counted up
 * to `cap`: a linear model adds a weight per word, so a longer sentence sums more of them and is surer than it is right.
 * Fitted with the scaling on sources the weights never saw; the decision itself stays where it was.
 */
export interface LengthDoubt {
  power: number;
  cap: number;
  center: number;
}

export interface FeatureOptions {
  /** Character n-grams of each word (with its boundaries), from 3 to this length; 0 for none. */
  charNgrams: number;
  /** Word pairs beside single words. */
  wordPairs: boolean;
  /**
   * Each feature also in a copy of its own for short texts (messages, posts) or long ones (emails,
   * reviews), so that one model learns what is common to both and what differs (Daumé, 2007).
   */
  lengthDomains?: boolean;
  /** The message's shape: its length, shouting in capitals, runs of exclamation marks. */
  shape?: boolean;
  /** Leave out function words ("was", "the"), which carry a corpus's habits rather than the text's meaning. */
  contentWordsOnly?: boolean;
  /** Word valences (AFINN) as features: the sign and strength of each word, flipped after a negator. */
  valences?: boolean;
}

/** Word → valence, −5..5; given when the model was trained with `valences`. */
export type Valences = Record<string, number>;

const FEATURE_TEXT_MAX = 1_500;

/** Up to this many words a text is a short message. */
const SHORT_TEXT_WORDS = 60;
const lengthClass = (wordsRead: number): TextLength => (wordsRead <= SHORT_TEXT_WORDS ? "short" : "long");
/** The words the features read: those of the text's first FEATURE_TEXT_MAX characters (text.ts's wordCount counts them all). */
export const featureWordCount = (text: string) => words(text.slice(0, FEATURE_TEXT_MAX)).length;
export const textLength = (text: string): TextLength => lengthClass(featureWordCount(text));

/** A raw score shrunk by the text's length, as the model's scaling expects it (unchanged without `lengthDoubt`). */
export const lengthShrunk = (doubt: LengthDoubt | undefined, score: number, count: number) =>
  doubt ? doubt.center + (score - doubt.center) * (Math.min(count, doubt.cap) + 1) ** -doubt.power : score;

const NEGATORS = new Set(["not", "no", "never", "nothing", "nobody", "none", "neither", "nor", "without", "hardly", "barely", "cannot"]);
const NEGATION_ENDS = /[.,;:!?]/;

/** The placeholders a message shows instead of its specifics: they are evidence, their values are not. */
function normalized(text: string): string {
  return text
    .replace(/https?:\/\/\S+|www\.\S+/gi, " urltoken ")
    .replace(/(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+/g, " emailtoken ")
    .replace(/(?:\+?\d[\d\s-]{8,}\d)/g, " phonetoken ")
    .replace(/[$€£]\s?\d[\d,.]*/g, " moneytoken ")
    .replace(/&lt;#&gt;|&lt;decimal&gt;|&lt;time&gt;|&lt;url&gt;|&lt;email&gt;/gi, " placeholdertoken ")
    .replace(/\d+/g, (digits) => (digits.length >= 4 ? " longnumtoken " : " numtoken "));
}

/**
 * The text's features: words (after a negator, marked as negated until the next punctuation),
 * word pairs, character n-grams, lexicon valences, and the shape of the message.
 */
export function textFeatures(full: string, options: FeatureOptions, valences?: Valences): string[] {
  const out: string[] = [];
  // The opening of a long text decides as well as all of it, at a bounded cost.
  const text = full.slice(0, FEATURE_TEXT_MAX);
  const plain = normalized(text);
  // Negation scope needs the punctuation that words() drops: walk the clauses.
  const tokens: string[] = [];
  let balance = 0;
  for (const clause of plain.split(NEGATION_ENDS)) {
    let negated = false;
    for (const word of words(clause)) {
      if (options.contentWordsOnly && STOP_WORDS.has(word) && !NEGATORS.has(word) && !word.endsWith("n't")) continue;
      const token = negated ? `not_${word}` : word;
      tokens.push(token);
      const valence = options.valences ? valences?.[word] : undefined;
      if (valence) {
        const strength = Math.abs(valence);
        const sign = valence > 0 !== negated ? 1 : -1;
        out.push(`l:${sign > 0 ? "+" : "-"}${Math.min(strength, 5)}`);
        balance += sign * strength;
      }
      if (NEGATORS.has(word) || word.endsWith("n't")) negated = true;
    }
  }
  for (const token of tokens) out.push(`w:${token}`);
  if (options.wordPairs) for (let i = 1; i < tokens.length; i++) out.push(`p:${tokens[i - 1]} ${tokens[i]}`);
  if (options.charNgrams >= 3) {
    for (const word of words(plain)) {
      const padded = `<${word}>`;
      for (let n = 3; n <= options.charNgrams; n++) for (let i = 0; i + n <= padded.length; i++) out.push(`c:${padded.slice(i, i + n)}`);
    }
  }
  // No lexicon word is no evidence, not a feature: a plain statement stays at the model's even chance.
  if (options.valences && balance !== 0) out.push(`l:balance${balance > 2 ? "++" : balance > 0 ? "+" : balance < -2 ? "--" : "-"}`);
  const length = words(text).length;
  if (options.shape) {
    const letters = text.replace(/[^A-Za-z]/g, "");
    const capitals = letters.replace(/[^A-Z]/g, "").length;
    if (letters.length >= 6 && capitals / letters.length > 0.5) out.push("s:shouting");
    if (/!{2,}/.test(text)) out.push("s:exclamations");
    out.push(`s:length${length < 5 ? "<5" : length < 15 ? "<15" : length < 40 ? "<40" : "40+"}`);
  }
  if (!options.lengthDomains) return out;
  const domain = lengthClass(length);
  return [...out, ...out.map((feature) => `${domain}|${feature}`)];
}

/** FNV-1a, 32 bits: stable across the trainer (Node) and the Worker. */
export function featureBucket(feature: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % buckets;
}

/** The buckets of a text's features, each once (presence works better than counts on short texts). */
export function hashedFeatures(text: string, model: Pick<LinearModel, "buckets" | "features">, valences?: Valences): number[] {
  return [...new Set(textFeatures(text, model.features, valences).map((f) => featureBucket(f, model.buckets)))];
}

/**
 * Weights as two base64 strings: the buckets, ascending, as variable-length gaps; the weights as
 * 16-bit multiples of `scale`: a third of the size of JSON pairs, and the same model to 1/32767 of its largest weight.
 */
export interface PackedWeights {
  count: number;
  scale: number;
  gaps: string;
  values: string;
}

export function packWeights(weights: [number, number][]): PackedWeights {
  const sorted = [...weights].sort((a, b) => a[0] - b[0]);
  const scale = sorted.reduce((top, [, w]) => Math.max(top, Math.abs(w)), 1e-9) / 32767;
  const gaps: number[] = [];
  let previous = 0;
  for (const [bucket] of sorted) {
    for (let gap = bucket - previous; ; gap >>>= 7) {
      if (gap < 0x80) {
        gaps.push(gap);
        break;
      }
      gaps.push((gap & 0x7f) | 0x80);
    }
    previous = bucket;
  }
  const values = Int16Array.from(sorted, ([, w]) => Math.round(w / scale));
  return {
    count: sorted.length,
    scale: Number(scale.toPrecision(8)),
    gaps: toBase64(Uint8Array.from(gaps)),
    values: toBase64(new Uint8Array(values.buffer)),
  };
}

/**
 * A model's weights by bucket, unpacked once per isolate into an open-addressing table of typed
 * arrays: the garbage collector does not walk their contents, where Maps of the models' 320,000
 * weights (each a heap number) lengthened every full collection of the isolate.
 */
export class WeightTable {
  /** Bucket + 1 at its slot; 0 marks an empty slot. */
  readonly #keys: Uint32Array;
  readonly #values: Int16Array;
  readonly #scale: number;
  readonly #shift: number;

  constructor(packed: PackedWeights) {
    const gaps = fromBase64(packed.gaps);
    const values = new Int16Array(fromBase64(packed.values).buffer);
    // At most half full, so that a lookup probes a slot or two.
    const bits = Math.max(4, Math.ceil(Math.log2(packed.count * 2 + 1)));
    this.#keys = new Uint32Array(1 << bits);
    this.#values = new Int16Array(1 << bits);
    this.#scale = packed.scale;
    this.#shift = 32 - bits;
    let bucket = 0;
    let at = 0;
    for (let i = 0; i < packed.count; i++) {
      let gap = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = gaps[at++]!;
        gap |= (byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
      bucket += gap;
      const slot = this.#slotOf(bucket);
      this.#keys[slot] = bucket + 1;
      this.#values[slot] = values[i]!;
    }
  }

  /** The slot holding `bucket`, or the empty one where it would go. */
  #slotOf(bucket: number): number {
    const mask = this.#keys.length - 1;
    let slot = Math.imul(bucket + 1, 0x9e3779b1) >>> this.#shift;
    while (this.#keys[slot] !== 0 && this.#keys[slot] !== bucket + 1) slot = (slot + 1) & mask;
    return slot;
  }

  /** The bucket's weight; 0 for a bucket the model has none for. */
  weightOf(bucket: number): number {
    const slot = this.#slotOf(bucket);
    return this.#keys[slot] === 0 ? 0 : this.#values[slot]! * this.#scale;
  }
}

/** Platt scaling: the calibrated probability σ(a·x + b) of a raw score x. */
export const plattScaled = ({ a, b }: Calibration, x: number) => 1 / (1 + Math.exp(-(a * x + b)));

const weightTables = new WeakMap<{ weights: PackedWeights }, WeightTable>();
/** A model's weights by bucket (or table index), unpacked once per isolate. */
export function weightsOf(model: { weights: PackedWeights }): WeightTable {
  let table = weightTables.get(model);
  if (!table) weightTables.set(model, (table = new WeightTable(model.weights)));
  return table;
}

const LENGTH_CLASS_WORD = /^(?:(?:short|long)\|)?w:(.*)$/;

/**
 * The raw score of a text (before calibration), the words that moved it, how many features the
 * model knew, and `coverage`: the share of the text's distinct words the model has a weight for.
 */
export function scoreText(
  model: LinearModel,
  text: string,
  valences?: Valences,
): { score: number; contributions: Map<string, number>; evidence: number; coverage: number } {
  const table = weightsOf(model);
  const contributions = new Map<string, number>();
  let score = model.bias;
  let evidence = 0;
  let wordFeatures = 0;
  let knownWords = 0;
  const seen = new Set<number>();
  for (const feature of textFeatures(text, model.features, valences)) {
    const bucket = featureBucket(feature, model.buckets);
    if (seen.has(bucket)) continue;
    seen.add(bucket);
    const weight = table.weightOf(bucket);
    score += weight;
    if (weight !== 0) evidence++;
    if (feature.startsWith("w:")) {
      wordFeatures++;
      if (weight !== 0) knownWords++;
    }
    // A word's weight is its shared copy and its copy for the text's length class together.
    const word = LENGTH_CLASS_WORD.exec(feature)?.[1];
    if (weight !== 0 && word !== undefined) contributions.set(word, (contributions.get(word) ?? 0) + weight);
  }
  return { score, contributions, evidence, coverage: wordFeatures ? knownWords / wordFeatures : 0 };
}

/** The calibrated probability of `labels[1]` for a text of the given raw score. */
export function probabilityOf(model: LinearModel, score: number, text: string): number {
  const count = featureWordCount(text);
  return plattScaled(model.calibration[lengthClass(count)], lengthShrunk(model.lengthDoubt, score, count));
}
