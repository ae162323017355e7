import { readFileSync } from "node:fs";
import { taggerKnows, entityTokens, type EntityTaggerModel } from "../../../src/intelligence/entity-tagger";
import type { FamiliarBounds, FamiliarModel } from "../../../src/intelligence/familiarity";
import { scoreText, type LinearModel } from "../../../src/intelligence/linear-model";
import { VALENCES } from "../../../src/intelligence/sentiment";
import { words } from "../../../src/intelligence/text";
import { nerSentences } from "./corpora";
import { LINEAR_MODELS } from "./linear-model-recipes";

/** I4 tags any length a group of sentences at a time: its bound is the route's (20,000 characters), in words. */
const ENTITY_TEXT_WORDS = 20_000;

/** A classifier's answer on fewer words than this is not `reliable`, whatever its training texts' lengths. */
const MIN_WORDS_TO_JUDGE = 2;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/** The model as written by this run of `npm run train` (not the copy the Worker's import saw at start). */
const shipped = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../../src/intelligence/models/${name}.json`, import.meta.url), "utf8")) as T;

/** Bounds from texts the model did not learn from: their word counts (1st to 99th percentile) and the 5th percentile of its coverage of their words. */
function boundsOf(texts: string[], coverage: (text: string) => number, maxWords?: number): FamiliarBounds {
  const counts = texts.map((t) => words(t).length);
  return {
    words: [Math.max(1, quantile(counts, 0.01)), maxWords ?? quantile(counts, 0.99)],
    coverage: Number(quantile(texts.map(coverage), 0.05).toFixed(3)),
  };
}

/**
 * `reliable`'s bounds for each model, from held-out texts of its own training sets: the calibration
 * tenth of the classifiers' training part, and GUM's news sentences for the tagger (never trained on).
 */
export function familiarityBounds(): { models: Record<FamiliarModel, FamiliarBounds>; source: string } {
  const linear = (name: "spam" | "sentiment"): FamiliarBounds => {
    const model = shipped<LinearModel>(name);
    const texts = LINEAR_MODELS[name].parts().calibration.map((e) => e.text);
    const bounds = boundsOf(texts, (text) => scoreText(model, text, name === "sentiment" ? VALENCES : undefined).coverage);
    // Replies of one word ("Ok", "Amazing") are 1 % of spam's training texts, but a word alone is too little to judge a message by.
    return { ...bounds, words: [Math.max(MIN_WORDS_TO_JUDGE, bounds.words[0]), bounds.words[1]] };
  };
  const tagger = shipped<EntityTaggerModel>("entities");
  const entityCoverage = (text: string) => {
    const distinct = new Set(
      entityTokens(text)
        .map((t) => t.text.toLowerCase())
        .filter((w) => /\p{L}/u.test(w)),
    );
    return distinct.size ? [...distinct].filter((w) => taggerKnows(tagger, w)).length / distinct.size : 0;
  };
  return {
    models: {
      sentiment: linear("sentiment"),
      spam: linear("spam"),
      entities: boundsOf(
        nerSentences("gum-news").map((s) => s.text),
        entityCoverage,
        ENTITY_TEXT_WORDS,
      ),
    },
    source:
      "held-out texts of each model's training sets: the calibration tenth of the spam and sentiment training parts, GUM's Wikinews sentences for the tagger",
  };
}
