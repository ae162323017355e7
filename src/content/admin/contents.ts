import { and, count, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import { users } from "../platform/auth/tables";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import type {
  categoryCreate,
  categoryOrder,
  categoryUpdate,
  contentCreate,
  contentTagWrite,
  contentUpdate,
  siteCreate,
  siteUpdate,
} from "./admin-params";
import { renderMarkdown } from "./markdown";
import {
  auditLog,
  categories,
  contentCategories,
  contents,
  contentTags,
  contentVersions,
  type Content,
  type ContentStatus,
  type MemberRole,
  type Site,
  sites,
  tenantMembers,
  tenants,
} from "./schema";
import { domainChanges, forgetHosts, withDomainsOne } from "./domains";
import { resolvedMenus, resolvedTag } from "./sites/template-tags";
import { forgetSiteForReaders, inTenant, siteInScope, type TenantScope } from "./tenancy";

/** A unique index refused the write: the slug, domain or name is taken. */
async function unlessTaken<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // Drizzle wraps D1's error: the constraint is named in the cause.
    const messages = [error, (error as { cause?: unknown })?.cause].map((e) => String((e as Error)?.message ?? e));
    if (messages.some((m) => m.includes("UNIQUE constraint failed"))) throw new ApiError(409, `${what} is already taken`);
    throw error;
  }
}

/** The statement that tells the edge cache a site's content changed (cache.ts). */
export function bumpVersion(db: Database, scope: TenantScope, siteId: number) {
  // This isolate's cached copy of the site goes too: its version names the edge cache's key.
  forgetSiteForReaders(siteId);
  return db
    .update(sites)
    .set({ contentVersion: sql`${sites.contentVersion} + 1`, updatedAt: new Date().toISOString() })
    .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId)));
}

const audit = (db: Database, scope: TenantScope, userId: number, action: string, subject: string) =>
  db.insert(auditLog).values({ tenantId: scope.tenantId, userId, action, subject });

// Tenants and members

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

export const membersOf = (db: Database, scope: TenantScope) =>
  db
    .select({ userId: users.id, email: users.email, fullName: users.fullName, role: tenantMembers.role })
    .from(tenantMembers)
    .innerJoin(users, eq(users.id, tenantMembers.userId))
    .where(inTenant(tenantMembers.tenantId, scope))
    .orderBy(users.id);

/** The condition that a tenant keeps another owner besides `userId`: read inside the write, so two owners demoting each other cannot both succeed. */
const anotherOwner = (tenantId: number, userId: number) =>
  sql`EXISTS (SELECT 1 FROM tenant_members AS other WHERE other.tenant_id = ${tenantId} AND other.role = 'owner' AND other.user_id <> ${userId})`;
const LAST_OWNER = "A tenant needs at least one owner: make another member owner first";

/** Adds a user (who has logged in once) or changes their role; the last owner keeps theirs. */
export async function setMember(db: Database, scope: TenantScope, email: string, role: MemberRole) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!user) throw new ApiError(404, `No user with email ${email}: they log in once first`);
  const member = and(eq(tenantMembers.tenantId, scope.tenantId), eq(tenantMembers.userId, user.id));
  if (role !== "owner") {
    const [[existing], changed] = await db.batch([
      db.select({ role: tenantMembers.role }).from(tenantMembers).where(member).limit(1),
      db
        .update(tenantMembers)
        .set({ role })
        .where(and(member, eq(tenantMembers.role, "owner"), anotherOwner(scope.tenantId, user.id)))
        .returning(),
    ]);
    if (existing?.role === "owner") {
      if (changed.length === 0) throw new ApiError(409, LAST_OWNER);
      return { userId: user.id, email, role };
    }
  }
  await db
    .insert(tenantMembers)
    .values({ tenantId: scope.tenantId, userId: user.id, role })
    .onConflictDoUpdate({ target: [tenantMembers.tenantId, tenantMembers.userId], set: { role } });
  return { userId: user.id, email, role };
}

