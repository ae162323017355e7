/**
 * `npm run train`: learns the four naive Bayes classifiers of I7 from openly licensed data and
 * writes them to src/intelligence/models/, where the Worker bundles them.
 */
import { writeFileSync } from "node:fs";
import { features, type NaiveBayesModel } from "../src/intelligence/naive-bayes";
import { projectSentences, sentimentSentences, spamAssassinEmails, split, type LabelledText } from "./lib/corpora";

function train(examples: LabelledText[], source: string, maxVocabulary: number): NaiveBayesModel {
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

const models: [string, () => LabelledText[], string, number][] = [
  ["spam", () => split(spamAssassinEmails()).train, "SpamAssassin public corpus (4/5 of it)", 8000],
  ["sentiment", () => split(sentimentSentences()).train, "UCI Sentiment Labelled Sentences, CC BY 4.0 (4/5 of it)", 5000],
  ["topic", () => projectSentences("topic"), "the project's own topic sentences (data/classifiers/topic.tsv, CC0)", 5000],
  ["intent", () => projectSentences("intent"), "the project's own intent sentences (data/classifiers/intent.tsv, CC0)", 5000],
];

const started = Date.now();
for (const [index, [name, load, source, maxVocabulary]] of models.entries()) {
  const examples = load();
  const model = train(examples, source, maxVocabulary);
  const json = JSON.stringify(model);
  writeFileSync(new URL(`../src/intelligence/models/${name}.json`, import.meta.url), `${json}\n`);
  console.log(`[${index + 1}/${models.length}] ${name}: ${examples.length} examples, labels ${model.labels.join("/")}, vocabulary ${model.vocabularySize}, ${(json.length / 1024).toFixed(0)} KiB`);
}
console.log(`Trained ${models.length} classifiers in ${((Date.now() - started) / 1000).toFixed(1)} s into src/intelligence/models/`);
