import { and, count, desc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { categories, contentCategories, contents, contentTags, type Category, type Content, type Site } from "../schema";
import { MAX_TAG_LENGTH } from "../params";
import { tagKey, tagSpellings } from "../tag-spellings";
import { inTenant, type ReaderSite, type TenantScope } from "../tenancy/scope";

/**
 * Public from `publishAt` on: a scheduled content appears when its time passes, with no cron.
 * `previewId`: a content shown whatever its status, to whoever holds its preview link. A content in the
 * Trash is never public, not even previewed.
 */
export const isPublic = (now: string, previewId?: number) => {
  const open = and(inArray(contents.status, ["published", "scheduled"]), lte(contents.publishAt, now));
  return and(isNull(contents.deletedAt), previewId === undefined ? open : or(open, eq(contents.id, previewId)));
};

export interface ContentQuery {
  categoryId?: number;
  tag?: string;
  language?: string;
  q?: string;
  page: number;
  size: number;
}

/** The interface's content item, with what a site's list pages need besides. */
export function contentItem(content: Content, categoryIds: number[]) {
  return {
    id: content.id,
    title: content.title,
    slug: content.slug,
    intro: content.intro,
    coverImages: content.coverImages,
    coverAlt: content.coverAlt || null,
    publishAt: content.publishAt,
    language: content.language,
    tags: content.tags,
    categoryIds,
  };
}

/** A category and every category below it. */
function withDescendants(all: Category[], rootId: number): number[] {
  const ids = [rootId];
  for (let i = 0; i < ids.length; i++) for (const c of all) if (c.parentId === ids[i]) ids.push(c.id);
  return ids;
}

async function categoryIdsOf(db: Database, scope: TenantScope, contentIds: number[]): Promise<Map<number, number[]>> {
  const byContent = new Map<number, number[]>(contentIds.map((id) => [id, []]));
  if (contentIds.length === 0) return byContent;
  const rows = await db
    .select()
    .from(contentCategories)
    .where(inTenant(contentCategories.tenantId, scope, inArray(contentCategories.contentId, contentIds)));
  for (const row of rows) byContent.get(row.contentId)?.push(row.categoryId);
  return byContent;
}

/** The site's own contents (its tenant's, never another's), narrowed by the given conditions. */
export const ofSite = (site: Pick<Site, "id" | "tenantId">, ...conditions: (SQL | undefined)[]) =>
  and(eq(contents.tenantId, site.tenantId), eq(contents.siteId, site.id), ...conditions);

/**
 * How the site's public contents (in `language`, when given) spell a tag, asked in another case or
 * with dashes for spaces (`bibliothek`, `öffnungszeiten`, `river-festival`): a tag page of that
 * language exists for it. One longer than any tag may be is none, unlooked-for.
 */
export async function tagAsSpelled(db: Database, site: Site, tag: string, language: string | undefined, now: string): Promise<string | undefined> {
  if (tag.length > MAX_TAG_LENGTH) return undefined;
  return (await tagSpellings(db, ofSite(site, isPublic(now), language ? eq(contents.language, language) : undefined), [tag])).get(tagKey(tag));
}

/**
 * C1 as a caller asks it: a tag in any case and with a dash for a space (`night-life` finds
 * `Night Life`), as the site's tag pages lead there. The pages themselves ask for the spelling
 * exactly, and move another one's address to it.
 */
export async function listPublishedAsAsked(db: Database, scope: TenantScope, site: Site, query: ContentQuery, now: string) {
  const spelled = query.tag ? await tagAsSpelled(db, site, query.tag, query.language, now) : undefined;
  return listPublished(db, scope, site, spelled ? { ...query, tag: spelled } : query, now);
}

/** C1: the public contents of a site, newest first, a tag as it is spelled. */
export async function listPublished(db: Database, scope: TenantScope, site: Site, query: ContentQuery, now: string) {
  const filters: (SQL | undefined)[] = [eq(contents.siteId, site.id), isPublic(now)];
  if (query.categoryId !== undefined) {
    const siteCategories = await db
      .select()
      .from(categories)
      .where(inTenant(categories.tenantId, scope, eq(categories.siteId, site.id)));
    if (!siteCategories.some((c) => c.id === query.categoryId)) throw new ApiError(404, `No category with id ${query.categoryId} in site ${site.id}`);
    const ids = withDescendants(siteCategories, query.categoryId);
    filters.push(
      inArray(contents.id, db.select({ id: contentCategories.contentId }).from(contentCategories).where(inArray(contentCategories.categoryId, ids))),
    );
  }
  if (query.tag) filters.push(sql`EXISTS (SELECT 1 FROM json_each(${contents.tags}) WHERE value = ${query.tag})`);
  if (query.language) filters.push(eq(contents.language, query.language));
  if (query.q) {
    // A word of three letters or more also finds the longer words it begins: "markt" finds a German compound, "Markthalle".
    const words = (query.q.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => (w.length >= 3 ? `"${w}"*` : `"${w}"`));
    if (words.length === 0) throw new ApiError(400, "q: must contain a letter or digit");
    filters.push(sql`${contents.id} IN (SELECT rowid FROM contents_fts WHERE contents_fts MATCH ${words.join(" ")})`);
  }
  const where = inTenant(contents.tenantId, scope, ...filters);
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(contents)
      .where(where)
      .orderBy(desc(contents.publishAt), desc(contents.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(contents).where(where),
  ]);
  const categoryIds = await categoryIdsOf(
    db,
    scope,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => contentItem(r, categoryIds.get(r.id) ?? [])), total: total?.total ?? 0, page: query.page, size: query.size };
}

