import intentModel from "./models/intent.json";
import sentimentModel from "./models/sentiment.json";
import spamModel from "./models/spam.json";
import topicModel from "./models/topic.json";
import { classifyText, features, strongestEvidence, type NaiveBayesModel } from "./naive-bayes";
import { STOP_WORDS } from "./text";
import { shares, topScore } from "./scores";
import { CLASSIFIERS, type Classifier } from "./vocabulary";


export const MODELS: Record<Classifier, NaiveBayesModel> = {
  spam: spamModel,
  sentiment: sentimentModel,
  topic: topicModel,
  intent: intentModel,
};

export interface Classification {
  classification: string;
  confidence: number;
  scores: Record<string, number>;
  /** How the labels were scored: the trained model, or similarity to custom category names. */
  method: "naive-bayes" | "similarity" | "embeddings" | "workers-ai-model";
  spamIndicators?: string[];
}

// Cues a reader of spam knows, beyond the words the model learned.
const SPAM_PATTERNS: [RegExp, string][] = [
  [/https?:\/\/|www\./i, "contains a link"],
  [/\b[A-Z]{4,}\b(?:\s+\b[A-Z]{2,}\b){2,}/, "shouting in capitals"],
  [/!{2,}/, "repeated exclamation marks"],
  [/[$€£]\s?\d|\d+\s?%\s?off\b/i, "money or discount"],
  [/\b(?:act now|limited time|urgent|expires?|today only|don't miss)\b/i, "urgency"],
  [/\b(?:free|winner|won|prize|guaranteed|no cost|risk[- ]free)\b/i, "too good to be true"],
  [/\b(?:click|call now|reply|unsubscribe|verify your account)\b/i, "call to action"],
];

function spamIndicators(text: string, isSpam: boolean): string[] {
  const words = isSpam ? strongestEvidence(MODELS.spam, text, "spam", 5).map((w) => `word: ${w}`) : [];
  return [...SPAM_PATTERNS.filter(([pattern]) => pattern.test(text)).map(([, cue]) => cue), ...words];
}

/**
 * Custom categories the model does not know are ranked by how much of each category's
 * vocabulary (its own words, plus a known class's learned words when a name matches one) the
 * text uses, turned into shares by a softmax. A category no word of the text touches gets the
 * smallest share; with no evidence at all the shares are equal.
 */
function similarityScores(text: string, categories: readonly string[]): Record<string, number> {
  const textTokens = features(text).filter((t) => !STOP_WORDS.has(t));
  const evidence = categories.map((category) => {
    const own = new Set(features(category));
    const learned = CLASSIFIERS.map((c) => MODELS[c]).find((m) => m.labels.includes(category.toLowerCase()));
    return textTokens.reduce((sum, token) => {
      if (own.has(token)) return sum + 3;
      if (!learned) return sum;
      const label = category.toLowerCase();
      const counts = learned.counts[label]![token] ?? 0;
      const elsewhere = learned.labels.filter((l) => l !== label).reduce((s, l) => s + (learned.counts[l]![token] ?? 0), 0);
      return sum + (counts > elsewhere ? 1 : 0);
    }, 0);
  });
  return shares(categories, evidence.map((e) => Math.exp(e)));
}

/**
 * One of the trained classifiers; with `categories`, those labels only: the model's own when
 * they are all labels it knows, else similarity to the category names.
 */
export function classify(text: string, classifier: Classifier, categories?: readonly string[]): Classification {
  const model = MODELS[classifier];
  const known = categories?.every((c) => model.labels.includes(c.toLowerCase()));
  const method = !categories || known ? "naive-bayes" : "similarity";
  const scores = method === "naive-bayes" ? classifyText(model, text, categories?.map((c) => c.toLowerCase())) : similarityScores(text, categories!);
  const [classification, confidence] = topScore(scores);
  const result: Classification = { classification, confidence, scores, method };
  if (classifier === "spam") result.spamIndicators = spamIndicators(text, classification === "spam");
  return result;
}
