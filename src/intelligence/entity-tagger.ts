/**
 * The named-entity tagger of the embedded engine: a greedy left-to-right averaged perceptron over
 * BIO tags (PER, LOC, ORG, and MISC, which is learned so that nationalities and titles are not
 * taken for places; I4 does not return it), trained by `npm run train` on openly licensed annotated
 * text (data/corpora/ner/). Features: the word, its shape and affixes, its neighbours, the tag
 * before it, compromise's lexicon (names, places, organisations), compromise's own reading of the
 * sentence, and a gazetteer of people's names. Feature and tag are hashed together into one table (FNV-1a).
 */
import { featureBucket, plattScaled, weightsOf, type Calibration, type PackedWeights } from "./linear-model";

export const TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"] as const;
export type Tag = (typeof TAGS)[number];
export type EntityLabel = "PER" | "LOC" | "ORG" | "MISC";

export interface EntityTaggerModel {
  buckets: number;
  /** Passes over the training data: the fewest whose held-out F1 was within 0.005 of the best. */
  epochs: number;
  /** Entity F1 of those passes on the tenth of each training set held out of the weights. */
  heldOutF1: number;
  weights: PackedWeights;
  /** Platt scaling of the log-odds of an entity's mean tag probability (a softmax of the tag scores at `temperature`). */
  temperature: number;
  calibration: Calibration;
  source: string;
}

/** The gazetteer of people's names: one word a line (first, middle or last names), and where it comes from. */
export interface PersonNames {
  names: string;
  source: string;
}

export interface Token {
  text: string;
  start: number;
  end: number;
}

/** What a token is according to compromise's lexicon and its reading of the sentence. */
export interface TokenHints {
  /** compromise's label for the span the token is in (people, places, organizations). */
  reading?: EntityLabel;
  /** The lexicon's class of the word, or of a phrase of up to three words the token is in. */
  lexicon?: string;
  /** compromise's part of speech for the word (its most telling tag: Person, ProperNoun, Verb…). */
  partOfSpeech?: string;
  /** The word, as written, is in the gazetteer of people's names (models/person-names.json). */
  personName?: boolean;
}

const ABBREVIATIONS = "Inc|Corp|Co|Ltd|Jr|Sr|St|Dr|Mr|Mrs|Ms|Prof|Gen|Gov|Sen|Rep|Mt|Ft|Bros|No|vs";
// Initials and abbreviations keep their full stop; "'s" is a token of its own, as in the training data.
const TOKEN = new RegExp(
  `(?:\\p{Lu}\\.){2,}|\\p{Lu}\\.(?=\\s)|(?:${ABBREVIATIONS})\\.|['’]s\\b|[\\p{L}\\p{M}\\p{N}]+(?:(?:[-&.]|['’](?=\\p{L}{2}))[\\p{L}\\p{M}\\p{N}]+)*|\\S`,
  "gu",
);

export function entityTokens(text: string, offset = 0): Token[] {
  return Array.from(text.matchAll(TOKEN), (m) => ({ text: m[0], start: offset + m.index, end: offset + m.index + m[0].length }));
}

/** Xxxx → Xx, 1999 → d, U.S. → X.X.: the token's letters, digits and marks, runs collapsed. */
function shape(word: string): string {
  return word
    .replace(/\p{Lu}/gu, "X")
    .replace(/[\p{Ll}\p{Lo}\p{M}]/gu, "x")
    .replace(/\p{N}/gu, "d")
    .replace(/(.)\1+/g, "$1");
}

const CAPITALIZED = /^\p{Lu}/u;
// Lower-case words that names of organisations and places run through ("Bank of America").
const NAME_JOINERS = new Set(["of", "and", "&", "the", "for", "de", "du", "la", "von", "van"]);

/**
 * For each token in a run of capitalised words (joiners allowed inside), the run's last word and
 * length: "Association" or "University" at its end says organisation from the run's first word on.
 */
function capitalizedRuns(tokens: readonly Token[]): ({ last: string; before: string; length: number } | undefined)[] {
  const runs: ({ last: string; before: string; length: number } | undefined)[] = tokens.map(() => undefined);
  for (let i = 0; i < tokens.length;) {
    if (!CAPITALIZED.test(tokens[i]!.text)) {
      i++;
      continue;
    }
    let end = i;
    for (let j = i + 1; j < tokens.length; j++) {
      if (CAPITALIZED.test(tokens[j]!.text)) end = j;
      else if (!NAME_JOINERS.has(tokens[j]!.text.toLowerCase())) break;
    }
    const run = { last: tokens[end]!.text.toLowerCase(), before: tokens[i - 1]?.text.toLowerCase() ?? "<s>", length: Math.min(end - i + 1, 5) };
    for (let j = i; j <= end; j++) runs[j] = run;
    i = end + 1;
  }
  return runs;
}