/** C2: one public content with its body, categories, SEO and translations; 404 for any other (but the one a preview shows). */
export async function publishedContent(db: Database, scope: TenantScope, id: number, now: string, previewId?: number) {
  const [content] = await db
    .select()
    .from(contents)
    .where(inTenant(contents.tenantId, scope, eq(contents.id, id), isPublic(now, previewId)))
    .limit(1);
  if (!content || (scope.siteIds && !scope.siteIds.includes(content.siteId))) throw new ApiError(404, `No published content with id ${id}`);
  const group = content.translationOf ?? content.id;
  const [linked, translations] = await db.batch([
    db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(contentCategories)
      .innerJoin(categories, eq(categories.id, contentCategories.categoryId))
      .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, content.id))),
    db
      .select({ id: contents.id, language: contents.language, slug: contents.slug, title: contents.title })
      .from(contents)
      .where(inTenant(contents.tenantId, scope, or(eq(contents.id, group), eq(contents.translationOf, group)), isPublic(now))),
  ]);
  return {
    ...contentItem(
      content,
      linked.map((c) => c.id),
    ),
    siteId: content.siteId,
    bodyHtml: content.bodyHtml,
    categories: linked,
    seo: {
      title: content.seoTitle ?? content.title,
      description: content.seoDescription ?? content.intro,
      canonical: content.canonical,
      noindex: content.noindex,
    },
    translations: translations.filter((t) => t.id !== content.id),
  };
}

// A type alias, not an interface: only an alias fits C3's documented children (objects with any keys).
export type CategoryNode = {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  children: CategoryNode[];
};

/** C3: a site's categories as a tree, each level in its order. */
export async function categoryTree(db: Database, scope: TenantScope, site: Site): Promise<CategoryNode[]> {
  const all = await db
    .select()
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, site.id)))
    .orderBy(categories.position, categories.id);
  const nodes = new Map(all.map((c) => [c.id, { id: c.id, name: c.name, slug: c.slug, description: c.description, children: [] as CategoryNode[] }]));
  const roots: CategoryNode[] = [];
  for (const c of all) (c.parentId !== null && nodes.has(c.parentId) ? nodes.get(c.parentId)!.children : roots).push(nodes.get(c.id)!);
  return roots;
}

/** C4: what a site's pages need to know of it: names, languages, domain, SEO defaults and menus. */
export async function siteInfo(db: Database, scope: TenantScope, site: ReaderSite) {
  const menus = await db
    .select({ name: contentTags.name, definition: contentTags.definition })
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.siteId, site.id), eq(contentTags.type, "menu")))
    .orderBy(contentTags.name);
  return {
    id: site.id,
    name: site.name,
    slug: site.slug,
    // Proved host names only: a claim still waiting for its DNS record reaches nobody.
    domain: site.hosts.find((h) => h.primary)?.host ?? null,
    aliases: site.hosts.filter((h) => !h.primary).map((h) => h.host),
    defaultLanguage: site.defaultLanguage,
    languages: site.languages,
    timezone: site.timezone,
    theme: site.theme,
    seo: { titlePattern: site.seoTitlePattern, description: site.seoDescription, image: site.seoImage },
    analytics: site.analytics,
    menus: menus.map((m) => ({ code: m.name, items: (m.definition as { items?: unknown[] }).items ?? [] })),
  };
}
