import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { isPublic, ofSite } from "../delivery/service";
import { categories, contentCategories, contents, type Site } from "../schema";
import { contentPath, inLanguage, languageHome, languagePrefix, siteLanguages } from "./languages";

const xml = (text: string) => text.replace(/[<>&'"]/g, (ch) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[ch]!);
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The public, indexable contents of a site (of one language, when named), newest first. */
const indexable = (db: Database, site: Site, now: string, limit: number, language?: string) =>
  db
    .select({
      slug: contents.slug,
      language: contents.language,
      title: contents.title,
      intro: contents.intro,
      publishAt: contents.publishAt,
      updatedAt: contents.updatedAt,
      noindex: contents.noindex,
    })
    .from(contents)
    .where(ofSite(site, isPublic(now), eq(contents.noindex, false), language === undefined ? undefined : eq(contents.language, language)))
    .orderBy(desc(contents.publishAt))
    .limit(limit);

/** When a public content last changed for its readers: its last edit, or its going live when that came after (a scheduled content). */
const lastChange = (row: { publishAt: string | null; updatedAt: string }) =>
  row.publishAt !== null && row.publishAt > row.updatedAt ? row.publishAt : row.updatedAt;

/** A content's address: `/<slug>` in the site's default language, `/<lang>/<slug>` in another. */
const contentUrl = (origin: string, site: Site, row: { slug: string; language: string }) => `${origin}${contentPath(site, row)}`;

/** The sitemap index: one sitemap for contents, one for categories. */
export function sitemapIndex(origin: string, lastmod: string): string {
  const entry = (name: string) => `<sitemap><loc>${xml(`${origin}/sitemap-${name}.xml`)}</loc><lastmod>${lastmod}</lastmod></sitemap>`;
  return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entry("contents")}${entry("categories")}</sitemapindex>\n`;
}

const urlset = (urls: { loc: string; lastmod: string }[]) =>
  `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${xml(u.loc)}</loc><lastmod>${u.lastmod}</lastmod></url>`).join("")}</urlset>\n`;

export async function contentSitemap(db: Database, site: Site, origin: string, now: string): Promise<string> {
  // 50,000 URLs is the sitemap protocol's limit for one file.
  const rows = await indexable(db, site, now, 50_000);
  return urlset(rows.map((r) => ({ loc: contentUrl(origin, site, r), lastmod: lastChange(r).slice(0, 10) })));
}

/**
 * Each language's home, and the category pages that show something in that language: a category
 * with a public content of it, its own or a subcategory's (a category's page lists both). An empty
 * page is no page for a search engine to index.
 */
export async function categorySitemap(db: Database, site: Site, origin: string, now: string): Promise<string> {
  const [tree, shown] = await db.batch([
    db
      .select({ id: categories.id, slug: categories.slug, parentId: categories.parentId })
      .from(categories)
      .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id)))
      .orderBy(categories.id),
    db
      .selectDistinct({ categoryId: contentCategories.categoryId, language: contents.language })
      .from(contentCategories)
      .innerJoin(contents, eq(contents.id, contentCategories.contentId))
      .where(ofSite(site, isPublic(now))),
  ]);
  const parentOf = new Map(tree.map((category) => [category.id, category.parentId]));
  const showing = new Set<string>();
  for (const { categoryId, language } of shown) {
    // The category and each one above it; a cycle (none is written, but a row is data) ends the walk.
    const walked = new Set<number>();
    for (let id: number | null | undefined = categoryId; id != null && !walked.has(id); id = parentOf.get(id)) {
      walked.add(id);
      showing.add(`${id}:${language}`);
    }
  }
  const lastmod = site.updatedAt.slice(0, 10);
  return urlset(
    siteLanguages(site).flatMap((language) => [
      { loc: `${origin}${languageHome(site, language)}`, lastmod },
      ...tree
        .filter((category) => showing.has(`${category.id}:${language}`))
        .map((category) => ({ loc: `${origin}${languagePrefix(site, language)}/c/${category.slug}`, lastmod })),
    ]),
  );
}

export const robotsTxt = (origin: string) => `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;

/** RSS 2.0 of a language's newest 20 contents. */
export async function rssFeed(db: Database, site: Site, origin: string, now: string, language: string): Promise<string> {
  const rows = await indexable(db, site, now, 20, language);
  const home = `${origin}${languageHome(site, language)}`;
  const items = rows
    .map(
      (r) =>
        `<item><title>${xml(r.title)}</title><link>${xml(contentUrl(origin, site, r))}</link><guid>${xml(contentUrl(origin, site, r))}</guid><pubDate>${new Date(r.publishAt!).toUTCString()}</pubDate><description>${xml(r.intro)}</description></item>`,
    )
    .join("");
  return `${XML_HEAD}<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${xml(site.name)}</title><link>${xml(home)}</link><description>${xml(inLanguage(site.seoDescriptions, language, site.seoDescription) ?? site.name)}</description><language>${xml(language)}</language><atom:link href="${xml(`${home}feed.xml`)}" rel="self" type="application/rss+xml"/>${items}</channel></rss>\n`;
}

/** Atom of a language's newest 20 contents. */
export async function atomFeed(db: Database, site: Site, origin: string, now: string, language: string): Promise<string> {
  const rows = await indexable(db, site, now, 20, language);
  const home = `${origin}${languageHome(site, language)}`;
  const updated = rows.length > 0 ? rows.map(lastChange).reduce((latest, at) => (at > latest ? at : latest)) : site.updatedAt;
  const entries = rows
    .map(
      (r) =>
        `<entry><title>${xml(r.title)}</title><link href="${xml(contentUrl(origin, site, r))}"/><id>${xml(contentUrl(origin, site, r))}</id><updated>${lastChange(r)}</updated><published>${r.publishAt}</published><summary>${xml(r.intro)}</summary></entry>`,
    )
    .join("");
  return `${XML_HEAD}<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xml(language)}"><title>${xml(site.name)}</title><link href="${xml(home)}"/><link rel="self" href="${xml(`${home}atom.xml`)}"/><id>${xml(home)}</id><updated>${updated}</updated>${entries}</feed>\n`;
}
