import type { Bindings } from "../platform/env";
import type { Classification } from "./classify";
import type { Classifier } from "./vocabulary";
import { runModel } from "./engines";
import { analyzeSentiment, type SentimentResult } from "./sentiment";
import type { Summary, SummaryOptions } from "./summarize";
import { sentences, wordCount } from "./text";
import { shares, topScore } from "./scores";

/** Workers AI models of group I; see docs/intelligence.md for what each does better and worse. */
export const WORKERS_AI_MODELS = {
  summarization: "@cf/facebook/bart-large-cnn",
  sentiment: "@cf/huggingface/distilbert-sst-2-int8",
  embeddings: "@cf/baai/bge-small-en-v1.5",
  translation: "@cf/meta/m2m100-1.2b",
} as const;

export async function summarizeWithWorkersAi(env: Bindings, text: string, options: SummaryOptions): Promise<Summary> {
  // bart counts tokens, about 4/3 of a word in English.
  const output = await runModel<{ summary?: string }>(env, WORKERS_AI_MODELS.summarization, {
    input_text: text,
    max_length: Math.ceil(options.maxLength * 1.33),
  });
  if (typeof output.summary !== "string" || !output.summary.trim()) throw new Error("bart-large-cnn answered without a summary");
  return { sentences: sentences(output.summary).map((s) => s.text), originalLength: wordCount(text), summaryLength: wordCount(output.summary) };
}

/** distilbert-sst-2 knows positive and negative only; neutral is what neither claims strongly. Emotions stay lexical. */
export async function sentimentWithWorkersAi(env: Bindings, text: string): Promise<SentimentResult> {
  const output = await runModel<{ label: string; score: number }[]>(env, WORKERS_AI_MODELS.sentiment, { text });
  const score = (label: string) => output.find((o) => o.label.toUpperCase() === label)?.score;
  const positive = score("POSITIVE");
  const negative = score("NEGATIVE");
  if (positive === undefined || negative === undefined) throw new Error("distilbert-sst-2 answered without both labels");
  const neutral = Math.max(0, 1 - 2 * Math.abs(positive - negative));
  const scores = shares(["positive", "neutral", "negative"], [positive, neutral, negative]) as SentimentResult["scores"];
  const [overallSentiment, confidence] = topScore(scores);
  const lexical = analyzeSentiment(text);
  return { ...lexical, overallSentiment, confidence, scores };
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * b[i]!;
    na += v * v;
    nb += b[i]! * b[i]!;
  });
  return dot / (Math.sqrt(na * nb) || 1);
};

/**
 * Custom categories by embedding similarity (bge-small); the sentiment classifier by
 * distilbert-sst-2. The other trained classifiers have no Workers AI model: see `hasWorkersAiClassifier`.
 */
export async function classifyWithWorkersAi(
  env: Bindings,
  text: string,
  classifier: Classifier,
  categories?: readonly string[],
): Promise<Classification> {
  if (categories) {
    const output = await runModel<{ data?: number[][] }>(env, WORKERS_AI_MODELS.embeddings, { text: [text, ...categories] });
    if (!output.data || output.data.length !== categories.length + 1) throw new Error("bge-small answered with the wrong number of embeddings");
    const [textVector, ...categoryVectors] = output.data as [number[], ...number[][]];
    // Cosine similarities of bge sit close together; a sharp softmax spreads them into shares.
    const scores = shares(
      categories,
      categoryVectors.map((v) => Math.exp(cosine(textVector, v) / 0.05)),
    );
    const [classification, confidence] = topScore(scores);
    return { classification, confidence, scores, method: "embeddings" };
  }
  if (classifier === "sentiment") {
    const result = await sentimentWithWorkersAi(env, text);
    const scores = shares(["negative", "positive"], [result.scores.negative, result.scores.positive]);
    const [classification, confidence] = topScore(scores);
    return { classification, confidence, scores, method: "workers-ai-model" };
  }
  throw new Error(`no Workers AI model for the ${classifier} classifier`);
}

export const hasWorkersAiClassifier = (classifier: Classifier, categories?: readonly string[]) =>
  categories !== undefined || classifier === "sentiment";