/** Removes a member; the last owner stays. */
export async function removeMember(db: Database, scope: TenantScope, userId: number) {
  const member = and(eq(tenantMembers.tenantId, scope.tenantId), eq(tenantMembers.userId, userId));
  const [[existing], removed] = await db.batch([
    db.select({ role: tenantMembers.role }).from(tenantMembers).where(member).limit(1),
    db
      .delete(tenantMembers)
      .where(and(member, or(ne(tenantMembers.role, "owner"), anotherOwner(scope.tenantId, userId))))
      .returning(),
  ]);
  if (!existing) throw new ApiError(404, `No member with user id ${userId}`);
  if (removed.length === 0) throw new ApiError(409, LAST_OWNER);
}

// Sites

export const sitesOf = (db: Database, scope: TenantScope) => db.select().from(sites).where(inTenant(sites.tenantId, scope)).orderBy(sites.id);

export async function createSite(db: Database, scope: TenantScope, input: z.infer<typeof siteCreate>) {
  return unlessTaken(`The site slug ${input.slug}`, async () => {
    const [site] = await db
      .insert(sites)
      .values({ ...input, tenantId: scope.tenantId, languages: input.languages ?? [input.defaultLanguage ?? "en"] })
      .returning();
    return site!;
  });
}

/** Changes a site and its claimed host names in one batch (domains.ts checks the names). */
export async function updateSite(
  db: Database,
  env: Pick<Bindings, "PUBLIC_ORIGIN" | "SERVICE_HOSTS">,
  scope: TenantScope,
  siteId: number,
  input: z.infer<typeof siteUpdate>,
) {
  await siteInScope(db, scope, siteId);
  const { primaryDomain, aliases, ...fields } = input;
  const hostChanges = await domainChanges(db, env, scope, siteId, { primaryDomain, aliases });
  forgetSiteForReaders(siteId);
  return unlessTaken("The site slug", async () => {
    const [[site]] = await db.batch([
      db
        .update(sites)
        .set({ ...fields, contentVersion: sql`${sites.contentVersion} + 1`, updatedAt: new Date().toISOString() })
        .where(inTenant(sites.tenantId, scope, eq(sites.id, siteId)))
        .returning(),
      ...hostChanges.statements,
    ]);
    forgetHosts(hostChanges.dropped);
    return withDomainsOne(db, scope, site!);
  });
}

/** Makes a theme the site's and records who did, in one batch: the site's pages change at once. */
export async function activateTheme(db: Database, scope: TenantScope, site: Site, theme: string, userId: number) {
  forgetSiteForReaders(site.id);
  const [[updated]] = await db.batch([
    db
      .update(sites)
      .set({
        theme,
        previousTheme: site.theme === theme ? site.previousTheme : site.theme,
        contentVersion: sql`${sites.contentVersion} + 1`,
        updatedAt: new Date().toISOString(),
      })
      .where(inTenant(sites.tenantId, scope, eq(sites.id, site.id)))
      .returning(),
    audit(db, scope, userId, "activate-theme", `site ${site.id}: ${theme} (was ${site.theme})`),
  ]);
  return updated!;
}

