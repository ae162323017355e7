import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { isPublic } from "../delivery/service";
import { categories, contents, redirects, type Site } from "../schema";

/** The site's redirect of a path, if it has one: it wins over the site's pages. */
export async function redirectOf(db: Database, siteId: number, path: string) {
  const [redirect] = await db
    .select({ toUrl: redirects.toUrl, status: redirects.status })
    .from(redirects)
    .where(and(eq(redirects.siteId, siteId), eq(redirects.fromPath, path)))
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

/** The id of the site's public content with that slug in that language. */
export async function publicContentId(db: Database, site: Site, slug: string, language: string, now: string) {
  const [found] = await db
    .select({ id: contents.id })
    .from(contents)
    .where(
      and(
        eq(contents.tenantId, site.tenantId),
        eq(contents.siteId, site.id),
        eq(contents.slug, slug),
        eq(contents.language, language),
        isPublic(now),
      ),
    )
    .limit(1);
  return found?.id;
}

/** The languages in which the site has public contents carrying a free tag: where its tag page exists. */
export async function languagesWithTag(db: Database, site: Site, tag: string, now: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ language: contents.language })
    .from(contents)
    .where(
      and(
        eq(contents.tenantId, site.tenantId),
        eq(contents.siteId, site.id),
        isPublic(now),
        sql`EXISTS (SELECT 1 FROM json_each(${contents.tags}) WHERE value = ${tag})`,
      ),
    );
  return rows.map((r) => r.language);
}
