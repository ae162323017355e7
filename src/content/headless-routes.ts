import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { ApiError } from "../platform/errors";
import { createRouter, idParam, tenantErrorResponses, tenantResponse } from "../platform/openapi";
import { cachedAnswer } from "./cache";
import { categoryTree, listPublished, publishedContent, siteInfo } from "./headless";
import { contentListQuery, siteIdQuery } from "./params";
import { contents } from "./schema";
import { inTenant, keyScope, siteForReaders } from "./tenancy";

const common = { tags: ["C · Content delivery"], security: [{ TenantKey: [] }] };
const errors = tenantErrorResponses(400, 401, 403, 404, 429);
const cached = { headers: { ETag: { schema: { type: "string" as const } }, "Cache-Control": { schema: { type: "string" as const } } } };

const contentItemSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    slug: z.string(),
    intro: z.string(),
    coverImages: z.string().nullable(),
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
  .openapi("CategoryNode");

const respond = <T extends z.ZodType>(data: T, description: string) => {
  const ok = tenantResponse(data, description);
  return { 200: { ...ok[200], ...cached }, 304: { description: "Not modified (If-None-Match matched the ETag)" }, ...errors };
};

const routes = {
  list: createRoute({
    ...common,
    method: "get",
    path: "/api/mcp/contents",
    summary: "C1 · Published contents of a site, newest first",
    request: { query: contentListQuery },
    responses: respond(
      z.object({ items: z.array(contentItemSchema), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
      "A page of contents",
    ),
  }),
  one: createRoute({
    ...common,
    method: "get",
    path: "/api/mcp/contents/{id}",
    summary: "C2 · One published content with its body, categories, SEO and translations",
    request: { params: z.object({ id: idParam("id") }) },
    responses: respond(
      contentItemSchema.extend({
        siteId: z.number().int(),
        bodyHtml: z.string().openapi({ description: "Rendered from Markdown without raw HTML" }),
        categories: z.array(z.object({ id: z.number().int(), name: z.string(), slug: z.string() })),
        seo: z.object({ title: z.string(), description: z.string(), canonical: z.string().nullable(), noindex: z.boolean() }),
        translations: z.array(z.object({ id: z.number().int(), language: z.string(), slug: z.string(), title: z.string() })),
      }),
      "The content",
    ),
  }),
  tree: createRoute({
    ...common,
    method: "get",
    path: "/api/mcp/categories/tree",
    summary: "C3 · The category tree of a site",
    request: { query: siteIdQuery },
    responses: respond(z.array(categoryNode), "Top-level categories, each with its children"),
  }),
  info: createRoute({
    ...common,
    method: "get",
    path: "/api/mcp/site/info",
    summary: "C4 · A site's information, SEO defaults and menus",
    request: { query: siteIdQuery },
    responses: respond(
      z.object({
        id: z.number().int(),
        name: z.string(),
        slug: z.string(),
        domain: z.string().nullable(),
        aliases: z.array(z.string()),
        defaultLanguage: z.string(),
        languages: z.array(z.string()),
        timezone: z.string(),
        theme: z.string(),
        seo: z.object({ titlePattern: z.string(), description: z.string().nullable(), image: z.string().nullable() }),
        analytics: z.boolean(),
        menus: z.array(z.object({ code: z.string(), items: z.array(z.unknown()) })),
      }),
      "The site",
    ),
  }),
};

const now = () => new Date().toISOString();

/** C1–C4: the headless read API, for tenant keys, on any host. */
export function headlessRoutes() {
  const router = createRouter();
  router.openapi(routes.list, async (c) => {
    const { siteId, page = 1, size = 20, ...filters } = c.req.valid("query");
    const scope = keyScope(c.var.principal);
    const site = await siteForReaders(c.var.db, scope, siteId);
    return cachedAnswer(c, site, () => listPublished(c.var.db, scope, site, { ...filters, page, size }, now())) as never;
  });
  router.openapi(routes.one, async (c) => {
    const { id } = c.req.valid("param");
    const scope = keyScope(c.var.principal);
    const [found] = await c.var.db
      .select({ siteId: contents.siteId })
      .from(contents)
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id)))
      .limit(1);
    if (!found) throw new ApiError(404, `No published content with id ${id}`);
    const site = await siteForReaders(c.var.db, scope, found.siteId).catch(() => {
      throw new ApiError(404, `No published content with id ${id}`);
    });
    return cachedAnswer(c, site, () => publishedContent(c.var.db, scope, id, now())) as never;
  });
  router.openapi(routes.tree, async (c) => {
    const scope = keyScope(c.var.principal);
    const site = await siteForReaders(c.var.db, scope, c.req.valid("query").siteId);
    return cachedAnswer(c, site, () => categoryTree(c.var.db, scope, site)) as never;
  });
  router.openapi(routes.info, async (c) => {
    const scope = keyScope(c.var.principal);
    const site = await siteForReaders(c.var.db, scope, c.req.valid("query").siteId);
    return cachedAnswer(c, site, () => siteInfo(c.var.db, scope, site)) as never;
  });
  return router;
}
