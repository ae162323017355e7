import { z } from "@hono/zod-openapi";
import { and, count, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../../platform/database";
import { ApiError, fieldRefused } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { categories, contentCategories, contents, contentTags } from "../schema";
import { measureRows, ROWS_PER_TENANT, withinRooms } from "../tenancy/rooms";
import { inTenant, siteInScope, type TenantScope } from "../tenancy/scope";
import { audit } from "../audit-entries";
import { type AdminRoute, as, type MemberScope } from "./guard";
import { categoryCreate, categoryOrder, categoryUpdate } from "./params";
import { deleted, inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { textsInOtherLanguages } from "./sites";
import { bumpVersion, unlessTaken } from "./writes";
import { movedAddresses } from "./redirects";
import { languagePrefix, siteLanguages } from "../sites/languages";

const categorySchema = rowAnswer(createSelectSchema(categories), "Category", {
  id: 3,
  tenantId: 1,
  siteId: 1,
  parentId: 2,
  name: "Museums",
  names: { de: "Museen" },
  slug: "museums",
  description: "Exhibitions and collections of the city's museums",
  descriptions: { de: "Ausstellungen und Sammlungen der Museen der Stadt" },
  position: 0,
  seoTitle: null,
  seoDescription: null,
});

async function categoryInScope(db: Database, scope: TenantScope, id: number) {
  const [category] = await db
    .select()
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.id, id)))
    .limit(1);
  if (!category) throw new ApiError(404, `No category with id ${id}`);
  return category;
}

async function assertParent(db: Database, scope: TenantScope, siteId: number, parentId: number | null | undefined, self?: number) {
  if (parentId === null || parentId === undefined) return;
  const refuse = (message: string) => fieldRefused("parentId", message);
  const parent = await categoryInScope(db, scope, parentId).catch(() => {
    throw refuse(`no category with id ${parentId}`);
  });
  if (parent.siteId !== siteId) throw refuse("the parent is a category of another site");
  // No cycles: the new parent must not sit below the category itself.
  const all = await db
    .select()
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, siteId)));
  for (let at: number | null = parentId; at !== null; at = all.find((c) => c.id === at)?.parentId ?? null) {
    if (at === self) throw refuse("a category cannot be placed below itself or one of its own subcategories");
  }
}

export async function categoriesOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, siteId)))
    .orderBy(categories.position, categories.id);
}

export async function createCategory(db: Database, scope: MemberScope, input: z.infer<typeof categoryCreate>) {
  const site = await siteInScope(db, scope, input.siteId);
  const names = textsInOtherLanguages("names", input.names, {}, site);
  const descriptions = textsInOtherLanguages("descriptions", input.descriptions, {}, site);
  await assertParent(db, scope, input.siteId, input.parentId);
  return unlessTaken(`The category slug ${input.slug}`, async () => {
    const [[category]] = await withinRooms(() =>
      db.batch([
        db
          .insert(categories)
          .values({ ...input, names, descriptions, tenantId: scope.tenantId })
          .returning(),
        bumpVersion(db, scope, input.siteId),
        audit(db, scope, scope.userId, "create-category", input.name),
        measureRows(db, scope.tenantId, "categories"),
      ]),
    );
    return category!;
  });
}

export async function updateCategory(db: Database, scope: MemberScope, id: number, input: z.infer<typeof categoryUpdate>) {
  const existing = await categoryInScope(db, scope, id);
  const site = await siteInScope(db, scope, existing.siteId);
  const names = textsInOtherLanguages("names", input.names, existing.names, site);
  const descriptions = textsInOtherLanguages("descriptions", input.descriptions, existing.descriptions, site);
  await assertParent(db, scope, existing.siteId, input.parentId, id);
  // Its pages keep their old addresses working, in every language of the site: links to them are out there already.
  const moves =
    input.slug !== undefined && input.slug !== existing.slug
      ? siteLanguages(site).map((language) => ({
          from: `${languagePrefix(site, language)}/c/${existing.slug}`,
          to: `${languagePrefix(site, language)}/c/${input.slug}`,
        }))
      : [];
  return unlessTaken("The category slug", async () => {
    const [[category]] = await withinRooms(() =>
      db.batch([
        db
          .update(categories)
          .set({ ...input, names, descriptions })
          .where(inTenant(categories.tenantId, scope, eq(categories.id, id)))
          .returning(),
        bumpVersion(db, scope, existing.siteId),
        audit(db, scope, scope.userId, "change-category", input.name ?? existing.name),
        ...(moves.length ? movedAddresses(db, scope, site.id, moves) : []),
      ]),
    );
    return category!;
  });
}

