import { z } from "@hono/zod-openapi";
import { ENGINES } from "./engines";
import { ENTITY_TYPES, ERROR_CORRECTION_LEVELS } from "./vocabulary";

const engine = z.enum(ENGINES).openapi({ description: "The engine that produced this answer" });
const score = z.number().min(0).max(1);
const language = z.string().openapi({ description: "ISO 639-1 code of the text's language (declared or detected)", example: "en" });
const languageSupport = z.enum(["full", "partial"]).openapi({
  description: "full: the embedded engine's English models applied; partial: only the language-independent parts did (docs/intelligence.md)",
});

export const summarySchema = z
  .object({
    summary: z
      .union([z.string(), z.array(z.string())])
      .openapi({ description: "A paragraph, or one bullet per sentence: the text's own sentences, without their asides in round brackets" }),
    originalLength: z.number().int().openapi({ description: "Words" }),
    summaryLength: z.number().int().openapi({ description: "Words" }),
    compressionRatio: z.number().openapi({ description: "summaryLength / originalLength" }),
    style: z.enum(["paragraph", "bullet"]),
    language,
    languageSupport,
    engine,
  })
  .openapi({
    example: {
      summary: "The harbour gallery in Hamburg opens until midnight on Saturday. Tickets cost 12 euros at the door.",
      originalLength: 27,
      summaryLength: 17,
      compressionRatio: 0.6296,
      style: "paragraph",
      language: "en",
      languageSupport: "full",
      engine: "embedded",
    },
  });

/** The embedded engine's judgement of its own answer; Workers AI's models are not tied to one training set, so their answers leave it out. */
const reliable = z.boolean().optional().openapi({
  description:
    'Embedded engine only: false when the text looks unlike what the model learned from (another script, a length outside most training texts, too few words the model knows), so the answer is a guess whatever its confidence (docs/intelligence.md, "Out of domain")',
});

export const sentimentSchema = z
  .object({
    overallSentiment: z.enum(["positive", "neutral", "negative"]),
    confidence: score,
    scores: z.object({ positive: score, neutral: score, negative: score }),
    emotions: z.record(z.string(), score).openapi({ example: { joy: 0.5, trust: 0.5, surprise: 0, sadness: 0, anger: 0, fear: 0, disgust: 0 } }),
    reliable,
    language,
    engine,
  })
  .openapi({
    example: {
      overallSentiment: "positive",
      confidence: 0.91,
      scores: { positive: 0.91, neutral: 0.07, negative: 0.02 },
      emotions: { joy: 0.5, trust: 0.5, surprise: 0, sadness: 0, anger: 0, fear: 0, disgust: 0 },
      reliable: true,
      language: "en",
      engine: "embedded",
    },
  });

/** UTF-16 offsets into the text as sent: `text === input.slice(startOffset, endOffset)`. */
export const entitySchema = z.object({
  text: z.string(),
  type: z.enum(ENTITY_TYPES),
  startOffset: z.number().int().openapi({ description: "UTF-16 index of the first character" }),
  endOffset: z.number().int().openapi({ description: "UTF-16 index after the last character" }),
  confidence: score.openapi({
    description:
      "PERSON, ORGANIZATION, LOCATION: the tagger's calibrated chance that span and type are right; the other types, a fixed estimate per type",
  }),
});

export const nerSchema = z
  .object({
    entities: z.array(entitySchema),
    entityTypesSearched: z.array(z.enum(ENTITY_TYPES)),
    reliable,
    language,
    languageSupport,
    engine,
  })
  .openapi({
    example: {
      entities: [
        { text: "Hamburg", type: "LOCATION", startOffset: 23, endOffset: 30, confidence: 0.93 },
        { text: "Anna Schmidt", type: "PERSON", startOffset: 65, endOffset: 77, confidence: 0.96 },
        { text: "12 euros", type: "MONEY", startOffset: 138, endOffset: 146, confidence: 0.9 },
      ],
      entityTypesSearched: ["PERSON", "ORGANIZATION", "LOCATION", "MONEY"],
      reliable: true,
      language: "en",
      languageSupport: "full",
      engine: "embedded",
    },
  });