// Categories

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
  const parent = await categoryInScope(db, scope, parentId).catch(() => {
    throw new ApiError(400, `parentId: no category with id ${parentId}`);
  });
  if (parent.siteId !== siteId) throw new ApiError(400, "parentId: the parent is a category of another site");
  // No cycles: the new parent must not sit below the category itself.
  const all = await db
    .select()
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, siteId)));
  for (let at: number | null = parentId; at !== null; at = all.find((c) => c.id === at)?.parentId ?? null) {
    if (at === self) throw new ApiError(400, "parentId: a category cannot be placed below itself");
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

export async function createCategory(db: Database, scope: TenantScope, input: z.infer<typeof categoryCreate>) {
  await siteInScope(db, scope, input.siteId);
  await assertParent(db, scope, input.siteId, input.parentId);
  return unlessTaken(`The category slug ${input.slug}`, async () => {
    const [[category]] = await db.batch([
      db
        .insert(categories)
        .values({ ...input, tenantId: scope.tenantId })
        .returning(),
      bumpVersion(db, scope, input.siteId),
    ]);
    return category!;
  });
}

export async function updateCategory(db: Database, scope: TenantScope, id: number, input: z.infer<typeof categoryUpdate>) {
  const existing = await categoryInScope(db, scope, id);
  await assertParent(db, scope, existing.siteId, input.parentId, id);
  return unlessTaken("The category slug", async () => {
    const [[category]] = await db.batch([
      db
        .update(categories)
        .set(input)
        .where(inTenant(categories.tenantId, scope, eq(categories.id, id)))
        .returning(),
      bumpVersion(db, scope, existing.siteId),
    ]);
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
export async function deleteCategory(db: Database, scope: TenantScope, id: number) {
  const existing = await categoryInScope(db, scope, id);
  const [[children], [linked]] = await db.batch([
    db
      .select({ n: count() })
      .from(categories)
      .where(inTenant(categories.tenantId, scope, eq(categories.parentId, id))),
    db
      .select({ n: count() })
      .from(contentCategories)
      .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.categoryId, id))),
  ]);
  if (children!.n > 0) throw new ApiError(409, `The category has ${children!.n} subcategories; move or delete them first`);
  if (linked!.n > 0) throw new ApiError(409, `The category holds ${linked!.n} contents; move them first`);
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
  await db.batch([db.delete(categories).where(inTenant(categories.tenantId, scope, eq(categories.id, id))), bumpVersion(db, scope, existing.siteId)]);
}

// Contents

export async function contentInScope(db: Database, scope: TenantScope, id: number): Promise<Content> {
  const [content] = await db
    .select()
    .from(contents)
    .where(inTenant(contents.tenantId, scope, eq(contents.id, id)))
    .limit(1);
  if (!content) throw new ApiError(404, `No content with id ${id}`);
  return content;
}

async function assertCategories(db: Database, scope: TenantScope, siteId: number, ids: number[] | undefined) {
  if (!ids?.length) return;
  const found = await db
    .select({ id: categories.id })
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, siteId), inArray(categories.id, ids)));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw new ApiError(400, `categoryIds: no category ${missing.join(", ")} in site ${siteId}`);
}

export async function contentDetail(db: Database, scope: TenantScope, id: number) {
  const content = await contentInScope(db, scope, id);
  const linked = await db
    .select({ id: contentCategories.categoryId })
    .from(contentCategories)
    .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id)));
  return { ...content, categoryIds: linked.map((l) => l.id) };
}

export async function listContents(db: Database, scope: TenantScope, q: { siteId?: number; status?: ContentStatus; page: number; size: number }) {
  const where = inTenant(
    contents.tenantId,
    scope,
    q.siteId ? eq(contents.siteId, q.siteId) : undefined,
    q.status ? eq(contents.status, q.status) : undefined,
  );
  const [items, [total]] = await db.batch([
    db
      .select()
      .from(contents)
      .where(where)
      .orderBy(desc(contents.updatedAt), desc(contents.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ total: count() }).from(contents).where(where),
  ]);
  return { items, total: total?.total ?? 0, page: q.page, size: q.size };
}

/** The group's first content that `translationOf` names: a content of the same site, never the content itself. */
async function originalOf(db: Database, scope: TenantScope, siteId: number, translationOf: number, self?: number): Promise<number> {
  const original = await contentInScope(db, scope, translationOf).catch(() => {
    throw new ApiError(400, `translationOf: no content with id ${translationOf}`);
  });
  if (original.siteId !== siteId) throw new ApiError(400, "translationOf: the original is a content of another site");
  const first = original.translationOf ?? original.id;
  if (first === self) throw new ApiError(400, "translationOf: a content cannot be a translation of itself");
  return first;
}

