/**
 * `npm run train`: learns group I's classifiers from openly licensed data and writes them to
 * src/intelligence/models/, where the Worker loads them when a request needs one. Spam and
 * sentiment are logistic regressions over hashed n-grams (with calibrated probabilities); topic
 * and intent, learned from our own small sets, stay naive Bayes. Language identification keeps
 * eld's model; its confidences and `reliable` threshold are fitted here.
 */
import { writeFileSync } from "node:fs";
import type { LanguageCalibration } from "../../src/intelligence/language";
import type { LinearModel } from "../../src/intelligence/linear-model";
import { features, type NaiveBayesModel } from "../../src/intelligence/naive-bayes";
import type { EntityTaggerModel, PersonNames } from "../../src/intelligence/entity-tagger";
import { languageSentences, nerSentences, personNames, projectSentences, requireCorpora, type LabelledText } from "./lib/corpora";
import { trainEntityTagger } from "./lib/entity-tagger-training";
import { familiarityBounds } from "./lib/familiarity-bounds";
import { calibrateLanguage } from "./lib/language-calibration";
import { LINEAR_MODELS } from "./lib/linear-model-recipes";
import { crossSourceCalibration, trainLinearModel } from "./lib/logistic-regression";

function trainNaiveBayes(examples: LabelledText[], source: string, maxVocabulary: number): NaiveBayesModel {
  const tokenized = examples.map((e) => ({ label: e.label, tokens: features(e.text) }));
  const frequency = new Map<string, number>();
  for (const { tokens } of tokenized) for (const t of tokens) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  // Rare tokens add bytes to the bundle and noise to the model.
  const minimum = examples.length > 1000 ? 3 : 1;
  const vocabulary = new Set(
    [...frequency.entries()]
      .filter(([, n]) => n >= minimum)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, maxVocabulary)
      .map(([t]) => t),
  );
  const labels = [...new Set(examples.map((e) => e.label))].sort();
  const model: NaiveBayesModel = {
    labels,
    documents: Object.fromEntries(labels.map((l) => [l, 0])),
    counts: Object.fromEntries(labels.map((l) => [l, {}])),
    totals: Object.fromEntries(labels.map((l) => [l, 0])),
    vocabularySize: vocabulary.size,
    source,
  };
  for (const { label, tokens } of tokenized) {
    model.documents[label]!++;
    for (const t of tokens) {
      if (!vocabulary.has(t)) continue;
      model.counts[label]![t] = (model.counts[label]![t] ?? 0) + 1;
      model.totals[label]!++;
    }
  }
  return model;
}

const ENTITY_TAGGER = {
  buckets: 1 << 18,
  epochs: 10,
  keepAbove: 2,
  source:
    "UNER English EWT train, dev and test (CC BY-SA 4.0), WikiGold (CC BY 4.0), GUM's academic, biography, court, interview and travel documents (annotation CC BY 4.0; texts CC BY 4.0, CC BY-SA 3.0, CC BY 2.5), Broad Twitter Corpus (CC BY 4.0), WNUT 2017 train and dev (CC BY 4.0); 9/10 of each, the edited text also with people named by surname, confidences fitted on EWT and WikiGold, in equal shares, by taggers that did not learn from them; people's names from cspell's dictionary (MIT) as a gazetteer",
};

const PERSON_NAMES_SOURCE =
  "@cspell/dict-people-names (github.com/streetsidesoftware/cspell-dicts, dictionaries/people-names; version in package-lock.json): MIT License, Copyright (c) 2023 Street Side Software <support@streetsidesoftware.nl>";

requireCorpora();
const started = Date.now();
const write = (
  name: string,
  model: LinearModel | NaiveBayesModel | LanguageCalibration | EntityTaggerModel | PersonNames | ReturnType<typeof familiarityBounds>,
) => {
  const json = JSON.stringify(model);
  writeFileSync(new URL(`../../src/intelligence/models/${name}.json`, import.meta.url), `${json}\n`);
  return `${(json.length / 1024).toFixed(0)} KiB`;
};
const steps: [string, () => string][] = [
  ...Object.entries(LINEAR_MODELS).map(([name, recipe]): [string, () => string] => [
    name,
    () => {
      const { options } = recipe;
      const split = recipe.parts();
      // Lexicon entries teach the weights only: the calibration is of real texts.
      const fit = [...split.fit, ...("lexicon" in recipe ? recipe.lexicon() : [])];
      const { calibration } = split;
      const model = trainLinearModel(fit, calibration, options, (message) => process.stdout.write(`\r  ${name}: ${message}   `));
      if ("sources" in recipe) Object.assign(model, crossSourceCalibration(recipe.sources(), "lexicon" in recipe ? recipe.lexicon() : [], options));
      process.stdout.write("\r");
      return `logistic regression, ${fit.length} examples + ${calibration.length} for calibration, ${model.weights.count} weights, ${write(name, model)}`;
    },
  ]),
  [
    "topic",
    () =>
      `naive Bayes, ${write("topic", trainNaiveBayes(projectSentences("topic"), "the project's own topic sentences (data/classifiers/topic.tsv, CC0)", 5000))}`,
  ],
  [
    "intent",
    () =>
      `naive Bayes, ${write("intent", trainNaiveBayes(projectSentences("intent"), "the project's own intent sentences (data/classifiers/intent.tsv, CC0)", 5000))}`,
  ],
  [
    "language",
    () => {
      const calibration = calibrateLanguage(
        languageSentences("calibration"),
        "Tatoeba sentences (CC BY 2.0 FR), data/corpora/language/tatoeba-calibration.tsv",
      );
      return `eld's scores calibrated, reliable from ${calibration.reliableAbove}, ${write("language", calibration)}`;
    },
  ],
  [
    "entities",
    () => {
      const corpora = Object.fromEntries((["uner-ewt", "wikigold", "gum-other", "btc", "wnut17"] as const).map((set) => [set, nerSentences(set)]));
      const names = personNames();
      // The Worker reads the gazetteer from this file; the tagger learns with the same list.
      write("person-names", { names: names.join("\n"), source: PERSON_NAMES_SOURCE });
      // Edited text (web pages, Wikipedia, GUM's genres) stands for what I4 is sent: it also teaches second mentions, and two of its sets fit the confidences.
      const model = trainEntityTagger(
        { corpora, edited: ["uner-ewt", "wikigold", "gum-other"], unseen: ["uner-ewt", "wikigold"], personNames: new Set(names) },
        ENTITY_TAGGER,
        (message) => process.stdout.write(`\r  entities: ${message}      `),
      );
      process.stdout.write("\r");
      const sentences = Object.values(corpora).reduce((sum, c) => sum + c.length, 0);
      return `averaged perceptron, ${sentences} sentences, ${names.length} names, ${model.epochs} passes, held-out F1 ${model.heldOutF1}, ${model.weights.count} weights, ${write("entities", model)}`;
    },
  ],
  [
    // Last: it reads the models written above.
    "familiarity",
    () => {
      const bounds = familiarityBounds();
      return `reliable's bounds ${JSON.stringify(bounds.models)}, ${write("familiarity", bounds)}`;
    },
  ],
];
// `npm run train -- entities language` trains only those.
const only = process.argv.slice(2);
const chosen = steps.filter(([name]) => only.length === 0 || only.includes(name));
for (const [index, [name, run]] of chosen.entries()) console.log(`[${index + 1}/${chosen.length}] ${name}: ${run()}`);
console.log(`Trained ${chosen.length} models in ${((Date.now() - started) / 1000).toFixed(1)} s into src/intelligence/models/`);
