import { and, eq, exists, inArray, type SQL, sql } from "drizzle-orm";
import { type Database, refusedBy } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { contents, sites } from "../schema";
import { forgetSiteForReaders, inTenant, type TenantScope } from "../tenancy/scope";

/** Whether a unique index refused the write. */
export const isUniqueViolation = (error: unknown) => refusedBy(error, "UNIQUE constraint failed");

/** A unique index refused the write: the slug, domain or name is taken. */
export async function unlessTaken<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, `${what} is already taken`);
    throw error;
  }
}

const nextVersion = () => ({ contentVersion: sql`${sites.contentVersion} + 1`, updatedAt: new Date().toISOString() });

/** The statement that tells the edge cache a site's content changed (delivery/cache.ts), when `onlyIf` holds (always without it). */
export function bumpVersion(db: Database, scope: TenantScope, siteId: number, onlyIf?: SQL) {
  // This isolate's cached copy of the site goes too: its version names the edge cache's key.
  forgetSiteForReaders(siteId);
  return db
    .update(sites)
    .set(nextVersion())
    .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId), onlyIf));
}

/** The same for several sites of any tenants (a member's name is on every site they wrote for). */
export function bumpVersions(db: Database, siteIds: number[]) {
  for (const siteId of siteIds) forgetSiteForReaders(siteId);
  return db.update(sites).set(nextVersion()).where(inArray(sites.id, siteIds));
}

/**
 * The same for a change to one content, taking effect only when readers can see that content
 * (published, or scheduled to be): a draft is on no page, list or feed, so an editor's saves of it
 * leave every cached answer of the site valid. Read in the write's batch, after the content's own
 * statement, so a publication at the same moment is never missed.
 */
export function bumpVersionIfPublic(db: Database, scope: TenantScope, siteId: number, contentId: number) {
  const isPublic = db
    .select({ id: contents.id })
    .from(contents)
    .where(and(eq(contents.id, contentId), inArray(contents.status, ["published", "scheduled"])));
  return bumpVersion(db, scope, siteId, exists(isPublic));
}
