/**
 * `npm run eval`: scores the embedded engine of group I on held-out parts of openly licensed
 * labelled sets and prints a table (docs/intelligence.md shows it beside published figures).
 */
import { classify } from "../src/intelligence/classify";
import type { Classifier } from "../src/intelligence/vocabulary";
import { analyzeSentiment } from "../src/intelligence/sentiment";
import { sentimentSentences, spamAssassinEmails, split, type LabelledText } from "./lib/corpora";

interface Row {
  task: string;
  set: string;
  items: number;
  accuracy: number;
  extra: string;
}

function f1(predicted: string[], gold: string[], positive: string) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  predicted.forEach((p, i) => {
    if (p === positive && gold[i] === positive) tp++;
    else if (p === positive) fp++;
    else if (gold[i] === positive) fn++;
  });
  const precision = tp / (tp + fp || 1);
  const recall = tp / (tp + fn || 1);
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall || 1) };
}

const accuracy = (predicted: string[], gold: string[]) => predicted.filter((p, i) => p === gold[i]).length / gold.length;

function scoreClassifier(task: string, set: string, items: LabelledText[], classifier: Classifier, positive: string): Row {
  const predicted = items.map((item, i) => {
    if (i % 200 === 0) process.stdout.write(`\r${task}: ${i}/${items.length}`);
    return classify(item.text, classifier).classification;
  });
  process.stdout.write("\r");
  const gold = items.map((i) => i.label);
  const { precision, recall, f1: f } = f1(predicted, gold, positive);
  return { task, set, items: items.length, accuracy: accuracy(predicted, gold), extra: `${positive} P ${precision.toFixed(3)} R ${recall.toFixed(3)} F1 ${f.toFixed(3)}` };
}

/** The lexicon is not trained, so it is scored on every sentence, as the `sentiment` package scores itself. */
function scoreLexicon(set: "amazon" | "imdb" | "yelp"): Row {
  const items = sentimentSentences(set);
  // The package's own rule: comparative score >= 0 counts as positive.
  const predicted = items.map((item) => (analyzeSentiment(item.text).comparative >= 0 ? "positive" : "negative"));
  return { task: "I3 sentiment (lexicon)", set: `UCI ${set}`, items: items.length, accuracy: accuracy(predicted, items.map((i) => i.label)), extra: "comparative >= 0 is positive" };
}

const started = Date.now();
const rows: Row[] = [];
const steps: [string, () => Row][] = [
  ["I3 lexicon on UCI amazon", () => scoreLexicon("amazon")],
  ["I3 lexicon on UCI imdb", () => scoreLexicon("imdb")],
  ["I3 lexicon on UCI yelp", () => scoreLexicon("yelp")],
  ["I7 sentiment classifier", () => scoreClassifier("I7 sentiment (naive Bayes)", "UCI, held-out fifth", split(sentimentSentences()).test, "sentiment", "positive")],
  ["I7 spam classifier", () => scoreClassifier("I7 spam (naive Bayes)", "SpamAssassin, held-out fifth", split(spamAssassinEmails()).test, "spam", "spam")],
];
for (const [index, [name, run]] of steps.entries()) {
  console.log(`[${index + 1}/${steps.length}] ${name}`);
  rows.push(run());
}
console.log("\n| task | set | items | accuracy | detail |\n|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.task} | ${r.set} | ${r.items} | ${r.accuracy.toFixed(3)} | ${r.extra} |`);
console.log(`\nScored ${rows.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
