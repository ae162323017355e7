import { z } from "@hono/zod-openapi";
import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError } from "../../platform/errors";
import { settingsOf } from "../../platform/settings";
import { type MemberRole, tenantMembers, tenants } from "../schema";
import { contentSettings } from "../settings";
import { mediaBytesOf } from "../media/service";
import { themeBytesOf } from "../sites/theme-upload";
import { storageSchema, tenantSchema } from "./answers";
import { type AdminRoute, as } from "./guard";
import { mediaRoomOf } from "./media";
import { themeRoomOf } from "./sites";
import { tenantCreate } from "./params";
import { json, tenantPath } from "./shapes";
import { textBytesOf, textRoomOf } from "./text-room";
import { unlessTaken } from "./writes";

/** Tenants one account may own unless MAX_TENANTS_PER_USER says otherwise. */
export const DEFAULT_MAX_TENANTS_PER_USER = 5;

/**
 * A new tenant, its creator its owner. `maxOwned` caps the active tenants one account owns (each
 * brings budgets of its own): counted before, and again after the write, so that requests racing
 * past the first count undo their own tenant.
 */
export async function createTenant(db: Database, userId: number, input: { name: string; slug: string }, maxOwned?: number) {
  const owned = async () =>
    (
      await db
        .select({ n: count() })
        .from(tenants)
        .where(and(eq(tenants.ownerId, userId), eq(tenants.isActive, true)))
    )[0]!.n;
  const tooMany = () => new ApiError(403, `An account may own at most ${maxOwned} tenants; ask the operator for more`);
  if (maxOwned !== undefined && (await owned()) >= maxOwned) throw tooMany();
  const tenant = await unlessTaken(`The tenant slug ${input.slug}`, async () => {
    const newId = sql<number>`(SELECT id FROM tenants WHERE slug = ${input.slug})`;
    const [[created]] = await db.batch([
      db
        .insert(tenants)
        .values({ ...input, ownerId: userId })
        .returning(),
      db.insert(tenantMembers).values({ tenantId: newId, userId, role: "owner" }),
    ]);
    return created!;
  });
  if (maxOwned !== undefined && (await owned()) > maxOwned) {
    await db.batch([db.delete(tenantMembers).where(eq(tenantMembers.tenantId, tenant.id)), db.delete(tenants).where(eq(tenants.id, tenant.id))]);
    throw tooMany();
  }
  return { ...tenant, role: "owner" as MemberRole };
}

export const tenantsOf = (db: Database, userId: number) =>
  db
    .select({ id: tenants.id, name: tenants.name, slug: tenants.slug, role: tenantMembers.role })
    .from(tenantMembers)
    .innerJoin(tenants, eq(tenants.id, tenantMembers.tenantId))
    .where(and(eq(tenantMembers.userId, userId), eq(tenants.isActive, true)))
    .orderBy(tenants.id);

/** The caller's tenants, and new ones. */
export function tenantListRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants",
    summary: "The caller's tenants and roles",
    data: z.array(tenantSchema),
    answer: "Tenants",
    handle: async (c) => tenantsOf(c.get("db"), c.get("principal").userId),
  });
  route({
    method: "post",
    path: "/tenants",
    summary: "Create a tenant; the caller is its owner (an account owns at most MAX_TENANTS_PER_USER, default 5: 403 beyond)",
    request: json(tenantCreate.openapi({ example: { name: "Harbour Media", slug: "harbour-media" } })),
    data: tenantSchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c) =>
      createTenant(
        c.get("db"),
        c.get("principal").userId,
        c.req.valid("json"),
        settingsOf(c.env, contentSettings).MAX_TENANTS_PER_USER ?? DEFAULT_MAX_TENANTS_PER_USER,
      ),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/storage",
    summary: "What the tenant's media, themes and texts take, and how much they may",
    description:
      "Sizes in bytes. An upload that would pass `media.quotaBytes` or `themes.quotaBytes`, or a save that would take the texts past `text.quotaBytes`, is refused with 409.",
    guard: as("viewer"),
    request: tenantPath,
    data: storageSchema,
    answer: "Storage",
    handle: async (c, scope) => {
      const db = c.get("db");
      const [mediaBytes, themeBytes, textBytes] = await Promise.all([
        mediaBytesOf(db, scope.tenantId),
        themeBytesOf(db, scope.tenantId),
        textBytesOf(db, scope.tenantId),
      ]);
      return {
        media: { usedBytes: mediaBytes, quotaBytes: mediaRoomOf(c.env) },
        themes: { usedBytes: themeBytes, quotaBytes: themeRoomOf(c.env) },
        text: { usedBytes: textBytes, quotaBytes: textRoomOf(c.env) },
      };
    },
  });
}
