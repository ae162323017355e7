import { z } from "@hono/zod-openapi";
import { eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { redirects } from "../schema";
import { measureRows, ROWS_PER_TENANT, withinRooms } from "../tenancy/rooms";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { type AdminRoute, as } from "./guard";
import { redirectWrite } from "./params";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { bumpVersion } from "./writes";

const redirectSchema = rowAnswer(createSelectSchema(redirects), "Redirect", {
  id: 9,
  tenantId: 1,
  siteId: 1,
  fromPath: "/old-museum-night",
  toUrl: "/en/museum-night",
  status: 301,
});

export async function redirectsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(redirects)
    .where(inTenant(redirects.tenantId, scope, eq(redirects.siteId, siteId)))
    .orderBy(redirects.fromPath);
}

/** Creates or replaces the redirect of a path. */
export async function putRedirect(db: Database, scope: TenantScope, input: z.infer<typeof redirectWrite>) {
  await siteInScope(db, scope, input.siteId);
  const [[row]] = await withinRooms(() =>
    db.batch([
      db
        .insert(redirects)
        .values({ ...input, tenantId: scope.tenantId })
        .onConflictDoUpdate({ target: [redirects.siteId, redirects.fromPath], set: { toUrl: input.toUrl, status: input.status } })
        .returning(),
      bumpVersion(db, scope, input.siteId),
      measureRows(db, scope.tenantId, "redirects"),
    ]),
  );
  return row!;
}

/**
 * When a public content's address changes (its slug or language): the old address redirects to the
 * new one (301), a redirect that led to the old address leads to the new one (no chains), and a
 * redirect from the new address goes (a redirect wins over a page). Statements for the save's batch,
 * the last measuring the tenant's redirects (`withinRooms` words its refusal).
 */
export function movedAddress(db: Database, scope: TenantScope, siteId: number, from: string, to: string): BatchItem<"sqlite">[] {
  const ofSite = (...more: SQL[]) => inTenant(redirects.tenantId, scope, eq(redirects.siteId, siteId), ...more);
  return [
    db.delete(redirects).where(ofSite(eq(redirects.fromPath, to))),
    db
      .update(redirects)
      .set({ toUrl: to })
      .where(ofSite(eq(redirects.toUrl, from))),
    db
      .insert(redirects)
      .values({ tenantId: scope.tenantId, siteId, fromPath: from, toUrl: to, status: 301 })
      .onConflictDoUpdate({ target: [redirects.siteId, redirects.fromPath], set: { toUrl: to, status: 301 } }),
    measureRows(db, scope.tenantId, "redirects"),
  ];
}

export async function deleteRedirect(db: Database, scope: TenantScope, id: number) {
  const [row] = await db
    .delete(redirects)
    .where(inTenant(redirects.tenantId, scope, eq(redirects.id, id)))
    .returning();
  if (!row) throw new ApiError(404, `No redirect with id ${id}`);
}

/** A site's redirects, one per path. */
export function redirectRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/redirects",
    summary: "A site's redirects",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(redirectSchema),
    answer: "Redirects",
    handle: async (c, scope) => redirectsOf(c.get("db"), scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/redirects",
    summary: "Create or replace the redirect of a path",
    description: `Refused (409) past ${ROWS_PER_TENANT.redirects.toLocaleString("en-US")} redirects, all the tenant's sites together.`,
    guard: as("editor"),
    errors: [409],
    request: { ...tenantPath, ...json(redirectWrite) },
    data: redirectSchema,
    answer: "The redirect",
    handle: async (c, scope) => putRedirect(c.get("db"), scope, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/redirects/{id}",
    summary: "Delete a redirect",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteRedirect(c.get("db"), scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
}