/** Puts a parent's subcategories (or the top level) in the given order, all in one batch. */
export async function orderCategories(db: Database, scope: TenantScope, siteId: number, input: z.infer<typeof categoryOrder>) {
  const all = await categoriesOf(db, scope, siteId);
  const siblings = all.filter((category) => category.parentId === input.parentId).map((category) => category.id);
  const given = new Set(input.ids);
  if (given.size !== input.ids.length || given.size !== siblings.length || siblings.some((id) => !given.has(id))) {
    throw new ApiError(
      400,
      `ids: must list each of the ${siblings.length} categories under ${input.parentId === null ? "the top level" : `category ${input.parentId}`} once`,
    );
  }
  const [first, ...rest] = input.ids.map((id, position) =>
    db
      .update(categories)
      .set({ position })
      .where(inTenant(categories.tenantId, scope, eq(categories.id, id))),
  );
  await db.batch([first!, ...rest, bumpVersion(db, scope, siteId)]);
  return categoriesOf(db, scope, siteId);
}

/** A category with children or contents stays: 409 says which. */
export async function deleteCategory(db: Database, scope: MemberScope, id: number) {
  const existing = await categoryInScope(db, scope, id);
  const [[children], [linked]] = await db.batch([
    db
      .select({ n: count() })
      .from(categories)
      .where(inTenant(categories.tenantId, scope, eq(categories.parentId, id))),
    db
      .select({ n: count() })
      .from(contentCategories)
      .innerJoin(contents, and(eq(contents.id, contentCategories.contentId), isNull(contents.deletedAt)))
      .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.categoryId, id))),
  ]);
  const [subcategories, filed] = [children!.n, linked!.n];
  if (subcategories > 0)
    throw new ApiError(
      409,
      subcategories === 1
        ? "The category has a subcategory: move or delete it first"
        : `The category has ${subcategories} subcategories: move or delete them first`,
    );
  if (filed > 0)
    throw new ApiError(
      409,
      filed === 1
        ? "A content is filed under the category: file it under another one first"
        : `${filed} contents are filed under the category: file them under another one first`,
    );
  // A taxonomy or posts tag that names the category would lose it: the owner chooses what it shows instead.
  const naming = await db
    .select({ name: contentTags.name })
    .from(contentTags)
    .where(
      inTenant(
        contentTags.tenantId,
        scope,
        eq(contentTags.siteId, existing.siteId),
        sql`EXISTS (SELECT 1 FROM json_each(${contentTags.definition}, '$.categories') WHERE value = ${id})`,
      ),
    );
  if (naming.length) throw new ApiError(409, `The content tags ${naming.map((t) => t.name).join(", ")} name the category; change them first`);
  // Contents in the Trash let go of it: restored, they come back without it.
  const trashed = db
    .select({ id: contents.id })
    .from(contents)
    .where(inTenant(contents.tenantId, scope, isNotNull(contents.deletedAt)));
  await db.batch([
    db
      .delete(contentCategories)
      .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.categoryId, id), inArray(contentCategories.contentId, trashed))),
    db.delete(categories).where(inTenant(categories.tenantId, scope, eq(categories.id, id))),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, scope.userId, "delete-category", existing.name),
  ]);
}

/** A site's categories, in order. */
export function categoryRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/categories",
    summary: "A site's categories, flat, in order",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(categorySchema),
    answer: "Categories",
    handle: async (c, scope) => categoriesOf(c.get("db"), scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/sites/{siteId}/categories/order",
    summary: "Order one parent's subcategories",
    guard: as("editor"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(categoryOrder) },
    data: z.array(categorySchema),
    answer: "Categories, in the new order",
    handle: async (c, scope) => orderCategories(c.get("db"), scope, c.req.valid("param").siteId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/categories",
    summary: "Create a category",
    description: `Refused (409) when its slug is taken, or past ${ROWS_PER_TENANT.categories.toLocaleString("en-US")} categories, all the tenant's sites together.`,
    guard: as("editor"),
    request: { ...tenantPath, ...json(categoryCreate.openapi({ example: { siteId: 1, parentId: 2, name: "Museums", slug: "museums" } })) },
    data: categorySchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => createCategory(c.get("db"), scope, c.req.valid("json")),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/categories/{id}",
    summary: "Change a category",
    guard: as("editor"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(categoryUpdate) },
    data: categorySchema,
    answer: "The category",
    errors: [409],
    handle: async (c, scope) => updateCategory(c.get("db"), scope, c.req.valid("param").id, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/categories/{id}",
    summary: "Delete an empty category",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    errors: [409],
    handle: async (c, scope) => {
      await deleteCategory(c.get("db"), scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
}
