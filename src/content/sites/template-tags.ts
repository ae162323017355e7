import { and, eq, inArray, ne, or } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { isPublic, listPublished, ofSite } from "../delivery/service";
import { categories, contents, contentTags, type ContentTag, type Site } from "../schema";
import { memberScope } from "../tenancy/scope";
import { contentPath, inLanguage, languagePrefix, urlFor } from "./languages";
import { menuName } from "../menu-names";
import { siteCategories } from "./page-queries";
import { tagKey, tagSpellings } from "../tag-spellings";

/**
 * The content tags as templates read them (`menus.<code>`, `tags.<name>`), resolved before a page
 * renders; the console's preview shows the same values.
 */

interface MenuItem {
  label: string;
  link: { category?: number; content?: number; tag?: string; url?: string };
  children?: MenuItem[];
}

/**
 * The menus of a page in one language, every link made a URL of the site: for each `menus.<code>`,
 * the menu `<code>.<language>`, else `<code>`, else `<code>.<default language>`. Category and tag
 * links lead to the page's language; a content link to that content, in its own language. An item
 * whose content readers cannot open at `now` (a draft, not yet due, in the Trash, deleted) is left
 * out, with the items under it: a menu never leads to a missing page. A menu borrowed from another
 * language names its categories in the page's language and keeps the reader there (`/search` →
 * `/fr/search`).
 */
export async function resolvedMenus(db: Database, site: Site, now: string, language: string) {
  const rows = await db
    .select()
    .from(contentTags)
    .where(and(eq(contentTags.tenantId, site.tenantId), eq(contentTags.siteId, site.id), eq(contentTags.type, "menu")));
  const rank = (menuLanguage: string | null) =>
    menuLanguage === language ? 0 : menuLanguage === null ? 1 : menuLanguage === site.defaultLanguage ? 2 : 3;
  const chosen = new Map<string, { rank: number; items: MenuItem[]; written: string }>();
  for (const row of rows) {
    const { code, language: menuLanguage } = menuName(row.name);
    const candidate = {
      rank: rank(menuLanguage),
      items: (row.definition as { items: MenuItem[] }).items,
      written: menuLanguage ?? site.defaultLanguage,
    };
    if (candidate.rank < 3 && candidate.rank < (chosen.get(code)?.rank ?? 3)) chosen.set(code, candidate);
  }
  const menus = [...chosen].map(([code, { items, written }]) => ({ code, items, borrowed: written !== language }));
  return Object.fromEntries(await menuUrls(db, site, now, language, menus));
}

/** What `menus.<code>` is for one menu tag on a page in its own language: the console's preview. */
export async function resolvedMenu(db: Database, site: Site, tag: ContentTag, now: string) {
  const { code, language } = menuName(tag.name);
  const [menu] = await menuUrls(db, site, now, language ?? site.defaultLanguage, [
    { code, items: (tag.definition as { items: MenuItem[] }).items, borrowed: false },
  ]);
  return menu?.[1] ?? [];
}

