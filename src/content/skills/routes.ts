import { z } from "@hono/zod-openapi";
import { createRouter } from "../../platform/openapi";
import { tenantRoutes } from "../../platform/route";
import { languageCode } from "../params";
import { ARTICLE_STYLES, generateArticle, summarizeContent, translateContent } from "./service";
import { keyScope, siteInScope } from "../tenancy/scope";
import { CONTENT_ERROR_TEXTS } from "../error-texts";

export const SKILLS_BASE_PATH = "/api/skills";

/** Texts a skill takes: the length group I's summariser and translators are bounded to. */
const MAX_TEXT = 20_000;
const text = (name: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `${name} must not be empty` })
    .max(MAX_TEXT, { error: `${name} must be at most ${MAX_TEXT} characters` });
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });

/** C5–C7: the AI content skills, for tenant keys; they reach group I through its service functions. */
export function skillsRoutes() {
  const router = createRouter();
  const route = tenantRoutes(router, {
    tags: ["C · Content AI skills"],
    security: [{ TenantKey: [] }],
    errors: [400, 401, 403, 404, 415, 429, 503],
    errorTexts: CONTENT_ERROR_TEXTS,
  });
  route({
    method: "post",
    path: "/generate/article",
    summary: "C5 · Generate an article and save it as a draft of the site (scope content:write)",
    request: json(
      z
        .strictObject({
          siteId: z.number().int().positive(),
          topic: z
            .string()
            .trim()
            .min(3, { error: "topic must be at least 3 characters" })
            .max(200, { error: "topic must be at most 200 characters" }),
          words: z
            .number()
            .int()
            .min(100, { error: "words must be from 100 to 2000" })
            .max(2000, { error: "words must be from 100 to 2000" })
            .default(600),
          style: z.enum(ARTICLE_STYLES, { error: `style must be one of ${ARTICLE_STYLES.join(", ")}` }).default("news"),
          language: languageCode.optional().openapi({ description: "Default: the site's default language" }),
        })
        .openapi({ example: { siteId: 1, topic: "Museum night at the harbour gallery", words: 400, style: "news", language: "en" } }),
    ),
    data: z
      .object({
        contentId: z.number().int(),
        siteId: z.number().int(),
        status: z.string(),
        title: z.string(),
        slug: z.string(),
        language: z.string(),
        intro: z.string(),
        bodyMarkdown: z.string(),
        words: z.number().int(),
        engine: z.string(),
      })
      .openapi({
        example: {
          contentId: 57,
          siteId: 1,
          status: "draft",
          title: "Museum night at the harbour gallery",
          slug: "museum-night-at-the-harbour-gallery",
          language: "en",
          intro: "On Saturday the harbour gallery stays open until midnight, with guided tours every hour.",
          bodyMarkdown: "# Museum night at the harbour gallery\n\nOn Saturday the harbour gallery stays open until midnight…",
          words: 412,
          engine: "workers-ai:@cf/meta/llama-3.1-8b-instruct",
        },
      }),
    answer: "The draft",
    status: 201,
    errors: [502],
    handle: async (c) => {
      const input = c.req.valid("json");
      const scope = keyScope(c.get("principal"));
      const site = await siteInScope(c.get("db"), scope, input.siteId);
      return generateArticle(c.env, c.get("db"), scope, site, c.get("principal").userId, input);
    },
  });
  route({
    method: "post",
    path: "/generate/summary",
    summary: "C6 · Summarise a text in at most maxLength characters (group I's TextRank)",
    request: json(
      z
        .strictObject({
          content: text("content"),
          maxLength: z
            .number()
            // Said once for any number out of bounds, 1e308 too (past the safe integers int() checks for).
            .min(20, { error: "maxLength must be from 20 to 5000" })
            .max(5000, { error: "maxLength must be from 20 to 5000" })
            .int({ error: "maxLength must be a whole number from 20 to 5000" })
            .default(300),
        })
        .openapi({
          example: {
            content:
              "The harbour gallery in Hamburg opens until midnight on Saturday. Anna Schmidt of the city museum guides visitors every hour. Tickets cost 12 euros at the door.",
            maxLength: 120,
          },
        }),
    ),
    data: z.object({ summary: z.string(), length: z.number().int(), maxLength: z.number().int(), language: z.string() }).openapi({
      example: { summary: "The harbour gallery in Hamburg opens until midnight on Saturday.", length: 64, maxLength: 120, language: "en" },
    }),
    answer: "The summary",
    handle: async (c) => {
      const { content, maxLength } = c.req.valid("json");
      return summarizeContent(content, maxLength);
    },
  });
  route({
    method: "post",
    path: "/translate",
    summary: "C7 · Translate a text with group I's translation provider",
    request: json(
      z
        .strictObject({
          content: text("content"),
          targetLang: languageCode,
          sourceLang: languageCode.optional().openapi({ description: "Detected when not given" }),
        })
        .openapi({ example: { content: "The harbour gallery opens until midnight on Saturday.", targetLang: "de" } }),
    ),
    data: z.object({ content: z.string(), sourceLang: z.string(), targetLang: z.string(), provider: z.string() }).openapi({
      example: {
        content: "Die Galerie am Hafen ist am Samstag bis Mitternacht geöffnet.",
        sourceLang: "en",
        targetLang: "de",
        provider: "workers-ai",
      },
    }),
    answer: "The translation",
    errors: [502],
    handle: async (c) => {
      const { content, targetLang, sourceLang } = c.req.valid("json");
      return translateContent(c.env, content, targetLang, sourceLang);
    },
  });
  return router;
}
