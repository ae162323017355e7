import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Principal } from "../platform/auth/principal";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { type MemberRole, sites, tenantMembers, type Site } from "./schema";

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
  if (!principal.tenant) throw new ApiError(401, "A tenant API key is required");
  return { tenantId: principal.tenant.id, siteIds: principal.tenant.siteIds };
}

/** The scope of a member: the whole tenant. */
export const memberScope = (tenantId: number): TenantScope => ({ tenantId, siteIds: null });

/** A site the scope may read, or a 404 as if it did not exist: another tenant's site is never a 403. */
export async function siteInScope(db: Database, scope: TenantScope, siteId: number): Promise<Site> {
  const [site] = await db.select().from(sites).where(inTenant(sites.tenantId, scope, eq(sites.id, siteId))).limit(1);
  if (!site || (scope.siteIds && !scope.siteIds.includes(site.id))) throw new ApiError(404, `No site with id ${siteId}`);
  return site;
}

const ROLE_RANK: Record<MemberRole, number> = { viewer: 0, author: 1, editor: 2, owner: 3 };

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
  if (ROLE_RANK[role] < ROLE_RANK[needed]) throw new ApiError(403, `This needs the ${needed} role; you are ${role === "owner" ? "an" : "a"} ${role}`);
}