/** A new draft, its first version recorded beside it. */
export async function createContent(db: Database, scope: TenantScope, authorId: number, input: z.infer<typeof contentCreate>) {
  const { categoryIds, ...fields } = input;
  await siteInScope(db, scope, input.siteId);
  await assertCategories(db, scope, input.siteId, categoryIds);
  if (input.translationOf) fields.translationOf = await originalOf(db, scope, input.siteId, input.translationOf);
  const bodyHtml = await renderMarkdown(input.bodyMarkdown ?? "");
  // Rows that follow the content find its id by its unique key, inside the same batch.
  const newId = sql<number>`(SELECT id FROM contents WHERE site_id = ${input.siteId} AND language = ${input.language} AND slug = ${input.slug})`;
  return unlessTaken(`The slug ${input.slug} in ${input.language}`, async () => {
    const [[content]] = await db.batch([
      db
        .insert(contents)
        .values({ ...fields, tenantId: scope.tenantId, authorId, bodyHtml, status: "draft" })
        .returning(),
      db.insert(contentVersions).values({
        tenantId: scope.tenantId,
        contentId: newId,
        version: 1,
        title: input.title,
        intro: input.intro ?? "",
        bodyMarkdown: input.bodyMarkdown ?? "",
        savedBy: authorId,
      }),
      ...(categoryIds ?? []).map((categoryId) => db.insert(contentCategories).values({ tenantId: scope.tenantId, contentId: newId, categoryId })),
      bumpVersion(db, scope, input.siteId),
    ]);
    return { ...content!, categoryIds: categoryIds ?? [] };
  });
}

/** A save: the fields, a new version, the categories, and the site's cache, all or nothing. */
export async function updateContent(db: Database, scope: TenantScope, id: number, userId: number, input: z.infer<typeof contentUpdate>) {
  const existing = await contentInScope(db, scope, id);
  const { categoryIds, ...fields } = input;
  await assertCategories(db, scope, existing.siteId, categoryIds);
  // The same checks as at creation: a PATCH cannot tie a content to another site's.
  if (input.translationOf) fields.translationOf = await originalOf(db, scope, existing.siteId, input.translationOf, id);
  const version = existing.version + 1;
  const body = input.bodyMarkdown ?? existing.bodyMarkdown;
  const bodyHtml = input.bodyMarkdown === undefined ? existing.bodyHtml : await renderMarkdown(body);
  return unlessTaken("The slug", async () => {
    const statements: BatchItem<"sqlite">[] = [
      db
        .update(contents)
        .set({ ...fields, bodyHtml, version, updatedAt: new Date().toISOString() })
        .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
      db.insert(contentVersions).values({
        tenantId: scope.tenantId,
        contentId: id,
        version,
        title: input.title ?? existing.title,
        intro: input.intro ?? existing.intro,
        bodyMarkdown: body,
        savedBy: userId,
      }),
      bumpVersion(db, scope, existing.siteId),
    ];
    if (categoryIds) {
      statements.push(db.delete(contentCategories).where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id))));
      for (const categoryId of categoryIds)
        statements.push(db.insert(contentCategories).values({ tenantId: scope.tenantId, contentId: id, categoryId }));
    }
    await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return contentDetail(db, scope, id);
  });
}

/** Publish now, schedule for later, or take back to draft; recorded in the audit log. */
export async function setPublication(db: Database, scope: TenantScope, id: number, userId: number, change: { publishAt?: string } | "unpublish") {
  const existing = await contentInScope(db, scope, id);
  const now = new Date().toISOString();
  let status: ContentStatus = "draft";
  let publishAt: string | null = null;
  if (change !== "unpublish") {
    publishAt = change.publishAt ? new Date(change.publishAt).toISOString() : now;
    status = publishAt > now ? "scheduled" : "published";
  }
  const action = change === "unpublish" ? "unpublish" : status === "scheduled" ? "schedule" : "publish";
  await db.batch([
    db
      .update(contents)
      .set({ status, publishAt, updatedAt: now })
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, userId, action, `content ${id}${publishAt && status === "scheduled" ? ` at ${publishAt}` : ""}`),
  ]);
  return contentDetail(db, scope, id);
}