/** The features of every token that do not depend on the tags before it. */
export function staticFeatures(tokens: readonly Token[], hints: readonly TokenHints[]): string[][] {
  const lower = tokens.map((t) => t.text.toLowerCase());
  const shapes = tokens.map((t) => shape(t.text));
  const at = (values: readonly (string | undefined)[], i: number) => (i < 0 ? "<s>" : i >= values.length ? "</s>" : (values[i] ?? "-"));
  const readings = hints.map((h) => h.reading);
  const lexicon = hints.map((h) => h.lexicon);
  const parts = hints.map((h) => h.partOfSpeech);
  const runs = capitalizedRuns(tokens);
  return tokens.map((token, i) => {
    const word = lower[i]!;
    const features = [
      "b",
      `w=${word}`,
      `s=${shapes[i]}`,
      `p3=${word.slice(0, 3)}`,
      `x3=${word.slice(-3)}`,
      `x2=${word.slice(-2)}`,
      `x4=${word.slice(-4)}`,
      `w-1w+1=${at(lower, i - 1)}|${at(lower, i + 1)}`,
      `w-1=${at(lower, i - 1)}`,
      `w+1=${at(lower, i + 1)}`,
      `w-2=${at(lower, i - 2)}`,
      `w+2=${at(lower, i + 2)}`,
      `w-1w=${at(lower, i - 1)}|${word}`,
      `ww+1=${word}|${at(lower, i + 1)}`,
      `s-1=${at(shapes, i - 1)}|${shapes[i]}`,
      `s+1=${shapes[i]}|${at(shapes, i + 1)}`,
      `r=${at(readings, i)}`,
      `rw=${at(readings, i)}|${word}`,
      `gr=${at(lexicon, i)}|${at(readings, i)}`,
      `r-1=${at(readings, i - 1)}|${at(readings, i)}`,
      `r+1=${at(readings, i)}|${at(readings, i + 1)}`,
      `g=${at(lexicon, i)}`,
      `g-1=${at(lexicon, i - 1)}`,
      `g+1=${at(lexicon, i + 1)}`,
      `gs=${at(lexicon, i)}|${shapes[i]}`,
      `pos=${at(parts, i)}`,
      `pos-1=${at(parts, i - 1)}|${at(parts, i)}`,
      `pos+1=${at(parts, i)}|${at(parts, i + 1)}`,
    ];
    if (hints[i]!.personName)
      features.push(
        "name",
        `name|s=${shapes[i]}`,
        `name|w-1=${at(lower, i - 1)}`,
        `name|w+1=${at(lower, i + 1)}`,
        ...(i === 0 ? ["name|first"] : []),
      );
    if (hints[i - 1]?.personName) features.push(`name-1|s=${shapes[i]}`);
    if (hints[i + 1]?.personName) features.push(`name+1|s=${shapes[i]}`);
    const run = runs[i];
    if (run) features.push(`run-last=${run.last}`, `run-before=${run.before}`, `run-length=${run.length}`);
    if (i === 0) features.push(`first|s=${shapes[i]}`);
    if (token.text.length > 1 && token.text === token.text.toUpperCase() && /\p{Lu}/u.test(token.text)) features.push("caps");
    return features;
  });
}

/** The features that depend on the tags already chosen. */
function tagFeatures(previous: Tag, beforePrevious: Tag, word: string): string[] {
  return [`t-1=${previous}`, `t-2=${beforePrevious}|${previous}`, `t-1w=${previous}|${word.toLowerCase()}`];
}

/** The table index of a feature for each tag. */
export function featureRows(features: readonly string[], buckets: number): number[] {
  return features.map((f) => featureBucket(f, buckets) * TAGS.length);
}

/** I-X only after B-X or I-X. */
const allowedAfter = (previous: Tag, tag: Tag) => !tag.startsWith("I-") || previous.slice(2) === tag.slice(2);

export interface TaggedEntity {
  label: EntityLabel;
  /** Indexes of the first and last token. */
  first: number;
  last: number;
  /** The mean probability of its tokens' tags, before calibration. */
  probability: number;
}

/** A token's feature rows: its static ones and those of the two tags before it. */
export const tokenRows = (fixed: readonly number[], tags: readonly Tag[], i: number, word: string, buckets: number) => [
  ...fixed,
  ...featureRows(tagFeatures(tags[i - 1] ?? "O", tags[i - 2] ?? "O", word), buckets),
];

