import { and, eq, inArray, ne } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { listPublished } from "../delivery/service";
import { categories, contents, contentTags, type ContentTag, type Site } from "../schema";
import { memberScope } from "../tenancy/scope";

/**
 * The content tags as templates read them (`menus.<code>`, `tags.<name>`), resolved before a page
 * renders; the console's preview shows the same values.
 */

interface MenuItem {
  label: string;
  link: { category?: number; content?: number; tag?: string; url?: string };
  children?: MenuItem[];
}

/** Menus with every link made a URL of the site. */
export async function resolvedMenus(db: Database, site: Site) {
  const menus = await db
    .select()
    .from(contentTags)
    .where(and(eq(contentTags.tenantId, site.tenantId), eq(contentTags.siteId, site.id), eq(contentTags.type, "menu")));
  if (!menus.length) return {};
  // Only the contents the menus name are read, not every content of the site.
  const named = (items: MenuItem[]): number[] =>
    items.flatMap((item) => [...(item.link.content !== undefined ? [item.link.content] : []), ...named(item.children ?? [])]);
  const contentIds = [...new Set(menus.flatMap((m) => named((m.definition as { items: MenuItem[] }).items)))];
  const [cats, linked] = await Promise.all([
    db
      .select({ id: categories.id, slug: categories.slug })
      .from(categories)
      .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id))),
    contentIds.length
      ? db
          .select({ id: contents.id, slug: contents.slug, language: contents.language })
          .from(contents)
          .where(and(eq(contents.tenantId, site.tenantId), eq(contents.siteId, site.id), inArray(contents.id, contentIds)))
      : Promise.resolve([]),
  ]);
  const contentUrl = (id: number) => {
    const found = linked.find((c) => c.id === id);
    if (!found) return "/";
    return found.language === site.defaultLanguage ? `/${found.slug}` : `/${found.language}/${found.slug}`;
  };
  const urlOf = (link: MenuItem["link"]) =>
    link.url ??
    (link.category !== undefined
      ? `/c/${cats.find((c) => c.id === link.category)?.slug ?? ""}`
      : link.content !== undefined
        ? contentUrl(link.content)
        : `/tag/${encodeURIComponent(link.tag ?? "")}`);
  const resolve = (items: MenuItem[]): unknown[] =>
    items.map((item) => ({ label: item.label, url: urlOf(item.link), children: resolve(item.children ?? []) }));
  return Object.fromEntries(menus.map((m) => [m.name, resolve((m.definition as { items: MenuItem[] }).items)]));
}

interface TagDefinition {
  categories?: number[];
  tags?: string[];
  order?: "newest" | "oldest" | "title";
  limit?: number;
}

/**
 * The site's taxonomy and posts tags, resolved for templates (`tags.<name>`): a taxonomy's
 * categories (with URLs) and tag names, a posts query's contents. Only the names the theme's
 * templates read are resolved (themes.ts `tagNamesRead`): a page does no query for a tag it never shows.
 */
export async function resolvedTags(db: Database, site: Site, now: string, names: ReadonlySet<string> | "all") {
  const resolved: Record<string, unknown> = {};
  if (names !== "all" && names.size === 0) return resolved;
  const named = names === "all" ? [] : [inArray(contentTags.name, [...names])];
  const tags = await db
    .select()
    .from(contentTags)
    .where(and(eq(contentTags.tenantId, site.tenantId), eq(contentTags.siteId, site.id), ne(contentTags.type, "menu"), ...named));
  for (const tag of tags) resolved[tag.name] = await resolvedTag(db, site, tag, now);
  return resolved;
}

/** What a template reads as `tags.<name>` for one taxonomy or posts tag. */
export async function resolvedTag(db: Database, site: Site, tag: ContentTag, now: string): Promise<unknown> {
  const definition = tag.definition as TagDefinition;
  if (tag.type === "taxonomy") {
    const cats = definition.categories?.length
      ? await db
          .select({ id: categories.id, name: categories.name, slug: categories.slug })
          .from(categories)
          .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id), inArray(categories.id, definition.categories)))
      : [];
    return {
      categories: cats.map((cat) => ({ ...cat, url: `/c/${cat.slug}` })),
      tags: (definition.tags ?? []).map((name) => ({ name, url: `/tag/${encodeURIComponent(name)}` })),
    };
  }
  const categoryId = definition.categories?.[0];
  // A category deleted since the tag was saved resolves to no contents: one stale tag never takes every page of the site down.
  if (categoryId !== undefined) {
    const [exists] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id), eq(categories.id, categoryId)))
      .limit(1);
    if (!exists) return [];
  }
  const list = await listPublished(
    db,
    memberScope(site.tenantId),
    site,
    { categoryId, tag: definition.tags?.[0], page: 1, size: definition.limit ?? 10 },
    now,
  );
  const items = list.items.map((i) => ({ ...i, url: `/${i.slug}` }));
  if (definition.order === "oldest") items.reverse();
  if (definition.order === "title") items.sort((a, b) => a.title.localeCompare(b.title));
  return items;
}
