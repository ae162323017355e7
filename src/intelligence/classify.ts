import type { z } from "@hono/zod-openapi";
import { looksFamiliar } from "./familiarity";
import { featureBucket, probabilityOf, scoreText, weightsOf, type LinearModel } from "./linear-model";
import { classifyText, features, type NaiveBayesModel } from "./naive-bayes";
import type { classifySchema } from "./schema";
import { STOP_WORDS } from "./text";
import { shares, topScore } from "./scores";
import { CLASSIFIERS, type Classifier } from "./vocabulary";

/** A trained classifier: a calibrated logistic regression (spam, sentiment) or naive Bayes (topic, intent). */
type TrainedModel = { kind: "linear"; model: LinearModel } | { kind: "naive-bayes"; model: NaiveBayesModel };

// Each model is loaded when a request first needs it: the spam model alone is about half a megabyte.
const LOADERS: Record<Classifier, () => Promise<TrainedModel>> = {
  spam: async () => ({ kind: "linear", model: (await import("./models/spam.json")).default as LinearModel }),
  sentiment: async () => ({ kind: "linear", model: (await import("./sentiment")).SENTIMENT_MODEL }),
  topic: async () => ({ kind: "naive-bayes", model: (await import("./models/topic.json")).default }),
  intent: async () => ({ kind: "naive-bayes", model: (await import("./models/intent.json")).default }),
};

const loaded = new Map<Classifier, Promise<TrainedModel>>();
const trainedModel = (classifier: Classifier) => {
  let model = loaded.get(classifier);
  if (!model) loaded.set(classifier, (model = LOADERS[classifier]()));
  return model;
};

const labelsOf = (trained: TrainedModel): readonly string[] => trained.model.labels;

/** What a trained model made of a text: each label's probability, and for a linear model the words that moved it. */
interface LabelProbabilities {
  scores: Record<string, number>;
  contributions?: Map<string, number>;
  /** The share of the text's words the linear model has weights for. */
  coverage?: number;
}

/** The probability of each label (of `labels` only, when given, renormalised). */
async function labelProbabilities(trained: TrainedModel, text: string, labels?: readonly string[]): Promise<LabelProbabilities> {
  if (trained.kind === "naive-bayes") return { scores: classifyText(trained.model, text, labels) };
  const { model } = trained;
  const valences = model.features.valences ? (await import("./sentiment")).VALENCES : undefined;
  const { score, contributions, coverage } = scoreText(model, text, valences);
  const p = probabilityOf(model, score, text);
  const all: Record<string, number> = { [model.labels[0]]: 1 - p, [model.labels[1]]: p };
  const kept = labels ?? model.labels;
  return {
    scores: shares(
      kept,
      kept.map((l) => all[l]!),
    ),
    contributions,
    coverage,
  };
}

/** Whether a word of a text, seen alone, is evidence for `label` more than for the others. */
function leansTowards(trained: TrainedModel, token: string, label: string): boolean {
  if (trained.kind === "linear") {
    const weight = weightsOf(trained.model).weightOf(featureBucket(`w:${token}`, trained.model.buckets));
    return label === trained.model.labels[1] ? weight > 0 : weight < 0;
  }
  const { model } = trained;
  const counts = model.counts[label]![token] ?? 0;
  const elsewhere = model.labels.filter((l) => l !== label).reduce((sum, l) => sum + (model.counts[l]![token] ?? 0), 0);
  return counts > elsewhere;
}

/** What a classifier found; the route adds which classifier, the language and the engine. */
export type Classification = Omit<z.output<typeof classifySchema>, "classifier" | "language" | "engine">;

// Cues a reader of spam knows, beyond the words the model learned.
const SPAM_PATTERNS: [RegExp, string][] = [
  [/https?:\/\/|www\./i, "contains a link"],
  [/\b[A-Z]{4,}\b(?:\s+\b[A-Z]{2,}\b){2,}/, "shouting in capitals"],
  [/!{2,}/, "repeated exclamation marks"],
  // A run of digits is tried from its first digit only: linear on a text of digits.
  [/[$€£]\s?\d|(?<!\d)\d+\s?%\s?off\b/i, "money or discount"],
  [/\b(?:act now|limited time|urgent|expires?|today only|don't miss)\b/i, "urgency"],
  [/\b(?:free|winner|won|prize|guaranteed|no cost|risk[- ]free)\b/i, "too good to be true"],
  [/\b(?:click|call now|reply|unsubscribe|verify your account)\b/i, "call to action"],
];

/** A word weighing more than this towards spam is named among the indicators. */
const SPAM_WORD_WEIGHT = 0.5;

/** The cues found, and for spam the words (of the spam model's scoring pass) that weighed most. */
function spamIndicators(text: string, isSpam: boolean, contributions: Map<string, number>): string[] {
  const words = isSpam
    ? [...contributions.entries()]
        // Placeholders (a link, an amount) are reported by the patterns above; function words tell a reader nothing.
        .filter(([word, weight]) => weight > SPAM_WORD_WEIGHT && !word.endsWith("token") && !STOP_WORDS.has(word))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([word]) => `word: ${word}`)
    : [];
  return [...SPAM_PATTERNS.filter(([pattern]) => pattern.test(text)).map(([, cue]) => cue), ...words];
}

/**
 * Custom categories the model does not know are ranked by how much of each category's
 * vocabulary (its own words, plus a known class's learned words when a name matches one) the
 * text uses, turned into shares by a softmax. A category no word of the text touches gets the
 * smallest share; with no evidence at all the shares are equal.
 */
async function similarityScores(text: string, categories: readonly string[]): Promise<Record<string, number>> {
  const textTokens = features(text).filter((t) => !STOP_WORDS.has(t));
  const models = await Promise.all(CLASSIFIERS.map(trainedModel));
  const evidence = categories.map((category) => {
    const own = new Set(features(category));
    const label = category.toLowerCase();
    const learned = models.find((m) => labelsOf(m).includes(label));
    return textTokens.reduce((sum, token) => sum + (own.has(token) ? 3 : learned && leansTowards(learned, token, label) ? 1 : 0), 0);
  });
  return shares(
    categories,
    evidence.map((e) => Math.exp(e)),
  );
}

/**
 * One of the trained classifiers; with `categories`, those labels only: the model's own when
 * they are all labels it knows, else similarity to the category names.
 */
export async function classify(text: string, classifier: Classifier, categories?: readonly string[]): Promise<Classification> {
  const trained = await trainedModel(classifier);
  const known = categories?.every((c) => labelsOf(trained).includes(c.toLowerCase()));
  const method = categories && !known ? "similarity" : trained.kind === "linear" ? "logistic-regression" : "naive-bayes";
  const { scores, contributions, coverage } =
    method === "similarity"
      ? { scores: await similarityScores(text, categories!), contributions: undefined, coverage: undefined }
      : await labelProbabilities(
          trained,
          text,
          categories?.map((c) => c.toLowerCase()),
        );
  const [classification, confidence] = topScore(scores);
  const result: Classification = { classification, confidence, scores, method };
  // Spam and sentiment know what their training texts looked like; topic and intent learn from a few sentences only.
  if ((classifier === "spam" || classifier === "sentiment") && coverage !== undefined) result.reliable = looksFamiliar(classifier, text, coverage);
  if (classifier === "spam" && trained.kind === "linear") {
    result.spamIndicators = spamIndicators(text, classification === "spam", contributions ?? scoreText(trained.model, text).contributions);
  }
  return result;
}
