import english from "sentiment/languages/en/index.js";
import { sentimentSentences, smsMessages, spamAssassinEmails, split, type LabelledText } from "./corpora";
import type { TrainingOptions } from "./logistic-regression";

/** What each linear model of group I learns from, and how (`npm run train`; `npm run eval` trains variants with the same options). */
export const LINEAR_MODELS = {
  spam: {
    examples: () => [...split(smsMessages()).train, ...split(spamAssassinEmails()).train],
    options: {
      features: { charNgrams: 4, wordPairs: true, lengthDomains: true, shape: true },
      buckets: 1 << 20,
      epochs: 12,
      l2: 1e-6,
      keepAbove: 0.15,
      minDocuments: 2,
      positive: "spam",
      source: "SMS Spam Collection (UCI, CC BY 4.0) and the SpamAssassin public corpus (Apache-2.0 package), 4/5 of each",
    },
  },
  sentiment: {
    examples: () => split(sentimentSentences()).train,
    // Each strong AFINN word as a sentence of its own: the model then knows words the reviews never used.
    lexicon: () =>
      Object.entries(english.labels)
        .filter(([word, valence]) => Math.abs(valence) >= 2 && /^[a-z]+$/.test(word))
        .map(([word, valence]) => ({ text: word, label: valence > 0 ? "positive" : "negative" })),
    options: {
      features: { charNgrams: 0, wordPairs: false, valences: true, contentWordsOnly: true },
      buckets: 1 << 20,
      epochs: 8,
      l2: 0.05,
      keepAbove: 0.05,
      minDocuments: 1,
      positive: "positive",
      source: "UCI Sentiment Labelled Sentences (Amazon, IMDb, Yelp; CC BY 4.0), 4/5 of it; AFINN-165 valences as features",
      valences: english.labels,
    },
  },
} satisfies Record<string, { examples: () => LabelledText[]; lexicon?: () => LabelledText[]; options: TrainingOptions }>;
