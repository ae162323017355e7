import { z } from "zod";
import type { Bindings } from "../platform/env";
import { notConfigured } from "../platform/errors";
import { logEvent } from "../platform/logging";
import { providerUrl, settingsOf } from "../platform/settings";

export const ENGINES = ["embedded", "workers-ai"] as const;
export type Engine = (typeof ENGINES)[number];

/** A Workers AI model id, as its catalogue writes them: `@cf/meta/llama-3.1-8b-instruct`. */
const modelId = z.string().regex(/^@(?:cf|hf)\/[\w.-]+\/[\w.-]+$/, { error: "must be a Workers AI model id such as @cf/meta/llama-3.1-8b-instruct" });

/** The Workers AI model of each task, unless a setting names another (docs/intelligence.md, "Two engines"). */
export const DEFAULT_MODELS = {
  AI_MODEL_SUMMARY: "@cf/facebook/bart-large-cnn",
  AI_MODEL_SENTIMENT: "@cf/huggingface/distilbert-sst-2-int8",
  AI_MODEL_EMBEDDINGS: "@cf/baai/bge-small-en-v1.5",
  AI_MODEL_TRANSLATION: "@cf/meta/m2m100-1.2b",
  // Bullet summaries, named entities, spam, topic and intent: an instruction model answering in JSON mode.
  AI_MODEL_INSTRUCT: "@cf/meta/llama-3.1-8b-instruct",
} as const;
export type ModelTask = keyof typeof DEFAULT_MODELS;

/** Group I's settings: the engines', their models' and the translators'. */
export const intelligenceSettings = z.object({
  AI_MODEL_SUMMARY: modelId.optional(),
  AI_MODEL_SENTIMENT: modelId.optional(),
  AI_MODEL_EMBEDDINGS: modelId.optional(),
  AI_MODEL_TRANSLATION: modelId.optional(),
  AI_MODEL_INSTRUCT: modelId.optional(),
  /** "workers-ai" makes Workers AI the default engine (default "embedded"). */
  AI_ENGINE: z.enum(ENGINES).optional(),
  /** How long a Workers AI or translation call may take before it is given up (default 10000 ms). */
  AI_TIMEOUT_MS: z.coerce.number().int().positive({ error: "must be a positive number of milliseconds" }).optional(),
  /** Unset, the first provider configured is used. */
  TRANSLATION_PROVIDER: z.enum(["workers-ai", "libretranslate", "openai"]).optional(),
  // A self-hosted LibreTranslate is often on a private network, over http.
  LIBRETRANSLATE_URL: providerUrl.optional(),
  LIBRETRANSLATE_API_KEY: z.string().optional(),
  /** An OpenAI-compatible API: base URL up to /v1, key and chat model. */
  OPENAI_BASE_URL: providerUrl.optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_MODEL: z.string().optional(),
});

/** What the engine settings of the Worker decide for a request that names no engine. */
export function defaultEngine(env: Bindings): Engine {
  return settingsOf(env, intelligenceSettings).AI_ENGINE === "workers-ai" && env.AI ? "workers-ai" : "embedded";
}

/** The model that answers `task` on Workers AI: its setting, else the default. */
export const modelFor = (env: Bindings, task: ModelTask): string => settingsOf(env, intelligenceSettings)[task] ?? DEFAULT_MODELS[task];

const DEFAULT_TIMEOUT_MS = 10_000;
export const aiTimeoutMs = (env: Bindings) => settingsOf(env, intelligenceSettings).AI_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS;

/** The Workers AI binding, or a 503 that says how to configure it. */
export function workersAi(env: Bindings): Ai {
  if (!env.AI) throw notConfigured('engine: workers-ai needs the Workers AI binding AI ([ai] binding = "AI" in wrangler.toml)');
  return env.AI;
}

/** A Workers AI call that gives up after AI_TIMEOUT_MS. */
export async function runModel<T>(env: Bindings, model: string, input: Record<string, unknown>): Promise<T> {
  const ai = workersAi(env) as unknown as { run(model: string, input: Record<string, unknown>): Promise<T> };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Workers AI ${model} timed out after ${aiTimeoutMs(env)} ms`)), aiTimeoutMs(env));
  });
  try {
    return await Promise.race([ai.run(model, input), timeout]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export interface Answer<T> {
  engine: Engine;
  result: T;
}

/**
 * Runs the task on the requested engine. Workers AI that fails or times out falls back to the
 * embedded engine; the answer says which engine produced it, and the log says why.
 */
export async function answerWith<T>(
  env: Bindings,
  requested: Engine | undefined,
  tasks: { embedded: () => T | Promise<T>; workersAi: () => Promise<T> },
): Promise<Answer<T>> {
  const engine = requested ?? defaultEngine(env);
  if (engine === "embedded") return { engine, result: await tasks.embedded() };
  workersAi(env);
  try {
    return { engine, result: await tasks.workersAi() };
  } catch (error) {
    logEvent("warn", { event: "workers-ai-fallback", error: error instanceof Error ? error.message : String(error) });
    return { engine: "embedded", result: await tasks.embedded() };
  }
}
