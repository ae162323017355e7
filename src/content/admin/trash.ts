import { z } from "@hono/zod-openapi";
import { and, count, desc, eq, isNotNull, lte } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { database, type Database } from "../../platform/database";
import type { Bindings } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import type { Logger } from "../../platform/logging";
import { idParam } from "../../platform/openapi";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { contentCategories, contents, contentVersions } from "../schema";
import { inTenant, memberScope, type TenantScope } from "../tenancy/scope";
import { page } from "./answers";
import { audit } from "../audit-entries";
import { contentDetail, contentInScope, contentSchema } from "./contents";
import { type AdminRoute, as } from "./guard";
import { trashListQuery } from "./params";
import { deleted, inTenantPath, tenantPath } from "./shapes";
import { bumpVersionIfPublic } from "./writes";

/**
 * The Trash: a deleted content keeps its row, versions and categories with `deletedAt` set, so it is
 * gone from the site, its feeds and sitemaps, the headless API and the lists (delivery/service.ts
 * `isPublic`, and `contentInScope` for the admin API), and can be restored as it was. Its slug stays
 * reserved until it is deleted for good, so that a restore never collides. The daily purge deletes for
 * good what has been there longer than `TRASH_DAYS`.
 */
export const TRASH_DAYS = 30;
const DAY_MS = 86_400_000;

const purgeAtOf = (deletedAt: string) => new Date(new Date(deletedAt).getTime() + TRASH_DAYS * DAY_MS).toISOString();

const trashedSchema = rowAnswer(createSelectSchema(contents), "ContentRecord")
  .extend({ purgeAt: z.string().openapi({ description: "When the daily purge deletes it for good" }) })
  .openapi("TrashedContent");
const trashAnswer = z.object({ deleted: z.literal(true), purgeAt: z.string() }).openapi("Trashed");

async function trashedInScope(db: Database, scope: TenantScope, id: number) {
  const [content] = await db
    .select()
    .from(contents)
    .where(inTenant(contents.tenantId, scope, eq(contents.id, id), isNotNull(contents.deletedAt)))
    .limit(1);
  if (!content) throw new ApiError(404, `No content with id ${id} in the Trash`);
  return content;
}

/** A content of the Trash with the day the purge deletes it (its `deletedAt` is set: trashedInScope asks for it). */
async function trashedContent(db: Database, scope: TenantScope, id: number) {
  const content = await trashedInScope(db, scope, id);
  return { ...content, purgeAt: purgeAtOf(content.deletedAt!) };
}

/** Moves a content to the Trash: off the site at once (the site's version moves in the same batch). */
export async function trashContent(db: Database, scope: TenantScope, id: number, userId: number) {
  const existing = await contentInScope(db, scope, id);
  const deletedAt = new Date().toISOString();
  await db.batch([
    db
      .update(contents)
      .set({ deletedAt, deletedBy: userId })
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
    bumpVersionIfPublic(db, scope, existing.siteId, id),
    audit(db, scope, userId, "delete", `content ${id} (${existing.title})`, id),
  ]);
  return { deleted: true as const, purgeAt: purgeAtOf(deletedAt) };
}

/** Brings a content back as it was: a published one is on the site again at once. */
export async function restoreContent(db: Database, scope: TenantScope, id: number, userId: number) {
  const trashed = await trashedInScope(db, scope, id);
  await db.batch([
    db
      .update(contents)
      .set({ deletedAt: null, deletedBy: null })
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
    bumpVersionIfPublic(db, scope, trashed.siteId, id),
    audit(db, scope, userId, "restore", `content ${id} (${trashed.title})`, id),
  ]);
  return contentDetail(db, scope, id);
}

export async function trashOf(db: Database, scope: TenantScope, q: { siteId?: number; page: number; size: number }) {
  const where = inTenant(contents.tenantId, scope, isNotNull(contents.deletedAt), q.siteId ? eq(contents.siteId, q.siteId) : undefined);
  const [items, [total]] = await db.batch([
    db
      .select()
      .from(contents)
      .where(where)
      .orderBy(desc(contents.deletedAt), desc(contents.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ total: count() }).from(contents).where(where),
  ]);
  return { items: items.map((item) => ({ ...item, purgeAt: purgeAtOf(item.deletedAt!) })), total: total?.total ?? 0, page: q.page, size: q.size };
}