/** A written address of a page the site has in each language: search, the feed, a category (a tag's words are a language's own). */
const IN_EVERY_LANGUAGE = /^\/(?:search(?:[?#]|$)|feed\.xml$|c\/)/;

/** Menus' items with URLs, in the page's language; `borrowed`, a menu of another language shown there. */
async function menuUrls(db: Database, site: Site, now: string, language: string, menus: { code: string; items: MenuItem[]; borrowed: boolean }[]) {
  if (!menus.length) return [];
  // Only the contents the menus name are read, not every content of the site.
  const named = (items: MenuItem[]): number[] =>
    items.flatMap((item) => [...(item.link.content !== undefined ? [item.link.content] : []), ...named(item.children ?? [])]);
  const contentIds = [...new Set(menus.flatMap((m) => named(m.items)))];
  const tagged = (items: MenuItem[]): string[] =>
    items.flatMap((item) => [
      ...(item.link.tag !== undefined && item.link.content === undefined ? [item.link.tag] : []),
      ...tagged(item.children ?? []),
    ]);
  const tagNames = [...new Set(menus.flatMap((m) => tagged(m.items)))];
  const [cats, linked, spellings] = await Promise.all([
    siteCategories(db, site),
    // The contents named, and their public versions in this page's language (a menu of another language links those).
    contentIds.length
      ? db
          .select({ id: contents.id, slug: contents.slug, language: contents.language, translationOf: contents.translationOf })
          .from(contents)
          .where(
            ofSite(
              site,
              isPublic(now),
              or(inArray(contents.id, contentIds), and(eq(contents.language, language), inArray(contents.translationOf, contentIds))),
            ),
          )
      : Promise.resolve([]),
    // A tag's page in this language lists its public contents in this language: with none, it is a 404.
    tagNames.length
      ? tagSpellings(db, ofSite(site, isPublic(now), eq(contents.language, language)), tagNames)
      : Promise.resolve(new Map<string, string>()),
  ]);
  const url = urlFor(site, language);
  // Null for a content readers cannot open, or a tag no public content of this language carries: its
  // item is left out, with the items under it.
  const urlOf = (link: MenuItem["link"], borrowed: boolean): string | null => {
    // "/" is the home of the page's language: a menu shared by the languages leads each to its own.
    if (link.url !== undefined) {
      if (link.url === "/") return url("home");
      return borrowed && IN_EVERY_LANGUAGE.test(link.url) ? `${languagePrefix(site, language)}${link.url}` : link.url;
    }
    if (link.category !== undefined) return url("category", cats.get(link.category)?.slug ?? "");
    if (link.content === undefined) {
      const spelled = spellings.get(tagKey(link.tag ?? ""));
      return spelled === undefined ? null : url("tag", spelled);
    }
    const content = linked.find((c) => c.id === link.content);
    const translated = content?.language === language ? content : linked.find((c) => c.translationOf === link.content && c.language === language);
    return translated ? contentPath(site, translated) : content ? contentPath(site, content) : null;
  };
  // A category's name in the page's language, for a menu whose labels are another language's.
  const labelOf = (item: MenuItem, borrowed: boolean) => {
    const category = borrowed && item.link.category !== undefined ? cats.get(item.link.category) : undefined;
    return category ? inLanguage(category.names, language, item.label) : item.label;
  };
  const resolve = (items: MenuItem[], borrowed: boolean): unknown[] =>
    items.flatMap((item) => {
      const itemUrl = urlOf(item.link, borrowed);
      return itemUrl === null ? [] : [{ label: labelOf(item, borrowed), url: itemUrl, children: resolve(item.children ?? [], borrowed) }];
    });
  return menus.map((m) => [m.code, resolve(m.items, m.borrowed)] as const);
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
export async function resolvedTags(db: Database, site: Site, now: string, names: ReadonlySet<string> | "all", language: string) {
  const resolved: Record<string, unknown> = {};
  if (names !== "all" && names.size === 0) return resolved;
  const named = names === "all" ? [] : [inArray(contentTags.name, [...names])];
  const tags = await db
    .select()
    .from(contentTags)
    .where(and(eq(contentTags.tenantId, site.tenantId), eq(contentTags.siteId, site.id), ne(contentTags.type, "menu"), ...named));
  for (const tag of tags) resolved[tag.name] = await resolvedTag(db, site, tag, now, language);
  return resolved;
}

/** What a template reads as `tags.<name>` for one taxonomy or posts tag, on a page in that language: a posts query lists that language's contents. */
export async function resolvedTag(db: Database, site: Site, tag: ContentTag, now: string, language: string): Promise<unknown> {
  const definition = tag.definition as TagDefinition;
  const url = urlFor(site, language);
  if (tag.type === "taxonomy") {
    const cats = definition.categories?.length
      ? await db
          .select({ id: categories.id, name: categories.name, names: categories.names, slug: categories.slug })
          .from(categories)
          .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id), inArray(categories.id, definition.categories)))
      : [];
    return {
      categories: cats.map((cat) => ({
        id: cat.id,
        name: inLanguage(cat.names, language, cat.name),
        slug: cat.slug,
        url: url("category", cat.slug),
      })),
      tags: (definition.tags ?? []).map((name) => ({ name, url: url("tag", name) })),
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
    { categoryId, tag: definition.tags?.[0], language, page: 1, size: definition.limit ?? 10 },
    now,
  );
  const items = list.items.map((i) => ({ ...i, url: contentPath(site, i) }));
  if (definition.order === "oldest") items.reverse();
  if (definition.order === "title") items.sort((a, b) => a.title.localeCompare(b.title));
  return items;
}
