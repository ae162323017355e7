/**
 * What group I offers the other groups (C's skills): summaries, language detection, translation
 * and text generation. Each loads its engine when called, not with the Worker.
 */
import { z } from "zod";
import type { Bindings } from "../platform/env";
import { ApiError, notConfigured } from "../platform/errors";
import { settingsOf } from "../platform/settings";
import { aiTimeoutMs, intelligenceSettings, runModel } from "./engines";
import { joinSentences } from "./text";

/** An extractive summary (TextRank) of at most `maxWords` words, in text order. */
export async function summaryOf(text: string, maxWords: number): Promise<string> {
  const [{ summarize }, { oneAtATime }] = await Promise.all([import("./summarize"), import("./compute-gate")]);
  const summary = await oneAtATime(() => summarize(text, { minLength: Math.min(maxWords, 10), maxLength: maxWords }));
  return joinSentences(summary.sentences);
}

/** The language of a text as an ISO 639-1 code ("en" when it cannot tell). */
export async function languageOf(text: string): Promise<string> {
  const { textLanguage } = await import("./language");
  return textLanguage(text);
}

/** A text translated by the configured provider (I1's), 503 naming the settings when there is none. */
export async function translateText(
  env: Bindings,
  text: string,
  sourceLang: string,
  targetLang: string,
): Promise<{ text: string; provider: string }> {
  const { translatorFor, translateAll } = await import("./translation/providers");
  const translator = translatorFor(env);
  // Paragraphs are translated one by one, so that a long text stays within a provider's limits.
  const paragraphs = text.split(/\n{2,}/);
  const translated = await translateAll(translator, paragraphs, sourceLang, targetLang);
  return { text: paragraphs.map((p) => translated.get(p) ?? p).join("\n\n"), provider: translator.provider };
}

export const GENERATION_NOT_CONFIGURED =
  'Text generation is not configured: bind Workers AI as AI ([ai] binding = "AI" in wrangler.toml), or set OPENAI_BASE_URL and OPENAI_API_KEY';

const WORKERS_AI_TEXT_MODEL = "@cf/meta/llama-3.1-8b-instruct";
const chatAnswer = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) });

/**
 * Text from a language model: Workers AI when bound, else an OpenAI-compatible endpoint from the
 * settings; 503 naming the settings when neither is, 502 when the model fails or says nothing.
 */
export async function generateText(env: Bindings, system: string, prompt: string, maxTokens: number): Promise<{ text: string; engine: string }> {
  if (env.AI) {
    const answer = await runModel<{ response?: string }>(env, WORKERS_AI_TEXT_MODEL, {
      messages: [
        { role: "system", content: system },
        { role: "user", content: prompt },
      ],
      max_tokens: maxTokens,
    }).catch((error: unknown) => {
      throw new ApiError(502, `Workers AI failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!answer.response?.trim()) throw new ApiError(502, "Workers AI answered with no text");
    return { text: answer.response.trim(), engine: "workers-ai" };
  }
  const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL } = settingsOf(env, intelligenceSettings);
  if (!OPENAI_BASE_URL || !OPENAI_API_KEY) throw notConfigured(GENERATION_NOT_CONFIGURED);
  let response: Response;
  try {
    response = await fetch(`${OPENAI_BASE_URL.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${OPENAI_API_KEY}` },
      body: JSON.stringify({
        model: OPENAI_MODEL ?? "gpt-4o-mini",
        max_tokens: maxTokens,
        messages: [
          { role: "system", content: system },
          { role: "user", content: prompt },
        ],
      }),
      signal: AbortSignal.timeout(Math.max(aiTimeoutMs(env), 30_000)),
    });
  } catch (error) {
    throw new ApiError(
      502,
      `The language model ${error instanceof Error && error.name === "TimeoutError" ? "did not answer in time" : "is not reachable"}`,
    );
  }
  if (!response.ok) throw new ApiError(502, `The language model answered HTTP ${response.status}`);
  const parsed = chatAnswer.safeParse(await response.json().catch(() => undefined));
  const text = parsed.success ? parsed.data.choices[0]!.message.content.trim() : "";
  if (!text) throw new ApiError(502, "The language model answered with no text");
  return { text, engine: "openai" };
}

/** A black-on-white QR code of `data` as a PNG (the mini-program sandbox's codes); the encoder loads on first use. */
export async function qrCodePng(data: string, size = 430): Promise<Uint8Array> {
  const [{ renderQrCode }, { oneAtATime }] = await Promise.all([import("./qrcode"), import("./compute-gate")]);
  const image = await oneAtATime(() => renderQrCode({ data, size, foreground: [0, 0, 0], background: [255, 255, 255], errorCorrection: "M" }));
  return image.file;
}
