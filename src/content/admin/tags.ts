import { z } from "@hono/zod-openapi";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError, fieldRefused } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { isPublic, ofSite } from "../delivery/service";
import { statusAt } from "../publication";
import { categories, contents, contentTags } from "../schema";
import { menuName } from "../menu-names";
import { resolvedMenu, resolvedTag } from "../sites/template-tags";
import { measureRows, ROWS_PER_TENANT, withinRooms } from "../tenancy/rooms";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { audit } from "../audit-entries";
import { type AdminRoute, as, type MemberScope } from "./guard";
import { linkTargetsSchema } from "./answers";
import { contentTagWrite, linkTargetQuery } from "./params";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { bumpVersion } from "./writes";

const contentTagSchema = rowAnswer(createSelectSchema(contentTags, { definition: z.unknown() }), "ContentTag", {
  id: 2,
  tenantId: 1,
  siteId: 1,
  type: "menu",
  name: "main",
  definition: { items: [{ label: "Culture", link: { category: 2 } }] },
});

/** How many of each kind a search answers: a menu's picker shows a short list and narrows as the person types. */
const LINK_TARGETS_EACH = 20;

/**
 * What a menu item may link to, found by words in a title or name: a site's contents (with their
 * status now, so the console can warn of a link to what readers cannot open yet), categories and
 * the tags its contents carry. At most 20 of each; no words: the latest contents, every kind's first.
 */
export async function linkTargets(db: Database, scope: TenantScope, siteId: number, q = "") {
  const site = await siteInScope(db, scope, siteId);
  const now = new Date().toISOString();
  const words = q.trim().toLowerCase();
  const has = (column: typeof contents.title | typeof categories.name) => (words ? sql`instr(lower(${column}), ${words}) > 0` : undefined);
  const tag = sql<string>`tag.value`;
  const [found, cats, tags] = await db.batch([
    db
      .select({ id: contents.id, title: contents.title, language: contents.language, status: contents.status, publishAt: contents.publishAt })
      .from(contents)
      .where(ofSite(site, has(contents.title)))
      .orderBy(desc(contents.updatedAt), desc(contents.id))
      .limit(LINK_TARGETS_EACH),
    db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(categories)
      .where(inTenant(categories.tenantId, scope, eq(categories.siteId, site.id), has(categories.name)))
      .orderBy(categories.name)
      .limit(LINK_TARGETS_EACH),
    db
      .select({ name: tag, published: sql<number>`sum(case when ${isPublic(now)} then 1 else 0 end)` })
      .from(sql`${contents}, json_each(${contents.tags}) as tag`)
      .where(and(ofSite(site), words ? sql`instr(lower(${tag}), ${words}) > 0` : undefined))
      .groupBy(tag)
      .orderBy(tag)
      .limit(LINK_TARGETS_EACH),
  ]);
  return { contents: found.map((c) => ({ ...c, status: statusAt(c, now) })), categories: cats, tags };
}

export async function contentTagsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.siteId, siteId)))
    .orderBy(contentTags.type, contentTags.name);
}

/** Creates or replaces the tag of that name. */
export async function putContentTag(db: Database, scope: MemberScope, input: z.infer<typeof contentTagWrite>) {
  const site = await siteInScope(db, scope, input.siteId);
  const { language } = menuName(input.name);
  if (language !== null && !site.languages.includes(language))
    throw fieldRefused("name", `the menu ${input.name} is for ${language}, a language the site does not have (${site.languages.join(", ")})`);
  const [[tag]] = await withinRooms(() =>
    db.batch([
      db
        .insert(contentTags)
        .values({ ...input, tenantId: scope.tenantId })
        .onConflictDoUpdate({ target: [contentTags.siteId, contentTags.name], set: { type: input.type, definition: input.definition } })
        .returning(),
      bumpVersion(db, scope, input.siteId),
      audit(db, scope, scope.userId, "put-tag", `${input.type} ${input.name}`),
      measureRows(db, scope.tenantId, "tags"),
    ]),
  );
  return tag!;
}

/** A content tag of the caller's tenant, or a 404. */
async function contentTagInScope(db: Database, scope: TenantScope, id: number) {
  const [tag] = await db
    .select()
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.id, id)))
    .limit(1);
  if (!tag) throw new ApiError(404, `No content tag with id ${id}`);
  return tag;
}

/** What templates would read for a content tag now: a menu's items with URLs, a taxonomy's members, a posts query's contents. */
export async function previewContentTag(db: Database, scope: TenantScope, id: number) {
  const tag = await contentTagInScope(db, scope, id);
  const site = await siteInScope(db, scope, tag.siteId);
  if (tag.type === "menu") return resolvedMenu(db, site, tag, new Date().toISOString());
  return resolvedTag(db, site, tag, new Date().toISOString(), site.defaultLanguage);
}

export async function deleteContentTag(db: Database, scope: MemberScope, id: number) {
  const tag = await contentTagInScope(db, scope, id);
  await db.batch([
    db.delete(contentTags).where(inTenant(contentTags.tenantId, scope, eq(contentTags.id, id))),
    bumpVersion(db, scope, tag.siteId),
    audit(db, scope, scope.userId, "delete-tag", `${tag.type} ${tag.name}`),
  ]);
}

/** Content tags: menus, taxonomies and posts queries that templates read. */
export function tagRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/tags/{id}/preview",
    summary: "What templates read for a content tag now: menu items with URLs, a taxonomy's members, a posts query's contents",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.unknown().openapi({ description: "The value of menus.<name> or tags.<name>" }),
    answer: "The resolved tag",
    handle: async (c, scope) => previewContentTag(c.get("db"), scope, c.req.valid("param").id),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/link-targets",
    summary: "What a menu item may link to, found by words: contents (with their status now), categories and tags",
    guard: as("viewer"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), query: linkTargetQuery },
    data: linkTargetsSchema,
    answer: "At most 20 of each kind",
    handle: async (c, scope) => linkTargets(c.get("db"), scope, c.req.valid("param").siteId, c.req.valid("query").q),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/tags",
    summary: "Content tags: menus, taxonomies, posts",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(contentTagSchema),
    answer: "Tags",
    handle: async (c, scope) => contentTagsOf(c.get("db"), scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/tags",
    summary: "Create or replace a content tag by name",
    description: `Refused (409) past ${ROWS_PER_TENANT.tags.toLocaleString("en-US")} menus and content tags, all the tenant's sites together.`,
    guard: as("editor"),
    errors: [409],
    request: {
      ...tenantPath,
      ...json(
        contentTagWrite.openapi({
          example: { siteId: 1, type: "menu", name: "main", definition: { items: [{ label: "Culture", link: { category: 2 } }] } },
        }),
      ),
    },
    data: contentTagSchema,
    answer: "The tag",
    handle: async (c, scope) => putContentTag(c.get("db"), scope, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/tags/{id}",
    summary: "Delete a content tag",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteContentTag(c.get("db"), scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
}