export const qrCodeSchema = z
  .object({
    qrImageBase64: z
      .string()
      .openapi({ description: "The image file in base64: a PNG, or an SVG document (`data:<mimeType>;base64,…` shows either)" }),
    mimeType: z.enum(["image/png", "image/svg+xml"]),
    width: z.number().int(),
    height: z.number().int(),
    errorCorrection: z.enum(ERROR_CORRECTION_LEVELS).openapi({ description: "H whenever a logo was given" }),
    encodedData: z.string(),
    version: z.number().int().openapi({ description: "QR version (1–40): the number of modules is 17 + 4 × version" }),
    decoded: z.literal(true).openapi({
      description:
        "The image was decoded (jsQR, read at each module's centre) before it was returned and read back exactly `encodedData`; a code that does not is a 400, never returned",
    }),
  })
  .openapi({
    example: {
      qrImageBase64: "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIzMDAiIGhlaWdodD0iMzAwIiB2aWV3Qm94PSIwIDAgNDEgNDEi…",
      mimeType: "image/svg+xml",
      width: 300,
      height: 300,
      errorCorrection: "M",
      encodedData: "https://news.example.com/en/museum-night",
      version: 4,
      decoded: true,
    },
  });

export const languageCandidateSchema = z.object({ code: z.string(), name: z.string(), confidence: score });

export const languageDetectSchema = z
  .object({
    detectedLanguage: z.string().openapi({ description: "ISO 639-1, or und when the text has nothing to tell by", example: "de" }),
    languageName: z.string(),
    confidence: score.openapi({ description: "The chance that detectedLanguage is right, calibrated on held-out sentences (docs/intelligence.md)" }),
    reliable: z.boolean().openapi({ description: "confidence is at or above the threshold at which 98 % of held-out answers were right" }),
    topCandidates: z
      .array(languageCandidateSchema)
      .openapi({ description: "Best first; none above the winner; what they leave of 1 is the chance of a language outside the 60" }),
    engine,
  })
  .openapi({
    example: {
      detectedLanguage: "de",
      languageName: "German",
      confidence: 0.99,
      reliable: true,
      topCandidates: [
        { code: "de", name: "German", confidence: 0.99 },
        { code: "nl", name: "Dutch", confidence: 0.01 },
      ],
      engine: "embedded",
    },
  });

export const classifySchema = z
  .object({
    classification: z.string(),
    confidence: score,
    scores: z.record(z.string(), score),
    classifier: z.string(),
    // How the labels were scored: a trained model, or similarity to custom category names.
    method: z.enum(["logistic-regression", "naive-bayes", "similarity", "embeddings", "workers-ai-model"]),
    spamIndicators: z.array(z.string()).optional(),
    reliable: reliable.openapi({
      description:
        'Spam and sentiment on the embedded engine only: false when the text looks unlike what the model learned from (another script, a length outside most training texts, too few words the model knows); docs/intelligence.md, "Out of domain"',
    }),
    language,
    engine,
  })
  .openapi({
    example: {
      classification: "spam",
      confidence: 0.97,
      scores: { spam: 0.97, ham: 0.03 },
      classifier: "spam",
      method: "logistic-regression",
      spamIndicators: ["free", "click here", "claim your prize"],
      reliable: true,
      language: "en",
      engine: "embedded",
    },
  });

export const keywordSchema = z.object({ term: z.string(), score, frequency: z.number().int() });

export const keywordsSchema = z
  .object({
    keywords: z.array(keywordSchema),
    language,
    languageSupport,
    engine,
  })
  .openapi({
    example: {
      keywords: [
        { term: "harbour gallery", score: 1, frequency: 1 },
        { term: "city museum", score: 0.82, frequency: 1 },
        { term: "tickets", score: 0.41, frequency: 1 },
      ],
      language: "en",
      languageSupport: "full",
      engine: "embedded",
    },
  });

export const translatedDocumentSchema = z
  .object({
    translatedDocumentBase64: z.string(),
    originalFileType: z.string(),
    sourceLang: z.string(),
    targetLang: z.string(),
    characterCount: z.number().int().openapi({ description: "Characters sent for translation" }),
    processingTimeMs: z.number().int(),
    engine: z
      .enum(["workers-ai", "libretranslate", "openai"])
      .openapi({ description: "The translation provider; translation has no embedded engine" }),
  })
  .openapi({
    example: {
      translatedDocumentBase64: "RGllIEdhbGVyaWUgYW0gSGFmZW4gaXN0IGJpcyBNaXR0ZXJuYWNodCBnZcO2ZmZuZXQu",
      originalFileType: "txt",
      sourceLang: "en",
      targetLang: "de",
      characterCount: 41,
      processingTimeMs: 820,
      engine: "workers-ai",
    },
  });
