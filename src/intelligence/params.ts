import { z } from "@hono/zod-openapi";
import { ENGINES } from "./engines";
import { sentences } from "./text";
import { CLASSIFIERS, ENTITY_TYPES, ERROR_CORRECTION_LEVELS, QR_FORMATS } from "./vocabulary";

/**
 * The longest text each endpoint takes, in characters, checked before any work. Each is what the
 * embedded engine analyses in about 100 ms on the reference machine (docs/intelligence.md), so
 * that no request holds the isolate for long: NER's English model is the slowest per character.
 */
export const TEXT_LIMITS = {
  summarize: 20_000,
  sentiment: 50_000,
  ner: 20_000,
  language: 50_000,
  classify: 50_000,
  keywords: 30_000,
} as const;

/** TextRank compares every pair of sentences; a text of many tiny ones is refused before that. */
export const MAX_SUMMARY_SENTENCES = 400;

const textOfAtMost = (limit: number) =>
  z
    .string({ error: "is required and must be a string" })
    .max(limit, { error: `must be at most ${limit} characters` })
    .refine((t) => t.trim().length > 0, { error: "must not be empty" })
    .openapi({ example: "Cloudflare Workers run code in data centres close to the people who use it." });

const engine = z
  .enum(ENGINES, { error: `must be one of ${ENGINES.join(", ")}` })
  .optional()
  .openapi({ description: "Default: the AI_ENGINE setting, else embedded" });

const languageCode = z.string().regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/, { error: "must be a language code such as en, de or zh-CN" });

const DEFAULT_MIN_SUMMARY_WORDS = 40;

export const summarizeParams = z
  .strictObject({
    text: textOfAtMost(TEXT_LIMITS.summarize)
      .refine((t) => sentences(t).length <= MAX_SUMMARY_SENTENCES, { error: `must have at most ${MAX_SUMMARY_SENTENCES} sentences` })
      .openapi({ description: `At most ${TEXT_LIMITS.summarize} characters and ${MAX_SUMMARY_SENTENCES} sentences` }),
    maxLength: z
      .number({ error: "must be an integer" })
      .min(5, { error: "must be at least 5" })
      .max(2000, { error: "must be at most 2000" })
      .int({ error: "must be an integer" })
      .default(150)
      .openapi({ description: "Words" }),
    minLength: z
      .number({ error: "must be an integer" })
      .min(0, { error: "must be 0 or more" })
      .max(2000, { error: "must be at most 2000" })
      .int({ error: "must be an integer" })
      .optional()
      .openapi({ description: `Words; by default ${DEFAULT_MIN_SUMMARY_WORDS}, or maxLength when that is smaller` }),
    style: z.enum(["paragraph", "bullet"], { error: "must be paragraph or bullet" }).default("paragraph"),
    engine,
  })
  .refine((p) => p.minLength === undefined || p.minLength <= p.maxLength, { error: "must not be greater than maxLength", path: ["minLength"] })
  // A short maxLength alone (the reference's example asks for 20 words) is not refused for the default's sake.
  .transform((p) => ({ ...p, minLength: p.minLength ?? Math.min(DEFAULT_MIN_SUMMARY_WORDS, p.maxLength) }));

export const sentimentParams = z.strictObject({ text: textOfAtMost(TEXT_LIMITS.sentiment), language: languageCode.optional(), engine });

export const nerParams = z.strictObject({
  text: textOfAtMost(TEXT_LIMITS.ner),
  entities: z
    .array(z.enum(ENTITY_TYPES, { error: `each must be one of ${ENTITY_TYPES.join(", ")}` }), { error: "must be an array of entity types" })
    .min(1, { error: "must name at least one entity type" })
    .optional(),
  engine,
});

export const qrCodeParams = z.strictObject({
  data: z
    .string({ error: "is required and must be a string" })
    .min(1, { error: "must not be empty" })
    .max(7089, { error: "must be at most 7089 characters" }),
  size: z
    .number({ error: "must be an integer" })
    .min(64, { error: "must be at least 64" })
    .max(2048, { error: "must be at most 2048" })
    .int({ error: "must be an integer" })
    .default(300),
  logoBase64: z
    .string({ error: "must be a base64 string" })
    .max(1_400_000, { error: "must be at most 1 MB of image" })
    .optional()
    .openapi({ description: "PNG or JPEG, at most 1 MB and 512×512 pixels (refused by its header's size before decoding)" }),
  foregroundColor: z.string({ error: "must be a hex colour" }).default("#000000"),
  backgroundColor: z.string({ error: "must be a hex colour" }).default("#FFFFFF"),
  errorCorrection: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(ERROR_CORRECTION_LEVELS, { error: "must be one of L, M, Q, H" }))
    .default("H"),
  format: z
    .string({ error: "must be png or svg" })
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(QR_FORMATS, { error: "must be png or svg" }))
    .default("png")
    .openapi({ description: "png (the default) or svg: the same code, logo included, as an SVG document drawn at `size` pixels" }),
});

export const languageDetectParams = z.strictObject({ text: textOfAtMost(TEXT_LIMITS.language) });

export const classifyParams = z.strictObject({
  text: textOfAtMost(TEXT_LIMITS.classify),
  classifier: z.enum(CLASSIFIERS, { error: `is required and must be one of ${CLASSIFIERS.join(", ")}` }),
  categories: z
    .array(z.string().trim().min(1, { error: "must not be empty" }).max(100, { error: "must be at most 100 characters" }), {
      error: "must be an array of category names",
    })
    .min(2, { error: "must name at least two categories" })
    .max(50, { error: "must name at most 50 categories" })
    .refine((list) => new Set(list.map((c) => c.toLowerCase())).size === list.length, { error: "must not repeat a category" })
    .optional(),
  engine,
});

export const keywordsParams = z.strictObject({
  text: textOfAtMost(TEXT_LIMITS.keywords),
  maxKeywords: z
    .number({ error: "must be an integer" })
    .min(1, { error: "must be at least 1" })
    .max(100, { error: "must be at most 100" })
    .int({ error: "must be an integer" })
    .default(10),
  includePhrases: z.boolean({ error: "must be true or false" }).default(true),
});

const BASE64_DOCUMENT_CHARACTERS = Math.ceil((10 * 1024 * 1024) / 3) * 4;

export const FILE_TYPES = ["docx", "pptx", "xlsx", "pdf", "txt"] as const;

export const translateDocumentParams = z.strictObject({
  documentBase64: z
    .string({ error: "is required and must be a base64 string" })
    .min(1, { error: "must not be empty" })
    // Base64 of the 10 MB the interface allows; the decoded size is checked again.
    .max(BASE64_DOCUMENT_CHARACTERS, { error: "must be at most 10 MB of document" }),
  fileType: z.enum(FILE_TYPES, { error: `is required and must be one of ${FILE_TYPES.join(", ")}` }),
  sourceLang: languageCode.optional(),
  targetLang: languageCode,
  preserveFormatting: z.boolean({ error: "must be true or false" }).default(true),
});
