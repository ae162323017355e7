import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../platform/env";
import { badRequest } from "../platform/errors";
import { createRouter } from "../platform/openapi";
import { styleFRoutes } from "../platform/style-f";
import { decodeBase64Field, toBase64 } from "../platform/crypto";
import { oneAtATime } from "./compute-gate";
import { answerWith } from "./engines";
import { joinSentences } from "./text";
import {
  classifyParams,
  keywordsParams,
  languageDetectParams,
  nerParams,
  qrCodeParams,
  sentimentParams,
  summarizeParams,
  translateDocumentParams,
} from "./params";
import {
  classifySchema,
  type entitySchema,
  keywordsSchema,
  languageDetectSchema,
  nerSchema,
  qrCodeSchema,
  sentimentSchema,
  summarySchema,
  translatedDocumentSchema,
} from "./schema";
import { languageSupportFor, roundScore } from "./scores";
import { ENTITY_TYPES, PATTERN_TYPES } from "./vocabulary";

// The engines (language tables, NLP, PDF and image libraries) are imported where they are used:
// a new isolate that answers a tax lookup never evaluates them.

export const INTELLIGENCE_BASE_PATH = "/std/ai";

/** The embedded models of I3 and I7 learned English only; other languages are refused, not guessed. */
async function requireEnglish(language: string, what: string, declared: boolean) {
  if (language !== "en") {
    const { languageName } = await import("./language");
    // Whose word it is: the caller's `language`, or what detection found in the text.
    const which = declared ? `the language given is` : `the text reads as`;
    throw badRequest(`text: ${what} supports English only; ${which} ${languageName(language)} (${language})`);
  }
}

const ratio = (part: number, whole: number) => (whole ? roundScore(part / whole) : 0);

