import { z } from "zod";
import type { Bindings } from "../platform/env";
import type { Classification } from "./classify";
import { CLASSIFIER_LABELS, type Classifier, type EntityType } from "./vocabulary";
import { modelFor, runModel } from "./engines";
import type { entitySchema } from "./schema";
import { analyzeSentiment, type SentimentResult } from "./sentiment";
import type { Summary, SummaryOptions } from "./summarize";
import { sentences, wordCount } from "./text";
import { roundScore, shares, topScore } from "./scores";

// Each task's model is a setting (`modelFor`); docs/intelligence.md says what each costs and does.

/**
 * Asks the instruction model for an answer in JSON mode and checks it against `shape`: an answer
 * that is not JSON or not of the shape is an error, and the route falls back to the embedded engine.
 */
async function instructedAnswer<S extends z.ZodType>(
  env: Bindings,
  instructions: string,
  text: string,
  shape: S,
  maxTokens: number,
): Promise<z.output<S>> {
  const model = modelFor(env, "AI_MODEL_INSTRUCT");
  const output = await runModel<{ response?: unknown }>(env, model, {
    messages: [
      { role: "system", content: instructions },
      { role: "user", content: text },
    ],
    response_format: { type: "json_schema", json_schema: z.toJSONSchema(shape) },
    max_tokens: maxTokens,
    temperature: 0,
  });
  let answer = output.response;
  if (typeof answer === "string") {
    try {
      answer = JSON.parse(answer);
    } catch {
      throw new Error(`${model} answered with text that is not JSON`);
    }
  }
  const parsed = shape.safeParse(answer);
  if (!parsed.success) throw new Error(`${model} answered outside the schema: ${parsed.error.issues[0]?.message ?? "unknown"}`);
  return parsed.data;
}

export async function summarizeWithWorkersAi(
  env: Bindings,
  text: string,
  options: SummaryOptions & { style: "paragraph" | "bullet" },
): Promise<Summary> {
  if (options.style === "bullet") return bulletSummary(env, text, options);
  // bart counts tokens, about 4/3 of a word in English.
  const output = await runModel<{ summary?: string }>(env, modelFor(env, "AI_MODEL_SUMMARY"), {
    input_text: text,
    max_length: Math.ceil(options.maxLength * 1.33),
  });
  if (typeof output.summary !== "string" || !output.summary.trim()) throw new Error("bart-large-cnn answered without a summary");
  return { sentences: sentences(output.summary).map((s) => s.text), originalLength: wordCount(text), summaryLength: wordCount(output.summary) };
}

const bulletsAnswer = z.object({ bullets: z.array(z.string().trim().min(1).max(600)).min(1).max(12) });

/** Bullets from the instruction model, kept while they fit in `maxLength` words (bart writes prose only). */
async function bulletSummary(env: Bindings, text: string, options: SummaryOptions): Promise<Summary> {
  const { bullets } = await instructedAnswer(
    env,
    `Summarize the user's text as 1 to 8 short bullet points, at most ${options.maxLength} words in all, ` +
      "in the language of the text, using only facts stated in it. Answer with JSON only.",
    text,
    bulletsAnswer,
    Math.min(1024, options.maxLength * 3 + 64),
  );
  const kept: string[] = [];
  let words = 0;
  for (const bullet of bullets) {
    if (words + wordCount(bullet) > options.maxLength) break;
    kept.push(bullet);
    words += wordCount(bullet);
  }
  if (kept.length === 0) throw new Error(`the bullet summary's first point is longer than ${options.maxLength} words`);
  return { sentences: kept, originalLength: wordCount(text), summaryLength: words };
}

type Entity = z.output<typeof entitySchema>;
/** More entities than this in one answer are not kept (the embedded engine finds far fewer in 20,000 characters). */
const MOST_ENTITIES = 1000;

const ENTITY_MEANINGS: Record<EntityType, string> = {
  PERSON: "people's names",
  ORGANIZATION: "companies, institutions and other organizations",
  LOCATION: "places: countries, cities, regions, landmarks",
  DATE: "dates and times of day",
  MONEY: "amounts of money with their currency",
  PERCENT: "percentages",
  EMAIL: "e-mail addresses",
  PHONE: "telephone numbers",
};

/**
 * Named entities from the instruction model. The model names each entity and its type; the
 * offsets are found here, at every place the text holds it, so they are exact by construction,
 * and an entity the text does not hold is dropped. Types outside `types` cannot be answered.
 */