/** Fills `scores` with each tag's score over the rows and returns the index of the best tag allowed after `previous`. */
export function bestTag(rows: readonly number[], previous: Tag, weight: (index: number) => number, scores: Float64Array): number {
  scores.fill(0);
  for (const row of rows) for (let t = 0; t < TAGS.length; t++) scores[t]! += weight(row + t);
  let best = -1;
  for (let t = 0; t < TAGS.length; t++) if (allowedAfter(previous, TAGS[t]!) && (best < 0 || scores[t]! > scores[best]!)) best = t;
  return best;
}

/** Greedy decoding: each token's best allowed tag given the tags before it; `weight(index)` reads the table. */
export function decode(
  tokens: readonly Token[],
  hints: readonly TokenHints[],
  buckets: number,
  weight: (index: number) => number,
  temperature: number,
): { tags: Tag[]; probabilities: number[] } {
  const fixed = staticFeatures(tokens, hints).map((features) => featureRows(features, buckets));
  const tags: Tag[] = [];
  const probabilities: number[] = [];
  const scores = new Float64Array(TAGS.length);
  for (let i = 0; i < tokens.length; i++) {
    const previous = tags[i - 1] ?? "O";
    const best = bestTag(tokenRows(fixed[i]!, tags, i, tokens[i]!.text, buckets), previous, weight, scores);
    let total = 0;
    for (let t = 0; t < TAGS.length; t++) if (allowedAfter(previous, TAGS[t]!)) total += Math.exp((scores[t]! - scores[best]!) / temperature);
    tags.push(TAGS[best]!);
    probabilities.push(1 / total);
  }
  return { tags, probabilities };
}

// A title before a name is not part of it (CoNLL's convention, and UNER's).
const HONORIFIC = /^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady)\.?$/;
// A name does not end with a possessive, a joiner or punctuation ("University of" is a cut-off name).
const NOT_A_NAME_END = /^(?:['’]s|of|and|the|for|&|[^\p{L}\p{N}])$/iu;

/** The entities of a tag sequence (MISC among them), with their tokens' mean tag probability; a title is left out of a name. */
export function entitySpans(tokens: readonly Token[], tags: readonly Tag[], probabilities: readonly number[]): TaggedEntity[] {
  const spans: TaggedEntity[] = [];
  tags.forEach((tag, i) => {
    if (tag.startsWith("B-")) spans.push({ label: tag.slice(2) as EntityLabel, first: i, last: i, probability: probabilities[i]! });
    else if (tag.startsWith("I-") && spans.at(-1)?.last === i - 1) {
      const span = spans.at(-1)!;
      span.probability = (span.probability * (span.last - span.first + 1) + probabilities[i]!) / (span.last - span.first + 2);
      span.last = i;
    }
  });
  return spans.flatMap((span) => {
    const first = span.label === "PER" && HONORIFIC.test(tokens[span.first]!.text) ? span.first + 1 : span.first;
    let last = span.last;
    while (last > first && NOT_A_NAME_END.test(tokens[last]!.text)) last--;
    return first <= last && !(first === last && NOT_A_NAME_END.test(tokens[first]!.text)) ? [{ ...span, first, last }] : [];
  });
}

/** The log-odds of a probability, bounded: what Platt scaling reads. */
export const logOdds = (probability: number) => {
  const p = Math.min(Math.max(probability, 1e-4), 1 - 1e-4);
  return Math.log(p / (1 - p));
};

/** An entity's calibrated confidence from its mean tag probability. */
export const entityConfidence = (model: Pick<EntityTaggerModel, "calibration">, probability: number) =>
  plattScaled(model.calibration, logOdds(probability));

/** The entities of a sentence's tokens (MISC among them), with calibrated confidences. */
export function tagEntities(
  model: EntityTaggerModel,
  tokens: readonly Token[],
  hints: readonly TokenHints[],
): (TaggedEntity & { confidence: number })[] {
  const weights = weightsOf(model);
  const { tags, probabilities } = decode(tokens, hints, model.buckets, (index) => weights.weightOf(index), model.temperature);
  return entitySpans(tokens, tags, probabilities).map((span) => ({ ...span, confidence: entityConfidence(model, span.probability) }));
}

/** Whether the tagger learned a weight for the word itself (its `w=` feature) for any tag. */
export function taggerKnows(model: EntityTaggerModel, word: string): boolean {
  const weights = weightsOf(model);
  const row = featureBucket(`w=${word}`, model.buckets) * TAGS.length;
  return TAGS.some((_, tag) => weights.weightOf(row + tag) !== 0);
}
