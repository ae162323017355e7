import { z } from "@hono/zod-openapi";
import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { redirects } from "../schema";
import { measureRows, ROWS_PER_TENANT, withinRooms } from "../tenancy/rooms";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { audit } from "../audit-entries";
import { type AdminRoute, as, type MemberScope } from "./guard";
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

/** The most redirects a loop check follows: a longer chain is refused too (no reader's browser follows 50 hops). */
const LONGEST_CHAIN = 50;

/**
 * Where the site's redirects lead from `to`, one hop after another: whether they come back to `from`
 * (a loop, which browsers end with "too many redirects"), or run past `LONGEST_CHAIN` hops.
 */
async function loopsBack(db: Database, siteId: number, from: string, to: string): Promise<"loop" | "too long" | undefined> {
  if (to === from) return "loop";
  if (!to.startsWith("/")) return undefined;
  // UNION (not UNION ALL) ends a loop among the existing redirects: a path is visited once.
  const chain = await db.get<{ loops: number; hops: number }>(sql`
    WITH RECURSIVE chain(path, hops) AS (
      SELECT ${to}, 0
      UNION SELECT ${redirects.toUrl}, chain.hops + 1 FROM ${redirects} JOIN chain
        ON ${redirects.siteId} = ${siteId} AND ${redirects.fromPath} = chain.path WHERE chain.hops < ${LONGEST_CHAIN}
    ) SELECT max(path = ${from}) AS loops, max(hops) AS hops FROM chain`);
  if (chain?.loops) return "loop";
  return chain && chain.hops >= LONGEST_CHAIN ? "too long" : undefined;
}

/** Creates or replaces the redirect of a path; one that would lead back to its own path is refused (400). */
export async function putRedirect(db: Database, scope: MemberScope, input: z.infer<typeof redirectWrite>) {
  await siteInScope(db, scope, input.siteId);
  const loop = await loopsBack(db, input.siteId, input.fromPath, input.toUrl);
  if (loop === "loop")
    throw new ApiError(
      400,
      `${input.fromPath} → ${input.toUrl} would loop: the redirects from ${input.toUrl} lead back to ${input.fromPath}, and browsers give up on such a page`,
    );
  if (loop === "too long")
    throw new ApiError(400, `The redirects from ${input.toUrl} already run ${LONGEST_CHAIN} hops: point ${input.fromPath} at where they end`);
  const [[row]] = await withinRooms(() =>
    db.batch([
      db
        .insert(redirects)
        .values({ ...input, tenantId: scope.tenantId })
        .onConflictDoUpdate({ target: [redirects.siteId, redirects.fromPath], set: { toUrl: input.toUrl, status: input.status } })
        .returning(),
      bumpVersion(db, scope, input.siteId),
      audit(db, scope, scope.userId, "put-redirect", `${input.fromPath} → ${input.toUrl} (${input.status})`),
      measureRows(db, scope.tenantId, "redirects"),
    ]),
  );
  return row!;
}

/**
 * When public addresses change (a content's slug or language, a category's slug in each language):
 * each old address redirects to its new one (301), a redirect that led to an old address leads to
 * the new one (no chains), and a redirect from a new address goes (a redirect wins over a page).
 * Statements for the save's batch, the last measuring the tenant's redirects (`withinRooms` words its refusal).
 */
export function movedAddresses(db: Database, scope: TenantScope, siteId: number, moves: { from: string; to: string }[]): BatchItem<"sqlite">[] {
  const ofSite = (...more: SQL[]) => inTenant(redirects.tenantId, scope, eq(redirects.siteId, siteId), ...more);
  return [
    ...moves.flatMap(({ from, to }) => [
      db.delete(redirects).where(ofSite(eq(redirects.fromPath, to))),
      db
        .update(redirects)
        .set({ toUrl: to })
        .where(ofSite(eq(redirects.toUrl, from))),
      db
        .insert(redirects)
        .values({ tenantId: scope.tenantId, siteId, fromPath: from, toUrl: to, status: 301 })
        .onConflictDoUpdate({ target: [redirects.siteId, redirects.fromPath], set: { toUrl: to, status: 301 } }),
    ]),
    measureRows(db, scope.tenantId, "redirects"),
  ];
}

/** Deletes a redirect; the site's version goes up with it, so that no cached page or isolate keeps sending readers on. */
export async function deleteRedirect(db: Database, scope: MemberScope, id: number) {
  const [row] = await db
    .select({ siteId: redirects.siteId, fromPath: redirects.fromPath, toUrl: redirects.toUrl })
    .from(redirects)
    .where(inTenant(redirects.tenantId, scope, eq(redirects.id, id)));
  if (!row) throw new ApiError(404, `No redirect with id ${id}`);
  await db.batch([
    db.delete(redirects).where(inTenant(redirects.tenantId, scope, eq(redirects.id, id))),
    bumpVersion(db, scope, row.siteId),
    audit(db, scope, scope.userId, "delete-redirect", `${row.fromPath} → ${row.toUrl}`),
  ]);
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
    errors: [400, 409],
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