export async function entitiesWithWorkersAi(env: Bindings, text: string, types: readonly EntityType[]): Promise<Entity[]> {
  if (types.length === 0) return [];
  const shape = z.object({
    entities: z
      .array(
        z.object({ text: z.string().min(1).max(300), type: z.enum(types as [EntityType, ...EntityType[]]), confidence: z.number().min(0).max(1) }),
      )
      .max(500),
  });
  const { entities } = await instructedAnswer(
    env,
    "List the named entities in the user's text, each exactly as written there, with its type and your confidence from 0 to 1. Types: " +
      types.map((type) => `${type} (${ENTITY_MEANINGS[type]})`).join("; ") +
      ". Answer with JSON only.",
    text,
    shape,
    2048,
  );
  const found = new Map<string, Entity>();
  for (const entity of entities) {
    for (let at = text.indexOf(entity.text); at !== -1 && found.size < MOST_ENTITIES; at = text.indexOf(entity.text, at + entity.text.length)) {
      const key = `${at}:${at + entity.text.length}`;
      if (!found.has(key)) {
        found.set(key, {
          text: entity.text,
          type: entity.type,
          startOffset: at,
          endOffset: at + entity.text.length,
          confidence: roundScore(entity.confidence),
        });
      }
    }
  }
  if (entities.length > 0 && found.size === 0) throw new Error("the model named entities that the text does not hold");
  // Longer spans first where two overlap ("New York City" over "York"), then in the text's order.
  const kept: Entity[] = [];
  for (const entity of [...found.values()].sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset)) {
    const last = kept.at(-1);
    if (!last || entity.startOffset >= last.endOffset) kept.push(entity);
  }
  return kept;
}

/** distilbert-sst-2 knows positive and negative only; neutral is what neither claims strongly. Emotions stay lexical. */
export async function sentimentWithWorkersAi(env: Bindings, text: string): Promise<SentimentResult> {
  const output = await runModel<{ label: string; score: number }[]>(env, modelFor(env, "AI_MODEL_SENTIMENT"), { text });
  const score = (label: string) => output.find((o) => o.label.toUpperCase() === label)?.score;
  const positive = score("POSITIVE");
  const negative = score("NEGATIVE");
  if (positive === undefined || negative === undefined) throw new Error("distilbert-sst-2 answered without both labels");
  const neutral = Math.max(0, 1 - 2 * Math.abs(positive - negative));
  const scores = shares(["positive", "neutral", "negative"], [positive, neutral, negative]) as SentimentResult["scores"];
  const [overallSentiment, confidence] = topScore(scores);
  const { emotions } = analyzeSentiment(text);
  return { overallSentiment, confidence, scores, emotions };
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
 * A label of `labels` from the instruction model, with its confidence: the other labels share
 * the rest, and a confidence below an even share is taken as an even share, so the label chosen
 * is always the top score.
 */
async function labelWithWorkersAi(env: Bindings, text: string, classifier: Classifier, labels: readonly string[]): Promise<Classification> {
  const shape = z.object({ label: z.enum(labels as [string, ...string[]]), confidence: z.number().min(0).max(1) });
  const task =
    classifier === "spam"
      ? "Is the user's text spam (unsolicited advertising, scams, phishing) or ham (a normal message)?"
      : `Which ${classifier} does the user's text have?`;
  const { label, confidence } = await instructedAnswer(
    env,
    `${task} Answer with one label of: ${labels.join(", ")}, and your confidence from 0 to 1. Answer with JSON only.`,
    text,
    shape,
    64,
  );
  const top = Math.max(confidence, 1 / labels.length);
  const scores = Object.fromEntries(labels.map((l) => [l, roundScore(l === label ? top : (1 - top) / (labels.length - 1))]));
  return { classification: label, confidence: roundScore(top), scores, method: "workers-ai-model" };
}

/**
 * Custom categories by embedding similarity; the sentiment classifier by the sentiment model; spam,
 * topic and intent (or those of their labels named in `categories`) by the instruction model.
 */
export async function classifyWithWorkersAi(
  env: Bindings,
  text: string,
  classifier: Classifier,
  categories?: readonly string[],
): Promise<Classification> {
  const known = CLASSIFIER_LABELS[classifier];
  if (classifier !== "sentiment" && (!categories || categories.every((c) => known.includes(c.toLowerCase())))) {
    return labelWithWorkersAi(env, text, classifier, categories?.map((c) => c.toLowerCase()) ?? known);
  }
  if (categories) {
    const output = await runModel<{ data?: number[][] }>(env, modelFor(env, "AI_MODEL_EMBEDDINGS"), { text: [text, ...categories] });
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
  const result = await sentimentWithWorkersAi(env, text);
  const scores = shares(["negative", "positive"], [result.scores.negative, result.scores.positive]);
  const [classification, confidence] = topScore(scores);
  return { classification, confidence, scores, method: "workers-ai-model" };
}
