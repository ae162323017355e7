import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { createRouter, idParam } from "../../platform/openapi";
import { Prebuilt, tenantRoutes } from "../../platform/route";
import { cachedAnswer } from "./cache";
import { categoryTree, listPublishedAsAsked, publishedContent, siteInfo } from "./service";
import { contentListQuery, siteIdQuery } from "../params";
import { contents } from "../schema";
import { inTenant, keyScope, siteForReaders } from "../tenancy/scope";
import { CONTENT_ERROR_TEXTS } from "../error-texts";

const contentItemSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    intro: z.string(),
    coverImages: z.string().nullable(),
    coverAlt: z.string().nullable().openapi({
      description: "What the cover shows, in the editor's words (its alt); null: the cover only decorates",
      example: "Lanterns along the harbour gallery at dusk",
    }),
    publishAt: z.string().nullable().openapi({ description: "ISO 8601, UTC" }),
    language: z.string(),
    tags: z.array(z.string()),
    categoryIds: z.array(z.number().int()),
  })
  .openapi("ContentItem");

const categoryNode = z
  .object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    children: z.array(z.looseObject({})).openapi({ description: "The subcategories, each a CategoryNode" }),
  })
  .openapi("CategoryNode", {
    example: {
      id: 2,
      name: "Culture",
      slug: "culture",
      description: "Exhibitions, concerts and the city's museums",
      children: [{ id: 3, name: "Museums", slug: "museums", description: null, children: [] }],
    },
  });

/** C1–C4 answer through the site's answer cache; the data is typed as the route's before it is stored. */
const cached = async <T>(c: Context<AppEnv>, site: Parameters<typeof cachedAnswer>[1], compute: () => Promise<T>) =>
  new Prebuilt<T>(await cachedAnswer(c, site, compute));

const now = () => new Date().toISOString();

/** C1–C4: the headless read API, for tenant keys, on any host. */
export function headlessRoutes() {
  const router = createRouter();
  const route = tenantRoutes(router, {
    tags: ["C · Content delivery"],
    security: [{ TenantKey: [] }],
    errors: [400, 401, 403, 404, 429],
    errorTexts: CONTENT_ERROR_TEXTS,
  });
  const answers = {
    headers: { ETag: { schema: { type: "string" as const } }, "Cache-Control": { schema: { type: "string" as const } } },
    more: { 304: { description: "Not modified (If-None-Match matched the ETag)" } },
  };
  route({
    ...answers,
    method: "get",
    path: "/api/mcp/contents",
    summary: "C1 · Published contents of a site, newest first",
    request: { query: contentListQuery },
    data: z.object({ items: z.array(contentItemSchema), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
    answer: "A page of contents",
    handle: async (c) => {
      const { siteId, page = 1, size = 20, ...filters } = c.req.valid("query");
      const scope = keyScope(c.get("principal"));
      const site = await siteForReaders(c.get("db"), scope, siteId);
      return cached(c, site, () => listPublishedAsAsked(c.get("db"), scope, site, { ...filters, page, size }, now()));
    },
  });
  route({
    ...answers,
    method: "get",
    path: "/api/mcp/contents/{id}",
    summary: "C2 · One published content with its body, categories, SEO and translations",
    request: { params: z.object({ id: idParam("id") }) },
    data: contentItemSchema.extend({
      siteId: z.number().int(),
      bodyHtml: z.string().openapi({ description: "Rendered from Markdown without raw HTML" }),
      categories: z.array(
        z.object({ id: z.number().int(), name: z.string().openapi({ example: "Culture" }), slug: z.string().openapi({ example: "culture" }) }),
      ),
      seo: z.object({
        title: z.string(),
        description: z.string().openapi({ example: "Guided tours until midnight at the harbour gallery." }),
        canonical: z.string().nullable(),
        noindex: z.boolean(),
      }),
      translations: z.array(z.object({ id: z.number().int(), language: z.string(), slug: z.string(), title: z.string() })),
    }),
    answer: "The content",
    handle: async (c) => {
      const { id } = c.req.valid("param");
      const scope = keyScope(c.get("principal"));
      const [found] = await c
        .get("db")
        .select({ siteId: contents.siteId })
        .from(contents)
        .where(inTenant(contents.tenantId, scope, eq(contents.id, id)))
        .limit(1);
      if (!found) throw new ApiError(404, `No published content with id ${id}`);
      const site = await siteForReaders(c.get("db"), scope, found.siteId).catch(() => {
        throw new ApiError(404, `No published content with id ${id}`);
      });
      return cached(c, site, () => publishedContent(c.get("db"), scope, id, now()));
    },
  });
  route({
    ...answers,
    method: "get",
    path: "/api/mcp/categories/tree",
    summary: "C3 · The category tree of a site",
    request: { query: siteIdQuery },
    data: z.array(categoryNode),
    answer: "Top-level categories, each with its children",
    handle: async (c) => {
      const scope = keyScope(c.get("principal"));
      const site = await siteForReaders(c.get("db"), scope, c.req.valid("query").siteId);
      return cached(c, site, () => categoryTree(c.get("db"), scope, site));
    },
  });
  route({
    ...answers,
    method: "get",
    path: "/api/mcp/site/info",
    summary: "C4 · A site's information, SEO defaults and menus",
    request: { query: siteIdQuery },
    data: z.object({
      id: z.number().int(),
      name: z.string().openapi({ example: "City Gazette" }),
      slug: z.string().openapi({ example: "city-gazette" }),
      domain: z.string().nullable().openapi({ example: "news.example.com" }),
      aliases: z.array(z.string()),
      defaultLanguage: z.string(),
      languages: z.array(z.string()),
      timezone: z.string(),
      theme: z.string(),
      seo: z.object({ titlePattern: z.string(), description: z.string().nullable(), image: z.string().nullable() }),
      analytics: z.boolean(),
      menus: z
        .array(z.object({ code: z.string(), items: z.array(z.unknown()) }))
        .openapi({ example: [{ code: "main", items: [{ label: "Culture", url: "/en/category/culture" }] }] }),
    }),
    answer: "The site",
    handle: async (c) => {
      const scope = keyScope(c.get("principal"));
      const site = await siteForReaders(c.get("db"), scope, c.req.valid("query").siteId);
      return cached(c, site, () => siteInfo(c.get("db"), scope, site));
    },
  });
  return router;
}
