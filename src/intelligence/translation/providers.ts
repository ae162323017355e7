import type { Bindings } from "../../platform/env";
import { ApiError, notConfigured } from "../../platform/errors";
import { settingsOf } from "../../platform/settings";
import { aiTimeoutMs, intelligenceSettings, modelFor, runModel } from "../engines";

export const TRANSLATION_PROVIDERS = ["workers-ai", "libretranslate", "openai"] as const;
export type TranslationProvider = (typeof TRANSLATION_PROVIDERS)[number];

export interface Translator {
  provider: TranslationProvider;
  /** Translates each text; the answer has the same length and order. */
  translate(texts: string[], sourceLang: string, targetLang: string): Promise<string[]>;
}

const NOT_CONFIGURED =
  "Translation is not configured: set TRANSLATION_PROVIDER with LIBRETRANSLATE_URL, or OPENAI_BASE_URL and OPENAI_API_KEY, or bind Workers AI as AI";

const providerFailed = (provider: TranslationProvider, detail: string) => new ApiError(502, `Translation provider ${provider} failed: ${detail}`);

/** The configured translator: TRANSLATION_PROVIDER when set, else the first provider with settings. */
export function translatorFor(env: Bindings): Translator {
  const settings = settingsOf(env, intelligenceSettings);
  const chosen =
    settings.TRANSLATION_PROVIDER ??
    (env.AI
      ? "workers-ai"
      : settings.LIBRETRANSLATE_URL
        ? "libretranslate"
        : settings.OPENAI_BASE_URL && settings.OPENAI_API_KEY
          ? "openai"
          : undefined);
  switch (chosen) {
    case undefined:
      throw notConfigured(NOT_CONFIGURED);
    case "workers-ai":
      if (!env.AI)
        throw notConfigured('TRANSLATION_PROVIDER is workers-ai but the Workers AI binding AI is missing ([ai] binding = "AI" in wrangler.toml)');
      return workersAiTranslator(env);
    case "libretranslate":
      if (!settings.LIBRETRANSLATE_URL) throw notConfigured("TRANSLATION_PROVIDER is libretranslate but LIBRETRANSLATE_URL is not set");
      return libreTranslator(env, settings.LIBRETRANSLATE_URL);
    case "openai":
      if (!settings.OPENAI_BASE_URL || !settings.OPENAI_API_KEY)
        throw notConfigured("TRANSLATION_PROVIDER is openai but OPENAI_BASE_URL or OPENAI_API_KEY is not set");
      return openAiTranslator(env, settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY);
    default:
      throw notConfigured(`TRANSLATION_PROVIDER must be one of ${TRANSLATION_PROVIDERS.join(", ")}, not "${String(chosen)}"`);
  }
}

function workersAiTranslator(env: Bindings): Translator {
  return {
    provider: "workers-ai",
    async translate(texts, sourceLang, targetLang) {
      const out: string[] = [];
      // m2m100 takes one text a call; a few at a time keeps the document's order and the account's limits.
      for (let i = 0; i < texts.length; i += 4) {
        const batch = await Promise.all(
          texts.slice(i, i + 4).map(async (text) => {
            try {
              const result = await runModel<{ translated_text?: string }>(env, modelFor(env, "AI_MODEL_TRANSLATION"), {
                text,
                source_lang: sourceLang,
                target_lang: targetLang,
              });
              if (typeof result.translated_text !== "string") throw new Error("no translated_text in the answer");
              return result.translated_text;
            } catch (error) {
              throw providerFailed("workers-ai", error instanceof Error ? error.message : String(error));
            }
          }),
        );
        out.push(...batch);
      }
      return out;
    },
  };
}

async function postJson(
  provider: TranslationProvider,
  env: Bindings,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(aiTimeoutMs(env)),
    });
  } catch (error) {
    throw providerFailed(
      provider,
      error instanceof Error && error.name === "TimeoutError" ? `no answer within ${aiTimeoutMs(env)} ms` : "not reachable",
    );
  }
  if (!response.ok) throw providerFailed(provider, `HTTP ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw providerFailed(provider, "the answer is not JSON");
  }
}

function libreTranslator(env: Bindings, baseUrl: string): Translator {
  return {
    provider: "libretranslate",
    async translate(texts, sourceLang, targetLang) {
      const answer = (await postJson("libretranslate", env, `${baseUrl.replace(/\/$/, "")}/translate`, {
        q: texts,
        source: sourceLang,
        target: targetLang,
        format: "text",
        ...(settingsOf(env, intelligenceSettings).LIBRETRANSLATE_API_KEY
          ? { api_key: settingsOf(env, intelligenceSettings).LIBRETRANSLATE_API_KEY }
          : {}),
      })) as { translatedText?: unknown };
      const translated = answer.translatedText;
      if (!Array.isArray(translated) || translated.length !== texts.length || !translated.every((t) => typeof t === "string")) {
        throw providerFailed("libretranslate", "the answer does not hold one translation per text");
      }
      return translated;
    },
  };
}

function openAiTranslator(env: Bindings, baseUrl: string, apiKey: string): Translator {
  return {
    provider: "openai",
    async translate(texts, sourceLang, targetLang) {
      const answer = (await postJson(
        "openai",
        env,
        `${baseUrl.replace(/\/$/, "")}/chat/completions`,
        {
          model: settingsOf(env, intelligenceSettings).OPENAI_MODEL ?? "gpt-4o-mini",
          temperature: 0,
          messages: [
            {
              role: "system",
              content: `Translate each string of the JSON array the user sends from ${sourceLang} to ${targetLang}. Keep leading and trailing spaces, numbers and placeholders. Answer with a JSON array of exactly ${texts.length} strings in the same order and nothing else.`,
            },
            { role: "user", content: JSON.stringify(texts) },
          ],
        },
        { Authorization: `Bearer ${apiKey}` },
      )) as { choices?: { message?: { content?: string } }[] };
      const content = answer.choices?.[0]?.message?.content ?? "";
      let translated: unknown;
      try {
        translated = JSON.parse(
          content
            .trim()
            .replace(/^```(?:json)?/, "")
            .replace(/```$/, ""),
        );
      } catch {
        throw providerFailed("openai", "the model did not answer with a JSON array");
      }
      if (!Array.isArray(translated) || translated.length !== texts.length || !translated.every((t) => typeof t === "string")) {
        throw providerFailed("openai", "the model's array does not hold one translation per text");
      }
      return translated;
    },
  };
}

/** Batches of at most this many texts and characters a provider call. */
const BATCH_TEXTS = 50;
const BATCH_CHARACTERS = 8000;

/** Translates the distinct texts once each, in batches, and maps the results back. */
export async function translateAll(translator: Translator, texts: string[], sourceLang: string, targetLang: string): Promise<Map<string, string>> {
  const distinct = [...new Set(texts.filter((t) => t.trim()))];
  const result = new Map<string, string>();
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!batch.length) return;
    const translated = await translator.translate(batch, sourceLang, targetLang);
    batch.forEach((text, i) => result.set(text, translated[i]!));
    batch = [];
    size = 0;
  };
  for (const text of distinct) {
    if (batch.length >= BATCH_TEXTS || size + text.length > BATCH_CHARACTERS) await flush();
    batch.push(text);
    size += text.length;
  }
  await flush();
  return result;
}
