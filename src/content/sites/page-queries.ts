import { and, eq, inArray, sql } from "drizzle-orm";
import { users } from "../../platform/auth/tables";
import type { Database } from "../../platform/database";
import { isPublic, ofSite } from "../delivery/service";
import { categories, contents, redirects, type Category, type Site } from "../schema";
import type { ReaderSite } from "../tenancy/scope";
import { contentPath } from "./languages";
import { perSiteVersion } from "./site-data";

/** A site with more redirects than this reads D1 for each path instead of holding them all in memory. */
const REDIRECTS_IN_MEMORY = 1000;

/** The site's redirect of a path, if it has one: it wins over the site's pages. */
export async function redirectOf(db: Database, site: ReaderSite, path: string) {
  const columns = { fromPath: redirects.fromPath, toUrl: redirects.toUrl, status: redirects.status };
  const all = await perSiteVersion(site, "redirects", async () => {
    const rows = await db
      .select(columns)
      .from(redirects)
      .where(eq(redirects.siteId, site.id))
      .limit(REDIRECTS_IN_MEMORY + 1);
    return rows.length > REDIRECTS_IN_MEMORY ? undefined : new Map(rows.map((r) => [r.fromPath, r]));
  });
  if (all) return all.get(path);
  const [redirect] = await db
    .select(columns)
    .from(redirects)
    .where(and(eq(redirects.siteId, site.id), eq(redirects.fromPath, path)))
    .limit(1);
  return redirect;
}

/** A category of the site by its slug. */
export async function categoryBySlug(db: Database, site: Site, slug: string) {
  const [category] = await db
    .select()
    .from(categories)
    .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id), eq(categories.slug, slug)))
    .limit(1);
  return category;
}

/** The site's categories by id: name, slug and names in its other languages. */
export async function siteCategories(db: Database, site: Site): Promise<Map<number, Pick<Category, "name" | "slug" | "names">>> {
  const rows = await db
    .select({ id: categories.id, name: categories.name, slug: categories.slug, names: categories.names })
    .from(categories)
    .where(and(eq(categories.tenantId, site.tenantId), eq(categories.siteId, site.id)));
  return new Map(rows.map(({ id, ...category }) => [id, category]));
}

/** The address of a content of the site, whatever its status (a preview opens it): `/<slug>`, or `/<lang>/<slug>` in another language. */
export async function contentAddress(db: Database, site: Site, id: number) {
  const [found] = await db
    .select({ slug: contents.slug, language: contents.language })
    .from(contents)
    .where(ofSite(site, eq(contents.id, id)))
    .limit(1);
  return found && contentPath(site, found);
}

/** The id of the site's public content with that slug in that language, or of the content a preview shows. */
export async function publicContentId(db: Database, site: Site, slug: string, language: string, now: string, previewId?: number) {
  const [found] = await db
    .select({ id: contents.id })
    .from(contents)
    .where(ofSite(site, eq(contents.slug, slug), eq(contents.language, language), isPublic(now, previewId)))
    .limit(1);
  return found?.id;
}

/** Whether a content of the site is public now: published, its time come, not in the trash. */
export async function isPublicNow(db: Database, site: Site, id: number, now: string): Promise<boolean> {
  const [found] = await db
    .select({ id: contents.id })
    .from(contents)
    .where(ofSite(site, eq(contents.id, id), isPublic(now)))
    .limit(1);
  return found !== undefined;
}

/** The languages in which the site has public contents carrying a free tag: where its tag page exists. */
export async function languagesWithTag(db: Database, site: Site, tag: string, now: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ language: contents.language })
    .from(contents)
    .where(ofSite(site, isPublic(now), sql`EXISTS (SELECT 1 FROM json_each(${contents.tags}) WHERE value = ${tag})`));
  return rows.map((r) => r.language);
}

/** Words a reader reads in a minute: reading time is the body's words over this, at least one minute. */
export const WORDS_PER_MINUTE = 230;

/** What a reader sees beside a content's title that its list item lacks: the author's name and the reading time. */
export interface ReaderFacts {
  author: { name: string } | null;
  readingMinutes: number;
}

/**
 * The reader facts of the given contents of the site, in one query whatever their number. Words are
 * counted by SQLite as the gaps between them (spaces and line breaks), so no body travels to the Worker; an
 * author's name is shown only when it is a name, never an email address.
 */
export async function readerFacts(db: Database, site: Site, ids: number[]): Promise<Map<number, ReaderFacts>> {
  if (ids.length === 0) return new Map();
  // A blank line between paragraphs counts once, as the one break between two words.
  const body = sql`replace(${contents.bodyMarkdown}, char(10) || char(10), char(10))`;
  const rows = await db
    .select({
      id: contents.id,
      words: sql<number>`length(${body}) - length(replace(replace(${body}, ' ', ''), char(10), '')) + (length(trim(${contents.bodyMarkdown})) > 0)`,
      author: users.fullName,
    })
    .from(contents)
    .leftJoin(users, eq(users.id, contents.authorId))
    .where(ofSite(site, inArray(contents.id, ids)));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        author: row.author && !row.author.includes("@") ? { name: row.author } : null,
        readingMinutes: Math.max(1, Math.ceil(row.words / WORDS_PER_MINUTE)),
      },
    ]),
  );
}
