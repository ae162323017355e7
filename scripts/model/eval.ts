/**
 * `npm run eval`: scores the embedded engine of group I on held-out parts of openly licensed
 * labelled sets (never used for training): in domain (the training sets' held-out parts) and out
 * of domain (sets of other origins, never trained or tuned on), each beside the majority-class
 * baseline, with the expected calibration error of the confidences and how many answers were
 * `reliable` and how good those were. The docs' table is this script's output.
 */
import { classify } from "../../src/intelligence/classify";
import { entityTextLooksFamiliar, extractEntities } from "../../src/intelligence/entities";
import { looksFamiliar } from "../../src/intelligence/familiarity";
import { detectLanguage, DETECTABLE_LANGUAGES } from "../../src/intelligence/language";
import { probabilityOf, scoreText, type LinearModel } from "../../src/intelligence/linear-model";
import { analyzeSentiment, VALENCES } from "../../src/intelligence/sentiment";
import { summarize } from "../../src/intelligence/summarize";
import { sentences, words } from "../../src/intelligence/text";
import type { Classifier } from "../../src/intelligence/vocabulary";
import {
  calibrationSplit,
  languageSentences,
  movieReviewSentences,
  nerSentences,
  redditComments,
  requireCorpora,
  sentimentSentences,
  smsMessages,
  spamAssassinEmails,
  split,
  summarizedArticles,
  tweets,
  youtubeComments,
  type LabelledText,
  type YoutubeVideo,
  type NerSentence,
} from "./lib/corpora";
import { LINEAR_MODELS, SPAM_COMMENT_VIDEOS, spamParts } from "./lib/linear-model-recipes";
import { trainLinearModel } from "./lib/logistic-regression";
import { seededRandom } from "./lib/random";
import { rouge1, rougeL } from "./lib/rouge";

interface Prediction {
  label: string;
  /** The confidence given with the label. */
  confidence: number;
  /** The answer's `reliable`, where the task has one. */
  reliable?: boolean;
}

/** In domain: a held-out part of a training set; out of domain: a set of another origin, never trained or tuned on. */
type Domain = "in" | "out" | "tuned on";

interface Row {
  task: string;
  set: string;
  domain: Domain;
  items: number;
  score: string;
  baseline: string;
  ece: string;
  /** The share of answers marked reliable, and the score of those. */
  reliable: string;
}

/** Expected calibration error over ten equal-width bins of confidence. */
function expectedCalibrationError(predictions: Prediction[], gold: string[]): number {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, confidence: 0, right: 0 }));
  predictions.forEach((p, i) => {
    const bin = bins[Math.min(9, Math.floor(p.confidence * 10))]!;
    bin.n++;
    bin.confidence += p.confidence;
    bin.right += p.label === gold[i] ? 1 : 0;
  });
  return bins.reduce((sum, b) => sum + (b.n ? Math.abs(b.confidence - b.right) : 0), 0) / predictions.length;
}