/** The statements that delete a content for good: its categories, versions, the translations' link to it, the row. */
function erasure(db: Database, scope: TenantScope, id: number): BatchItem<"sqlite">[] {
  return [
    db.delete(contentCategories).where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id))),
    db.delete(contentVersions).where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id))),
    db
      .update(contents)
      .set({ translationOf: null })
      .where(inTenant(contents.tenantId, scope, eq(contents.translationOf, id))),
    db.delete(contents).where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
  ];
}

/** Deletes a content of the Trash for good, before the purge would: its slug is free again. */
export async function eraseContent(db: Database, scope: TenantScope, id: number, userId: number) {
  const trashed = await trashedInScope(db, scope, id);
  const [first, ...rest] = erasure(db, scope, id);
  await db.batch([first!, ...rest, audit(db, scope, userId, "erase", `content ${id} (${trashed.title})`, id)]);
}

/** Contents purged per batch; a day's run goes on until none is due, at most `PURGE_ROUNDS` batches. */
const PURGE_BATCH = 50;
const PURGE_ROUNDS = 20;

/** The daily purge (cron): contents in the Trash for more than `TRASH_DAYS` are deleted for good. */
export async function purgeTrash(env: Bindings, log: Logger, now = Date.now()): Promise<{ purged: number }> {
  const db = database(env);
  const cutoff = new Date(now - TRASH_DAYS * DAY_MS).toISOString();
  let purged = 0;
  for (let round = 0; round < PURGE_ROUNDS; round++) {
    const due = await db
      .select({ id: contents.id, tenantId: contents.tenantId })
      .from(contents)
      .where(and(isNotNull(contents.deletedAt), lte(contents.deletedAt, cutoff)))
      .limit(PURGE_BATCH);
    if (due.length === 0) break;
    const [first, ...rest] = due.flatMap((content) => erasure(db, memberScope(content.tenantId), content.id));
    await db.batch([first!, ...rest]);
    purged += due.length;
    if (due.length < PURGE_BATCH) break;
  }
  if (purged > 0) log.info({ task: "content-trash", purged });
  return { purged };
}

/** Deleting a content moves it to the Trash; the Trash lists, restores and deletes for good. */
export function trashRoutes(route: AdminRoute) {
  route({
    method: "delete",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: `Move a content to the Trash: off the site at once, restorable for ${TRASH_DAYS} days`,
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: trashAnswer,
    answer: "In the Trash",
    handle: async (c, scope) => trashContent(c.get("db"), scope, c.req.valid("param").id, scope.userId),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/trash",
    summary: `Contents in the Trash, last deleted first; each is deleted for good ${TRASH_DAYS} days after it went there`,
    guard: as("viewer"),
    request: { ...tenantPath, query: trashListQuery },
    data: page(trashedSchema),
    answer: "A page of deleted contents",
    handle: async (c, scope) => {
      const { page = 1, size = 20, siteId } = c.req.valid("query");
      return trashOf(c.get("db"), scope, { siteId, page, size });
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/trash/{id}",
    summary: "One content in the Trash, with when it is deleted for good (a menu item linking to it names it)",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: trashedSchema,
    answer: "The deleted content",
    handle: async (c, scope) => trashedContent(c.get("db"), scope, c.req.valid("param").id),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/trash/{id}/restore",
    summary: "Restore a content from the Trash, as it was (a published one is on the site again)",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: contentSchema,
    answer: "The content, restored",
    handle: async (c, scope) => restoreContent(c.get("db"), scope, c.req.valid("param").id, scope.userId),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/trash/{id}",
    summary: "Delete a content of the Trash for good, with its versions; its slug is free again",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await eraseContent(c.get("db"), scope, c.req.valid("param").id, scope.userId);
      return { deleted: true as const };
    },
  });
}
