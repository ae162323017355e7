import english from "sentiment/languages/en/index.js";
import { looksFamiliar } from "./familiarity";
import { probabilityOf, scoreText, type LinearModel, type Valences } from "./linear-model";
import sentimentModel from "./models/sentiment.json";
import { words } from "./text";
import { roundScore, topScore } from "./scores";

/** The trained polarity model (scripts/model/lib/linear-model-recipes.ts) and the AFINN valences it reads as features. */
export const SENTIMENT_MODEL = sentimentModel as LinearModel;
export const VALENCES: Valences = english.labels;

export type Polarity = "positive" | "neutral" | "negative";

export interface SentimentResult {
  overallSentiment: Polarity;
  confidence: number;
  scores: Record<Polarity, number>;
  emotions: Record<Emotion, number>;
  /** Whether the text looks like the model's training texts (familiarity.ts); absent when Workers AI answered. */
  reliable?: boolean;
}

const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "neither",
  "nor",
  "without",
  "hardly",
  "barely",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "don't",
  "doesn't",
  "didn't",
  "can't",
  "cannot",
  "couldn't",
  "won't",
  "wouldn't",
  "shouldn't",
  "haven't",
  "hasn't",
  "hadn't",
  "ain't",
]);
/** How far back a negator still cancels an emotion word ("not at all happy", "never been so scared"). */
const NEGATION_WINDOW = 3;

export type Emotion = "joy" | "trust" | "surprise" | "sadness" | "anger" | "fear" | "disgust";

// A small hand-made lexicon (stems matched by prefix): no openly licensed emotion lexicon fits here.
const EMOTION_STEMS: Record<Emotion, string[]> = {
  joy: [
    "happ",
    "joy",
    "delight",
    "glad",
    "love",
    "lovel",
    "wonderful",
    "great",
    "excel",
    "fantastic",
    "amaz",
    "awesome",
    "pleas",
    "enjoy",
    "cheer",
    "smil",
    "laugh",
    "fun",
    "thrill",
    "excit",
    "celebrat",
    "perfect",
    "brilliant",
    "best",
    "beautiful",
  ],
  trust: [
    "trust",
    "reliab",
    "depend",
    "honest",
    "safe",
    "secur",
    "confiden",
    "loyal",
    "faith",
    "recommend",
    "solid",
    "sincere",
    "genuine",
    "credib",
    "consisten",
    "professional",
  ],
  surprise: ["surpris", "unexpect", "astonish", "shock", "sudden", "wow", "stun", "incredib", "unbeliev", "startl", "amazed"],
  sadness: [
    "sad",
    "unhapp",
    "depress",
    "disappoint",
    "sorry",
    "regret",
    "miss",
    "lonely",
    "grief",
    "griev",
    "cry",
    "tear",
    "heartbr",
    "miser",
    "gloom",
    "upset",
    "loss",
    "lost",
    "unfortunat",
  ],
  anger: [
    "ang",
    "furious",
    "rage",
    "mad",
    "annoy",
    "irritat",
    "outrag",
    "hate",
    "hostil",
    "frustrat",
    "livid",
    "resent",
    "infuriat",
    "unacceptabl",
    "ridiculous",
    "worst",
  ],
  fear: [
    "fear",
    "afraid",
    "scar",
    "terrif",
    "panic",
    "anxi",
    "worr",
    "nervous",
    "dread",
    "threat",
    "danger",
    "risk",
    "alarm",
    "horr",
    "frighten",
    "concern",
  ],
  disgust: [
    "disgust",
    "gross",
    "revolt",
    "nasty",
    "vile",
    "sick",
    "repuls",
    "awful",
    "terrible",
    "horrible",
    "filth",
    "dirty",
    "rotten",
    "stink",
    "foul",
    "yuck",
  ],
};
const EMOTIONS = Object.keys(EMOTION_STEMS) as Emotion[];

function emotionScores(text: string): Record<Emotion, number> {
  const tokens = words(text);
  const hits = Object.fromEntries(EMOTIONS.map((e) => [e, 0])) as Record<Emotion, number>;
  tokens.forEach((token, i) => {
    const negated = tokens.slice(Math.max(0, i - NEGATION_WINDOW), i).some((t) => NEGATORS.has(t));
    if (negated) return;
    for (const emotion of EMOTIONS) if (EMOTION_STEMS[emotion].some((stem) => token.startsWith(stem))) hits[emotion]++;
  });
  const total = EMOTIONS.reduce((sum, e) => sum + hits[e], 0);
  return Object.fromEntries(EMOTIONS.map((e) => [e, total ? roundScore(hits[e] / total) : 0])) as Record<Emotion, number>;
}

/** Within this distance of an even chance the model has not decided. */
const UNDECIDED = 0.1;
/** Neutral's largest share: the model unable to tell is not a confident neutral (the training sets have no neutral label). */
const NEUTRAL_AT_MOST = 0.5;

/**
 * Polarity from the trained model: its calibrated probability that the text is positive. Away
 * from an even chance the answer's confidence is that probability (calibrated: `npm run eval`
 * reports the error); near it, neutral takes a share of at most one half, and wins only when
 * the model leans neither way.
 */
export function analyzeSentiment(text: string): SentimentResult {
  const { score, evidence, coverage } = scoreText(SENTIMENT_MODEL, text, VALENCES);
  // A text with nothing the model knows is an even chance (not the training set's prior): neutral.
  const positive = evidence === 0 ? 0.5 : probabilityOf(SENTIMENT_MODEL, score, text);
  const neutral = NEUTRAL_AT_MOST * Math.max(0, 1 - Math.abs(positive - 0.5) / UNDECIDED);
  const scores = {
    positive: roundScore(positive * (1 - neutral)),
    neutral: roundScore(neutral),
    negative: roundScore((1 - positive) * (1 - neutral)),
  };
  const [overallSentiment, confidence] = topScore(scores);
  return { overallSentiment, confidence, scores, emotions: emotionScores(text), reliable: looksFamiliar("sentiment", text, coverage) };
}