function f1(predicted: string[], gold: string[], positive: string): number {
  const tp = predicted.filter((p, i) => p === positive && gold[i] === positive).length;
  const fp = predicted.filter((p, i) => p === positive && gold[i] !== positive).length;
  const fn = predicted.filter((p, i) => p !== positive && gold[i] === positive).length;
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

const precisionOf = (predicted: string[], gold: string[], positive: string) =>
  predicted.filter((p, i) => p === positive && gold[i] === positive).length / Math.max(predicted.filter((p) => p === positive).length, 1);
const recallOf = (predicted: string[], gold: string[], positive: string) => precisionOf(gold, predicted, positive);
const accuracy = (predicted: string[], gold: string[]) => predicted.filter((p, i) => p === gold[i]).length / gold.length;
const majorityOf = (gold: string[]) =>
  [...new Set(gold)].map((l) => [l, gold.filter((g) => g === l).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
const fixed = (n: number) => n.toFixed(3);

const percent = (part: number, whole: number) => `${((100 * part) / Math.max(whole, 1)).toFixed(1)} %`;

/** The share of answers marked reliable and the score (accuracy or F1) of those alone. */
function reliableShare(predictions: Prediction[], gold: string[], positive?: string): string {
  if (predictions.every((p) => p.reliable === undefined)) return "—";
  const kept = predictions.flatMap((p, i) => (p.reliable ? [i] : []));
  const labels = kept.map((i) => predictions[i]!.label);
  const truth = kept.map((i) => gold[i]!);
  const score = kept.length === 0 ? "—" : positive ? `F1 ${fixed(f1(labels, truth, positive))}` : `accuracy ${fixed(accuracy(labels, truth))}`;
  return `${percent(kept.length, predictions.length)}: ${score}`;
}

/** One row: accuracy (or F1 of `positive`), the majority baseline's, the ECE, and the reliable answers. */
function row(task: string, set: string, domain: Domain, items: LabelledText[], predict: (text: string) => Prediction, positive?: string): Row {
  const predictions = items.map((item, i) => {
    if (i % 100 === 0) process.stdout.write(`\r  ${i}/${items.length}`);
    return predict(item.text);
  });
  process.stdout.write("\r");
  const gold = items.map((i) => i.label);
  const labels = predictions.map((p) => p.label);
  const majority = gold.map(() => majorityOf(gold));
  const score = positive
    ? `F1 ${fixed(f1(labels, gold, positive))} (P ${fixed(precisionOf(labels, gold, positive))}, R ${fixed(recallOf(labels, gold, positive))}, accuracy ${fixed(accuracy(labels, gold))})`
    : `accuracy ${fixed(accuracy(labels, gold))}`;
  const baseline = positive
    ? `F1 ${fixed(f1(majority, gold, positive))} (accuracy ${fixed(accuracy(majority, gold))}); flagging all: F1 ${fixed(
        f1(
          gold.map(() => positive),
          gold,
          positive,
        ),
      )}`
    : `accuracy ${fixed(accuracy(majority, gold))}`;
  return {
    task,
    set,
    domain,
    items: items.length,
    score,
    baseline,
    ece: fixed(expectedCalibrationError(predictions, gold)),
    reliable: reliableShare(predictions, gold, positive),
  };
}

const polarity = (text: string): Prediction => {
  const { scores, reliable } = analyzeSentiment(text);
  // Scored as a two-way decision (the sets have no neutral label): the pole with the larger share.
  const positive = scores.positive / (scores.positive + scores.negative);
  return positive >= 0.5 ? { label: "positive", confidence: positive, reliable } : { label: "negative", confidence: 1 - positive, reliable };
};

/** The shipped sentiment recipe (lexicon and options) trained on other examples, as a predictor. */
function sentimentRecipeOn(examples: LabelledText[]): (text: string) => Prediction {
  const { fit, calibration } = calibrationSplit(examples);
  fit.push(...LINEAR_MODELS.sentiment.lexicon());
  const model: LinearModel = trainLinearModel(fit, calibration, LINEAR_MODELS.sentiment.options, () => undefined);
  return (text) => {
    const { score, coverage } = scoreText(model, text, VALENCES);
    const p = probabilityOf(model, score, text);
    const reliable = looksFamiliar("sentiment", text, coverage);
    return p >= 0.5 ? { label: "positive", confidence: p, reliable } : { label: "negative", confidence: 1 - p, reliable };
  };
}

/** The recipe trained without one site, scored on that site: a source it never saw. */
const sentimentOnUnseenSite = (site: "amazon" | "imdb" | "yelp") =>
  sentimentRecipeOn((["amazon", "imdb", "yelp"] as const).filter((s) => s !== site).flatMap((s) => sentimentSentences(s)));

/** The shipped spam recipe learning the comments of the other training videos only: scored on the one left out. */
function spamRecipeWithout(video: YoutubeVideo): (text: string) => Prediction {
  const { fit, calibration } = spamParts(SPAM_COMMENT_VIDEOS.filter((v) => v !== video));
  const model = trainLinearModel(fit, calibration, LINEAR_MODELS.spam.options, () => undefined);
  return (text) => {
    const { score, coverage } = scoreText(model, text);
    const p = probabilityOf(model, score, text);
    const reliable = looksFamiliar("spam", text, coverage);
    return p >= 0.5 ? { label: "spam", confidence: p, reliable } : { label: "ham", confidence: 1 - p, reliable };
  };
}

const VIDEO_NAMES: Record<YoutubeVideo, string> = {
  psy: "Psy's",
  katyperry: "Katy Perry's",
  lmfao: "LMFAO's",
  eminem: "Eminem's",
  shakira: "Shakira's",
};

/**
 * The recipe also learning all of GoEmotions' training comments (26,304, nine times the review
 * sentences): what a second, social domain would change out of domain. Not shipped: it loses on reviews.
 */
let withComments: ((text: string) => Prediction) | undefined;
const sentimentWithComments = () => (withComments ??= sentimentRecipeOn([...split(sentimentSentences()).train, ...redditComments("train")]));

const classifier = (name: Classifier) => async (items: LabelledText[]) => {
  const results = new Map<string, Prediction>();
  for (const item of items) {
    const { classification, confidence, reliable } = await classify(item.text, name);
    results.set(item.text, { label: classification, confidence, reliable });
  }
  return (text: string) => results.get(text)!;
};

const CONLL_TYPE = { PERSON: "PER", LOCATION: "LOC", ORGANIZATION: "ORG" } as const;

type EntityCounts = { tp: number; found: number; gold: number };
const totalOf = (counts: EntityCounts[]) =>
  counts.reduce((sum, c) => ({ tp: sum.tp + c.tp, found: sum.found + c.found, gold: sum.gold + c.gold }), { tp: 0, found: 0, gold: 0 });

/** Entity F1 over sentences' counts of right, found and gold entities. */
const entityF1 = (counts: EntityCounts[]) => {
  const total = totalOf(counts);
  return (2 * total.tp) / Math.max(total.found + total.gold, 1);
};

/**
 * Entity F1 over exact spans and types (CoNLL's measure). The majority baseline tags every token
 * O and finds nothing; the ECE is of each found entity's confidence against its being right.
 */
async function entityRow(set: string, domain: Domain, sentences: NerSentence[]): Promise<Row> {
  const counts: EntityCounts[] = [];
  const reliable: boolean[] = [];
  const predictions: Prediction[] = [];
  const outcomes: string[] = [];
  for (const [i, sentence] of sentences.entries()) {
    if (i % 50 === 0) process.stdout.write(`\r  ${i}/${sentences.length}`);
    const entities = await extractEntities(sentence.text, ["PERSON", "LOCATION", "ORGANIZATION"], { patternsOnly: false });
    const expected = new Set(sentence.entities.map((e) => `${e.start}:${e.end}:${e.type}`));
    const count = { tp: 0, found: entities.length, gold: expected.size };
    for (const entity of entities) {
      const right = expected.has(`${entity.startOffset}:${entity.endOffset}:${CONLL_TYPE[entity.type as keyof typeof CONLL_TYPE]}`);
      if (right) count.tp++;
      predictions.push({ label: "right", confidence: entity.confidence });
      outcomes.push(right ? "right" : "wrong");
    }
    counts.push(count);
    reliable.push(entityTextLooksFamiliar(sentence.text));
  }
  const reliableCounts = counts.filter((_, i) => reliable[i]);
  process.stdout.write("\r");
  const { tp, found, gold } = totalOf(counts);
  const precision = tp / Math.max(found, 1);
  const recall = tp / Math.max(gold, 1);
  const [low, high] = bootstrapInterval(counts, entityF1);
  const score = `F1 ${fixed(entityF1(counts))} (P ${fixed(precision)}, R ${fixed(recall)}; 95 % interval ${fixed(low)}–${fixed(high)})`;
  return {
    task: "I4 entities (PER, LOC, ORG)",
    set,
    domain,
    items: sentences.length,
    score,
    baseline: "F1 0.000",
    ece: fixed(expectedCalibrationError(predictions, outcomes)),
    reliable: `${percent(reliableCounts.length, counts.length)}: F1 ${fixed(entityF1(reliableCounts))}`,
  };
}

/** The engine's answer for each sentence of a language set, Galician's included. */
function languageAnswers(part: "test" | "treebanks") {
  return languageSentences(part).map((s) => {
    const detected = detectLanguage(s.text);
    return {
      ...s,
      known: DETECTABLE_LANGUAGES.includes(s.language),
      label: detected?.code ?? "und",
      confidence: detected?.confidence ?? 0,
      reliable: detected?.reliable ?? false,
    };
  });
}

type LanguageAnswer = ReturnType<typeof languageAnswers>[number];
const percentOf = (items: LanguageAnswer[], test: (a: LanguageAnswer) => boolean) =>
  `${((100 * items.filter(test).length) / Math.max(items.length, 1)).toFixed(1)} %`;

/** Language identification's score on the known languages of a set: each sentence's answer, already computed. */
function languageIdRow(set: string, domain: Domain, answers: LanguageAnswer[]): Row {
  const known = answers.filter((a) => a.known);
  const byText = new Map(known.map((a) => [a.text, a]));
  return row(
    "I6 language id",
    set,
    domain,
    known.map((a) => ({ text: a.text, label: a.language })),
    (text) => byText.get(text)!,
  );
}

/** How `reliable` sorts the answers: the share marked, how many of those are right, and how many Galician (unknown) ones slip through. */
function reliableRow(answers: LanguageAnswer[], domain: Domain): Row {
  const reliable = answers.filter((a) => a.reliable);
  const unknown = answers.filter((a) => !a.known);
  return {
    task: "I6 `reliable`",
    set: `the same with ${unknown.length} Galician ones (a language eld does not know)`,
    domain,
    reliable: "—",
    items: answers.length,
    score: `${percentOf(answers, (a) => a.reliable)} of answers reliable, ${percentOf(reliable, (a) => a.label === a.language)} of those right; Galician: ${percentOf(unknown, (a) => a.reliable)} reliable`,
    baseline: `all reliable: ${percentOf(answers, (a) => a.label === a.language)} right`,
    ece: fixed(
      expectedCalibrationError(
        answers,
        answers.map((a) => a.language),
      ),
    ),
  };
}

/**
 * The 95 % interval of a statistic of the items, by resampling them 2,000 times (a deterministic
 * generator: the same interval on every run).
 */
function bootstrapInterval<T>(items: T[], statistic: (sample: T[]) => number): [number, number] {
  const random = seededRandom(17);
  const values = Array.from({ length: 2000 }, () => statistic(items.map(() => items[Math.floor(random() * items.length)]!))).sort((a, b) => a - b);
  return [values[49]!, values[1949]!];
}

const meanOf = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

const signed = (value: number) => `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(3)}`;

/**
 * I2 against the person's summary of each article, as long as it (in words): ROUGE-1 and ROUGE-L
 * of ours, and of the article's first three sentences cut to our summary's length, with the 95 %
 * interval of the difference.
 */
function summaryRow(set: "news" | "other"): Row {
  const articles = summarizedArticles(set);
  const totals = { ours1: 0, oursL: 0, lead1: 0, leadL: 0 };
  const differences: { rouge1: number[]; rougeL: number[] } = { rouge1: [], rougeL: [] };
  for (const article of articles) {
    const text = article.paragraphs.join("\n\n");
    const reference = words(article.summary);
    const ours = words(summarize(text, { minLength: 1, maxLength: reference.length }).sentences.join(" "));
    const lead = sentences(text)
      .slice(0, 3)
      .flatMap((s) => words(s.text))
      .slice(0, ours.length);
    const scores = { ours1: rouge1(ours, reference), oursL: rougeL(ours, reference), lead1: rouge1(lead, reference), leadL: rougeL(lead, reference) };
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += scores[key];
    differences.rouge1.push(scores.ours1 - scores.lead1);
    differences.rougeL.push(scores.oursL - scores.leadL);
  }
  const mean = (sum: number) => fixed(sum / articles.length);
  const versusLead = (name: "rouge1" | "rougeL") => {
    const [low, high] = bootstrapInterval(differences[name], meanOf);
    const average = meanOf(differences[name]);
    return `${signed(average)} on the lead, 95 % interval ${signed(low)} to ${signed(high)}`;
  };
  return {
    task: "I2 summaries",
    domain: set === "news" ? "out" : "tuned on",
    reliable: "—",
    set:
      set === "news"
        ? "GUM's Wikinews articles, a person's one-sentence summary each"
        : "GUM's other genres (academic, biographies, court, interviews, travel): where its settings were chosen, not held out",
    items: articles.length,
    score: `ROUGE-1 ${mean(totals.ours1)} (${versusLead("rouge1")}), ROUGE-L ${mean(totals.oursL)} (${versusLead("rougeL")})`,
    baseline: `first three sentences, same length: ROUGE-1 ${mean(totals.lead1)}, ROUGE-L ${mean(totals.leadL)}`,
    ece: "—",
  };
}

requireCorpora();
const started = Date.now();
const language = languageAnswers("test");
const treebankLanguage = languageAnswers("treebanks");
const held = { sentiment: split(sentimentSentences()).test, sms: split(smsMessages()).test, email: split(spamAssassinEmails()).test };
const SENTIMENT = "I3/I7 sentiment";
const SPAM = "I7 spam";
const step = (name: string, run: () => Row | Promise<Row>): [string, () => Promise<Row>] => [name, async () => run()];
const spamClassifier = classifier("spam");
const steps: [string, () => Promise<Row>][] = [
  step("sentiment, held-out fifth", () => row(SENTIMENT, "UCI sentences (Amazon, IMDb, Yelp), held-out fifth", "in", held.sentiment, polarity)),
  ...(["imdb", "amazon", "yelp"] as const).map((site) =>
    step(`sentiment, unseen ${site}`, () =>
      row(SENTIMENT, `UCI ${site} sentences, trained without them`, "in", sentimentSentences(site), sentimentOnUnseenSite(site)),
    ),
  ),
  step("sentiment, movie reviews", () =>
    row(SENTIMENT, "Pang and Lee's movie-review sentences (Rotten Tomatoes snippets, 2005)", "out", movieReviewSentences(), polarity),
  ),
  step("sentiment, tweets", () =>
    row(SENTIMENT, "TweetEval sentiment test part (SemEval 2017 tweets), positive and negative ones", "out", tweets(), polarity),
  ),
  step("sentiment, Reddit comments", () =>
    row(SENTIMENT, "GoEmotions Reddit comments (its test part), all-positive or all-negative ones", "out", redditComments("test"), polarity),
  ),
  step("sentiment with comments, reviews", () =>
    row(`${SENTIMENT}, also trained on Reddit comments`, "UCI sentences, held-out fifth", "in", held.sentiment, sentimentWithComments()),
  ),
  step("sentiment with comments, movie reviews", () =>
    row(
      `${SENTIMENT}, also trained on Reddit comments`,
      "Pang and Lee's movie-review sentences",
      "out",
      movieReviewSentences(),
      sentimentWithComments(),
    ),
  ),
  step("sentiment with comments, tweets", () =>
    row(`${SENTIMENT}, also trained on Reddit comments`, "TweetEval tweets, positive and negative", "out", tweets(), sentimentWithComments()),
  ),
  step("spam, SMS", async () => row(SPAM, "SMS Spam Collection, held-out fifth", "in", held.sms, await spamClassifier(held.sms), "spam")),
  step("spam, email", async () => row(SPAM, "SpamAssassin, held-out fifth", "in", held.email, await spamClassifier(held.email), "spam")),
  step("spam, YouTube Psy", async () => {
    const comments = youtubeComments("psy");
    return row(
      SPAM,
      "YouTube comments under Psy's video (UCI YouTube Spam Collection): another video of the same site",
      "out",
      comments,
      await spamClassifier(comments),
      "spam",
    );
  }),
  ...SPAM_COMMENT_VIDEOS.map((video) =>
    step(`spam, YouTube ${video} left out`, () =>
      row(
        `${SPAM}, learning the other three videos' comments`,
        `YouTube comments under ${VIDEO_NAMES[video]} video: where the comments' weight in training was chosen`,
        "tuned on",
        youtubeComments(video),
        spamRecipeWithout(video),
        "spam",
      ),
    ),
  ),
  step("entities, news", () =>
    entityRow(
      "UNER English PUD, news sentences",
      "out",
      nerSentences().filter((s) => s.domain === "news"),
    ),
  ),
  step("entities, wiki", () =>
    entityRow(
      "UNER English PUD, Wikipedia sentences",
      "out",
      nerSentences().filter((s) => s.domain === "wiki"),
    ),
  ),
  step("entities, WNUT 2017 test", () =>
    entityRow("WNUT 2017 test part (Reddit, StackExchange, YouTube, Twitter; emerging entities)", "out", nerSentences("wnut17-test")),
  ),
  step("entities, SEC filings", () => entityRow("SEC filings (loan agreements; FIN3, its test part)", "out", nerSentences("sec-filings"))),
  step("entities, GUM news", () =>
    entityRow("GUM's Wikinews articles, its entities as names: where the training recipe was chosen", "tuned on", nerSentences("gum-news")),
  ),
  step("language id", () => languageIdRow("Tatoeba sentences in 9 of eld's languages", "in", language)),
  step("language id, reliable", () => reliableRow(language, "in")),
  step("language id, treebanks", () =>
    languageIdRow(
      "Universal Dependencies treebanks' test sentences (news, Wikipedia, blogs, fiction, law) in 11 of eld's languages",
      "out",
      treebankLanguage,
    ),
  ),
  step("language id, treebanks, reliable", () => reliableRow(treebankLanguage, "out")),
  step("summaries, news", () => summaryRow("news")),
  step("summaries, other genres", () => summaryRow("other")),
];
// `npm run eval -- spam entities` scores only the rows whose step names hold one of the words.
const only = process.argv.slice(2);
const chosen = steps.filter(([name]) => only.length === 0 || only.some((word) => name.includes(word)));
const rows: Row[] = [];
for (const [index, [name, run]] of chosen.entries()) {
  console.log(`[${index + 1}/${chosen.length}] ${name}`);
  rows.push(await run());
}
console.log(
  "\n| task | held-out set | domain | items | embedded engine | baseline (majority class; I2: lead) | ECE | reliable: share, and score of those |\n|---|---|---|---|---|---|---|---|",
);
for (const r of rows) console.log(`| ${r.task} | ${r.set} | ${r.domain} | ${r.items} | ${r.score} | ${r.baseline} | ${r.ece} | ${r.reliable} |`);
console.log(`\nScored ${rows.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