export function intelligenceRoutes() {
  const router = createRouter();
  const styleF = styleFRoutes(router, { tag: "I · Intelligence utilities", envelope: "ai", errors: [400, 401, 403, 413, 429, 502, 503] });
  const env = (c: Context<AppEnv>) => c.env;

  styleF({
    path: "/translate/document",
    summary: "I1 · Translate a docx, pptx, xlsx, pdf or txt document, keeping its layout",
    description: "Up to 10 MB of document. Needs a translation provider (docs/intelligence.md, document translation).",
    params: translateDocumentParams,
    example: { documentBase64: "VGhlIGhhcmJvdXIgZ2FsbGVyeSBvcGVucyB1bnRpbCBtaWRuaWdodC4=", fileType: "txt", sourceLang: "en", targetLang: "de" },
    data: translatedDocumentSchema,
    handle: async (c, p) => {
      const started = Date.now();
      const { translateDocument } = await import("./translation/documents");
      const result = await translateDocument(env(c), decodeBase64Field(p.documentBase64, "documentBase64"), p);
      return {
        translatedDocumentBase64: toBase64(result.document),
        originalFileType: p.fileType,
        sourceLang: result.sourceLang,
        targetLang: result.targetLang,
        characterCount: result.characterCount,
        processingTimeMs: Date.now() - started,
        engine: result.engine,
      };
    },
  });

  styleF({
    path: "/summarize",
    summary: "I2 · Extractive summary (TextRank), as a paragraph or bullets",
    params: summarizeParams,
    example: {
      text: "The harbour gallery in Hamburg opens until midnight on Saturday. Anna Schmidt of the city museum guides visitors every hour. Tickets cost 12 euros at the door.",
      maxLength: 20,
      style: "paragraph",
    },
    data: summarySchema,
    handle: async (c, p) => {
      const [{ textLanguage }, { summarize }, { summarizeWithWorkersAi }] = await Promise.all([
        import("./language"),
        import("./summarize"),
        import("./workers-ai"),
      ]);
      const language = textLanguage(p.text);
      const { engine, result } = await answerWith(env(c), p.engine, {
        embedded: () => oneAtATime(() => summarize(p.text, p)),
        workersAi: () => summarizeWithWorkersAi(env(c), p.text, p),
      });
      const summary = p.style === "bullet" ? result.sentences : joinSentences(result.sentences);
      return {
        summary,
        originalLength: result.originalLength,
        summaryLength: result.summaryLength,
        compressionRatio: ratio(result.summaryLength, result.originalLength),
        style: p.style,
        language,
        languageSupport: languageSupportFor(language),
        engine,
      };
    },
  });

  styleF({
    path: "/sentiment",
    summary: "I3 · Sentiment with confidence, scores and emotions (English)",
    params: sentimentParams,
    example: { text: "The guided tour was wonderful and the staff were very friendly." },
    data: sentimentSchema,
    handle: async (c, p) => {
      const [{ textLanguage }, { analyzeSentiment }, { sentimentWithWorkersAi }] = await Promise.all([
        import("./language"),
        import("./sentiment"),
        import("./workers-ai"),
      ]);
      const language = textLanguage(p.text, p.language);
      await requireEnglish(language, "sentiment analysis", p.language !== undefined);
      const { engine, result } = await answerWith(env(c), p.engine, {
        embedded: () => oneAtATime(() => analyzeSentiment(p.text)),
        workersAi: () => sentimentWithWorkersAi(env(c), p.text),
      });
      return {
        overallSentiment: result.overallSentiment,
        confidence: result.confidence,
        scores: result.scores,
        emotions: result.emotions,
        reliable: result.reliable,
        language,
        engine,
      };
    },
  });

  styleF({
    path: "/ner",
    summary: "I4 · Named entities with exact character offsets",
    params: nerParams,
    example: {
      text: "The harbour gallery in Hamburg opens until midnight on Saturday. Anna Schmidt of the city museum guides visitors every hour. Tickets cost 12 euros at the door.",
      entities: ["PERSON", "ORGANIZATION", "LOCATION", "MONEY"],
    },
    data: nerSchema,
    handle: async (c, p) => {
      const [{ textLanguage }, { entityTextLooksFamiliar, extractEntities }, { entitiesWithWorkersAi }] = await Promise.all([
        import("./language"),
        import("./entities"),
        import("./workers-ai"),
      ]);
      const language = textLanguage(p.text);
      // Names, places and dates need the English model; the pattern types work in any language.
      const searched = [...new Set((p.entities ?? ENTITY_TYPES).filter((t) => language === "en" || PATTERN_TYPES.includes(t)))];
      const { engine, result } = await answerWith<{ entities: z.output<typeof entitySchema>[]; reliable?: boolean }>(env(c), p.engine, {
        embedded: () =>
          oneAtATime(async () => ({
            entities: await extractEntities(p.text, searched, { patternsOnly: language !== "en" }),
            // Only the tagger's types depend on what it learned from; patterns read any text alike.
            reliable: searched.some((type) => !PATTERN_TYPES.includes(type)) ? entityTextLooksFamiliar(p.text) : true,
          })),
        workersAi: async () => ({ entities: await entitiesWithWorkersAi(env(c), p.text, searched) }),
      });
      return {
        entities: result.entities,
        entityTypesSearched: searched,
        reliable: result.reliable,
        language,
        languageSupport: languageSupportFor(language),
        engine,
      };
    },
  });

  styleF({
    path: "/qrcode/custom",
    summary: "I5 · QR code, PNG or SVG, with colours, error correction and an optional centred logo, decoded before it is returned",
    params: qrCodeParams,
    example: { data: "https://news.example.com/en/museum-night", size: 300, errorCorrection: "M", format: "svg" },
    data: qrCodeSchema,
    handle: async (_c, p) => {
      const { contrastRatio, parseHexColor, renderQrCode } = await import("./qrcode");
      const foreground = parseHexColor(p.foregroundColor);
      if (!foreground) throw badRequest("foregroundColor: must be a hex colour such as #000000 or #000");
      const background = parseHexColor(p.backgroundColor);
      if (!background) throw badRequest("backgroundColor: must be a hex colour such as #FFFFFF or #FFF");
      if (contrastRatio(foreground, background) < 3) {
        throw badRequest("foregroundColor: too close to backgroundColor for a scanner (contrast ratio below 3:1)");
      }
      const logo = p.logoBase64 === undefined ? undefined : decodeBase64Field(p.logoBase64, "logoBase64");
      const image = await oneAtATime(() =>
        renderQrCode({ data: p.data, size: p.size, foreground, background, errorCorrection: p.errorCorrection, logo, format: p.format }),
      );
      return {
        qrImageBase64: toBase64(image.file),
        mimeType: image.mimeType,
        width: image.width,
        height: image.height,
        errorCorrection: image.errorCorrection,
        encodedData: p.data,
        version: image.version,
        decoded: true as const,
      };
    },
  });

  styleF({
    path: "/language/detect",
    summary: "I6 · Language identification (60 languages)",
    params: languageDetectParams,
    example: { text: "Die Galerie am Hafen ist am Samstag bis Mitternacht geöffnet." },
    data: languageDetectSchema,
    handle: async (_c, p) => {
      const { detectLanguage } = await import("./language");
      const detected = await oneAtATime(() => detectLanguage(p.text));
      if (!detected) {
        return {
          detectedLanguage: "und",
          languageName: "Undetermined",
          confidence: 0,
          reliable: false,
          topCandidates: [],
          engine: "embedded" as const,
        };
      }
      return {
        detectedLanguage: detected.code,
        languageName: detected.name,
        confidence: detected.confidence,
        reliable: detected.reliable,
        topCandidates: detected.topCandidates,
        engine: "embedded" as const,
      };
    },
  });

  styleF({
    path: "/classify",
    summary: "I7 · Spam, sentiment, topic and intent classifiers; custom categories ranked by similarity",
    params: classifyParams,
    example: { text: "Win a free cruise now! Click here to claim your prize.", classifier: "spam" },
    data: classifySchema,
    handle: async (c, p) => {
      const [{ textLanguage }, { classify }, { classifyWithWorkersAi }] = await Promise.all([
        import("./language"),
        import("./classify"),
        import("./workers-ai"),
      ]);
      const language = textLanguage(p.text);
      await requireEnglish(language, "classification", false);
      const { engine, result } = await answerWith(env(c), p.engine, {
        embedded: () => oneAtATime(() => classify(p.text, p.classifier, p.categories)),
        workersAi: () => classifyWithWorkersAi(env(c), p.text, p.classifier, p.categories),
      });
      return { ...result, classifier: p.classifier, language, engine };
    },
  });

  styleF({
    path: "/keywords",
    summary: "I8 · Keywords and key phrases with scores and frequencies",
    params: keywordsParams,
    example: {
      text: "The harbour gallery in Hamburg opens until midnight on Saturday. Anna Schmidt of the city museum guides visitors every hour. Tickets cost 12 euros at the door.",
      maxKeywords: 5,
    },
    data: keywordsSchema,
    handle: async (_c, p) => {
      const [{ textLanguage }, { extractKeywords }] = await Promise.all([import("./language"), import("./keywords")]);
      const language = textLanguage(p.text);
      return {
        keywords: await oneAtATime(() => extractKeywords(p.text, p.maxKeywords, p.includePhrases)),
        language,
        languageSupport: languageSupportFor(language),
        engine: "embedded" as const,
      };
    },
  });

  return router;
}
