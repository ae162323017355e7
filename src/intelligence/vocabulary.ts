/**
 * The names group I's parameters and answers use. They live apart from the engines, so that the
 * routes and schemas can be built without loading any engine (see `engines.ts`).
 */
export const CLASSIFIERS = ["spam", "sentiment", "topic", "intent"] as const;
export type Classifier = (typeof CLASSIFIERS)[number];

/** The labels each trained classifier answers with (the models' own, checked by a test). */
export const CLASSIFIER_LABELS: Record<Classifier, readonly string[]> = {
  spam: ["ham", "spam"],
  sentiment: ["negative", "positive"],
  topic: ["business", "entertainment", "health", "politics", "sports", "technology"],
  intent: ["cancellation", "complaint", "feedback", "greeting", "purchase", "question", "refund", "support"],
};

export const ENTITY_TYPES = ["PERSON", "ORGANIZATION", "LOCATION", "DATE", "MONEY", "PERCENT", "EMAIL", "PHONE"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Found by patterns, in any language; the other types need the English model. */
export const PATTERN_TYPES: readonly EntityType[] = ["MONEY", "PERCENT", "EMAIL", "PHONE"];

export const ERROR_CORRECTION_LEVELS = ["L", "M", "Q", "H"] as const;
export type ErrorCorrection = (typeof ERROR_CORRECTION_LEVELS)[number];

/** I5's image formats: PNG, or the same code as an SVG document. */
export const QR_FORMATS = ["png", "svg"] as const;
export type QrFormat = (typeof QR_FORMATS)[number];