export async function deleteContent(db: Database, scope: TenantScope, id: number, userId: number) {
  const existing = await contentInScope(db, scope, id);
  await db.batch([
    db.delete(contentCategories).where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id))),
    db.delete(contentVersions).where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id))),
    db
      .update(contents)
      .set({ translationOf: null })
      .where(inTenant(contents.tenantId, scope, eq(contents.translationOf, id))),
    db.delete(contents).where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, userId, "delete", `content ${id} (${existing.title})`),
  ]);
}

export async function versionsOf(db: Database, scope: TenantScope, id: number) {
  await contentInScope(db, scope, id);
  return db
    .select({ version: contentVersions.version, title: contentVersions.title, savedBy: contentVersions.savedBy, savedAt: contentVersions.savedAt })
    .from(contentVersions)
    .where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id)))
    .orderBy(desc(contentVersions.version));
}

/** One saved version with its text (the console diffs two). */
export async function versionOf(db: Database, scope: TenantScope, id: number, version: number) {
  const [found] = await db
    .select({
      version: contentVersions.version,
      title: contentVersions.title,
      intro: contentVersions.intro,
      bodyMarkdown: contentVersions.bodyMarkdown,
      savedBy: contentVersions.savedBy,
      savedAt: contentVersions.savedAt,
    })
    .from(contentVersions)
    .where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id), eq(contentVersions.version, version)))
    .limit(1);
  if (!found) throw new ApiError(404, `Content ${id} has no version ${version}`);
  return found;
}

/** A restore is a new save with an old version's text. */
export async function restoreVersion(db: Database, scope: TenantScope, id: number, version: number, userId: number) {
  const old = await versionOf(db, scope, id, version);
  return updateContent(db, scope, id, userId, { title: old.title, intro: old.intro, bodyMarkdown: old.bodyMarkdown });
}

// Content tags

export async function contentTagsOf(db: Database, scope: TenantScope, siteId: number) {
  await siteInScope(db, scope, siteId);
  return db
    .select()
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.siteId, siteId)))
    .orderBy(contentTags.type, contentTags.name);
}

/** Creates or replaces the tag of that name. */
export async function putContentTag(db: Database, scope: TenantScope, input: z.infer<typeof contentTagWrite>) {
  await siteInScope(db, scope, input.siteId);
  const [[tag]] = await db.batch([
    db
      .insert(contentTags)
      .values({ ...input, tenantId: scope.tenantId })
      .onConflictDoUpdate({ target: [contentTags.siteId, contentTags.name], set: { type: input.type, definition: input.definition } })
      .returning(),
    bumpVersion(db, scope, input.siteId),
  ]);
  return tag!;
}

/** What templates would read for a content tag now: a menu's items with URLs, a taxonomy's members, a posts query's contents. */
export async function previewContentTag(db: Database, scope: TenantScope, id: number) {
  const [tag] = await db
    .select()
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.id, id)))
    .limit(1);
  if (!tag) throw new ApiError(404, `No content tag with id ${id}`);
  const site = await siteInScope(db, scope, tag.siteId);
  if (tag.type === "menu") return (await resolvedMenus(db, site))[tag.name] ?? [];
  return resolvedTag(db, site, tag, new Date().toISOString());
}

export async function deleteContentTag(db: Database, scope: TenantScope, id: number) {
  const [tag] = await db
    .select()
    .from(contentTags)
    .where(inTenant(contentTags.tenantId, scope, eq(contentTags.id, id)))
    .limit(1);
  if (!tag) throw new ApiError(404, `No content tag with id ${id}`);
  await db.batch([db.delete(contentTags).where(inTenant(contentTags.tenantId, scope, eq(contentTags.id, id))), bumpVersion(db, scope, tag.siteId)]);
}

export const auditOf = (db: Database, scope: TenantScope, page: number, size: number) =>
  db
    .select()
    .from(auditLog)
    .where(inTenant(auditLog.tenantId, scope))
    .orderBy(desc(auditLog.id))
    .limit(size)
    .offset((page - 1) * size);
