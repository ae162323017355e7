import bounds from "./models/familiarity.json";
import { words } from "./text";

/**
 * What the texts a model learned from look like, fitted by `npm run train` on held-out texts of
 * its training sets (never on the sets `npm run eval` scores out of domain): a text outside these
 * bounds gets `reliable: false`, whatever the confidence says.
 */
export interface FamiliarBounds {
  /** The word counts of all but the shortest and longest 1 % of training texts. */
  words: [number, number];
  /** The share of a text's distinct words the model has weights for, below which 5 % of training texts fall. */
  coverage: number;
}

export type FamiliarModel = "sentiment" | "spam" | "entities";
export const FAMILIAR_BOUNDS: Record<FamiliarModel, FamiliarBounds> = bounds.models as Record<FamiliarModel, FamiliarBounds>;

/** The training sets are English: most of a text's letters must be Latin. */
const LATIN_AT_LEAST = 0.9;
const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;

/** The share of a text's letters that are Latin (0 without letters); the first 20,000 characters tell. */
export function latinShare(text: string): number {
  const sample = text.slice(0, 20_000);
  const letters = sample.match(LETTER)?.length ?? 0;
  return letters ? (sample.match(LATIN_LETTER)?.length ?? 0) / letters : 0;
}

/** Whether a text looks like what the model learned from: its script, its length in words, and how many of its words the model knows. */
export function looksFamiliar(model: FamiliarModel, text: string, coverage: number): boolean {
  const { words: range, coverage: least } = FAMILIAR_BOUNDS[model];
  const count = words(text).length;
  return count >= range[0] && count <= range[1] && coverage >= least && latinShare(text) >= LATIN_AT_LEAST;
}
