import { stem, words } from "./text";
import { shares } from "./scores";

/** A multinomial naive Bayes model as trained by `npm run train` (scripts/model/train-classifiers.ts). */
export interface NaiveBayesModel {
  labels: string[];
  /** Training documents per label: the priors. */
  documents: Record<string, number>;
  /** Token counts per label, over the kept vocabulary. */
  counts: Record<string, Record<string, number>>;
  /** Total tokens per label. */
  totals: Record<string, number>;
  vocabularySize: number;
  /** Where the training data came from, for the docs and the response. */
  source: string;
}

/** The features of a text: lower-case words, light stems, digits folded into one token. */
export const features = (text: string) => words(text).map((w) => (/^\d+([.,]\d+)?$/.test(w) ? "<num>" : stem(w)));

const SMOOTHING = 1;

function logLikelihood(model: NaiveBayesModel, label: string, token: string) {
  return Math.log(((model.counts[label]![token] ?? 0) + SMOOTHING) / (model.totals[label]! + SMOOTHING * model.vocabularySize));
}

/**
 * Posterior probabilities of the labels (restricted to `labels` when given). Tokens outside the
 * vocabulary carry no evidence and are skipped; with none left the priors answer.
 */
export function classifyText(model: NaiveBayesModel, text: string, labels: readonly string[] = model.labels): Record<string, number> {
  const known = features(text).filter((t) => model.labels.some((l) => model.counts[l]![t] !== undefined));
  const totalDocuments = labels.reduce((sum, l) => sum + model.documents[l]!, 0);
  const logPosterior = labels.map((label) =>
    known.reduce((sum, t) => sum + logLikelihood(model, label, t), Math.log(model.documents[label]! / totalDocuments)),
  );
  const top = Math.max(...logPosterior);
  return shares(
    labels,
    logPosterior.map((lp) => Math.exp(lp - top)),
  );
}
