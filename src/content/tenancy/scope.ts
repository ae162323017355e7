import { and, eq, gt, isNotNull, isNull, lte, max, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Principal } from "../../platform/auth/principal";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { IsolateCache } from "../../platform/isolate-cache";
import type { KeyTenant } from "./tenant-keys";
import { contents, type MemberRole, siteDomains, sites, tenantMembers, themeVersions, type Site } from "../schema";
import { roleReaches } from "../roles";

/**
 * What a caller may see of group C: one tenant, and within it every site or only some. Every
 * service function takes one, and every query goes through `inTenant`: tenancy is decided here,
 * not route by route.
 */
export interface TenantScope {
  tenantId: number;
  /** Null: every site of the tenant. */
  siteIds: number[] | null;
}

/** The condition that keeps a query inside the scope's tenant. */
export const inTenant = (column: SQLiteColumn, scope: TenantScope, ...more: (SQL | undefined)[]) => and(eq(column, scope.tenantId), ...more);

/** The scope of a tenant key's principal. */
export function keyScope(principal: Principal): TenantScope {
  const tenant: KeyTenant | undefined = principal.tenant;
  if (!tenant) throw new ApiError(401, "A tenant API key is required");
  return { tenantId: tenant.id, siteIds: tenant.siteIds };
}

/** The scope of a member: the whole tenant. */
export const memberScope = (tenantId: number): TenantScope => ({ tenantId, siteIds: null });

/** The site if the scope may read it, or a 404 as if it did not exist: another tenant's site is never a 403. */
function readableIn<S extends Site>(scope: TenantScope, siteId: number, site: S | undefined): S {
  if (!site || site.tenantId !== scope.tenantId || (scope.siteIds && !scope.siteIds.includes(site.id)))
    throw new ApiError(404, `No site with id ${siteId}`);
  return site;
}

/** A site the scope may read, or a 404 as if it did not exist. */
export async function siteInScope(db: Database, scope: TenantScope, siteId: number): Promise<Site> {
  const [site] = await db
    .select()
    .from(sites)
    .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId)))
    .limit(1);
  return readableIn(scope, siteId, site);
}

/**
 * Sites as the read API (C1–C4) and the sites' own pages see them, per isolate for
 * `SITE_CACHE_MS`: the content version in a cached site names the edge cache's key, so a publish
 * shows at once in the isolate that made it (the admin API forgets the site) and within that bound in
 * the others.
 */
export const SITE_CACHE_MS = 10_000;
const readerSites = new IsolateCache<ReaderSite>(1000, SITE_CACHE_MS);

/**
 * A site as its readers reach it: with the host names it answers on (proved ones only), and the
 * times scheduled contents go live: the newest already live when it was read, and the next few.
 */
export type ReaderSite = Site & {
  hosts: { host: string; primary: boolean }[];
  lastLiveScheduled: string | null;
  upcoming: string[];
  /** The live version of each theme an upload made, by name (sites/themes.ts): a new upload shows once the site is read again. */
  liveThemes: Record<string, string>;
};

/**
 * The moment the site's newest scheduled content went live, as of now: part of every cached
 * answer's version, so that a list or page that a scheduled content changes is not served from
 * cache past its time. Stable across reloads of the site (it is the latest such moment, ever).
 */
export function scheduleMark(site: ReaderSite, now = new Date().toISOString()): string {
  // One pass, no arrays: every page and cached answer of the site asks for it.
  let latest = site.lastLiveScheduled;
  for (const at of site.upcoming) if (at <= now && (latest === null || at > latest)) latest = at;
  return latest === null ? "s0" : `s${Date.parse(latest)}`;
}

/**
 * The next moment a scheduled content of the site goes live, after now: what any answer made now
 * shows may change then, so no cache tier (isolate, edge, browser) keeps it past that moment.
 */
export const nextScheduled = (site: ReaderSite, now = new Date().toISOString()): string | undefined => site.upcoming.find((at) => at > now);

export const forgetSiteForReaders = (siteId: number) => readerSites.forget((site) => site.id === siteId);

/** A site by id, from the isolate's cache when fresh: for its own web pages (its host named it) and the read API. */
export async function siteById(db: Database, siteId: number): Promise<ReaderSite | undefined> {
  const cached = readerSites.get(String(siteId));
  if (cached) return cached;
  const now = new Date().toISOString();
  const scheduled = and(eq(contents.siteId, siteId), eq(contents.status, "scheduled"), isNull(contents.deletedAt));
  const [[row], hosts, [live], upcoming, themes] = await db.batch([
    db.select().from(sites).where(eq(sites.id, siteId)).limit(1),
    db
      .select({ host: siteDomains.host, primary: siteDomains.isPrimary })
      .from(siteDomains)
      .where(and(eq(siteDomains.siteId, siteId), isNotNull(siteDomains.verifiedAt)))
      .orderBy(siteDomains.id),
    db
      .select({ at: max(contents.publishAt) })
      .from(contents)
      .where(and(scheduled, lte(contents.publishAt, now))),
    // The site is read again within SITE_CACHE_MS: the next few moments are enough.
    db
      .select({ at: contents.publishAt })
      .from(contents)
      .where(and(scheduled, gt(contents.publishAt, now)))
      .orderBy(contents.publishAt)
      .limit(20),
    db
      .select({ name: themeVersions.name, version: themeVersions.version })
      .from(themeVersions)
      .where(and(eq(themeVersions.siteId, siteId), eq(themeVersions.live, true))),
  ]);
  const site = row && {
    ...row,
    hosts,
    lastLiveScheduled: live?.at ?? null,
    upcoming: upcoming.flatMap((u) => (u.at ? [u.at] : [])),
    liveThemes: Object.fromEntries(themes.map((t) => [t.name, t.version])),
  };
  if (site) readerSites.set(String(siteId), site);
  return site;
}

/** `siteInScope` for the read API: the same checks, the row from the isolate's cache when fresh. */
export async function siteForReaders(db: Database, scope: TenantScope, siteId: number): Promise<ReaderSite> {
  return readableIn(scope, siteId, await siteById(db, siteId));
}

/** The caller's role in a tenant, or a 404 for a tenant they are not a member of (its existence is not told). */
export async function memberRole(db: Database, tenantId: number, userId: number): Promise<MemberRole> {
  const [member] = await db
    .select({ role: tenantMembers.role })
    .from(tenantMembers)
    .where(and(eq(tenantMembers.tenantId, tenantId), eq(tenantMembers.userId, userId)))
    .limit(1);
  if (!member) throw new ApiError(404, `No tenant with id ${tenantId}`);
  return member.role;
}

/** Viewer reads, author writes own drafts, editor publishes, owner manages members, keys and settings. */
export function requireRole(role: MemberRole, needed: MemberRole): void {
  if (!roleReaches(role, needed)) throw new ApiError(403, `This needs the ${needed} role; you are ${role === "viewer" ? "a" : "an"} ${role}`);
}
