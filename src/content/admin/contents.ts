import { z } from "@hono/zod-openapi";
import { and, count, desc, eq, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import type { Database } from "../../platform/database";
import type { AppEnv } from "../../platform/env";
import { ApiError, fieldRefused } from "../../platform/errors";
import { idParam } from "../../platform/openapi";
import { isPublic } from "../delivery/service";
import { renderMarkdown } from "../markdown";
import { siteRelativeMedia } from "../media/addresses";
import { imageSizesIn } from "../media/service";
import { statusAt } from "../publication";
import { tagKey, tagSpellings } from "../tag-spellings";
import { categories, contentCategories, contents, contentVersions, type Content, type ContentStatus } from "../schema";
import { contentPath, languageInEnglish } from "../sites/languages";
import { contentPreviewToken, PREVIEW_LINK_SECONDS } from "../sites/previews";
import { siteOrigin } from "../tenancy/domains";
import { inTenant, siteById, siteInScope, type TenantScope } from "../tenancy/scope";
import { page, versionSchema, versionTextSchema } from "./answers";
import { audit } from "../audit-entries";
import { type AdminRoute, as, type MemberScope } from "./guard";
import { contentCreate, contentListQuery, contentUpdate, publishRequest } from "./params";
import { movedAddresses } from "./redirects";
import { inTenantPath, json, tenantPath } from "./shapes";
import { createSelectSchema, rowAnswer } from "../../platform/row-answer";
import { measureText, textRoomOf, versionsPast, withinTextRoom } from "./text-room";
import { bumpVersion, bumpVersionIfPublic, isUniqueViolation } from "./writes";

const contentRow = rowAnswer(createSelectSchema(contents), "ContentRecord");
export const contentSchema = contentRow.extend({ categoryIds: z.array(z.number().int()) }).openapi("Content");

/** An author saves only their own drafts; an editor or owner any content. */
async function mayEdit(c: Context<AppEnv>, scope: MemberScope, id: number) {
  if (scope.role !== "author") return;
  const content = await contentInScope(c.get("db"), scope, id);
  if (content.authorId !== scope.userId || content.status !== "draft") throw new ApiError(403, "An author may change only their own drafts");
}

export async function contentInScope(db: Database, scope: TenantScope, id: number): Promise<Content> {
  const [content] = await db
    .select()
    .from(contents)
    .where(inTenant(contents.tenantId, scope, eq(contents.id, id)))
    .limit(1);
  if (!content) throw new ApiError(404, `No content with id ${id}`);
  if (content.deletedAt) throw new ApiError(404, `Content ${id} is in the Trash: restore it first`);
  return content;
}

async function assertCategories(db: Database, scope: TenantScope, siteId: number, ids: number[] | undefined) {
  if (!ids?.length) return;
  const found = await db
    .select({ id: categories.id })
    .from(categories)
    .where(inTenant(categories.tenantId, scope, eq(categories.siteId, siteId), inArray(categories.id, ids)));
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw fieldRefused("categoryIds", `no category ${missing.join(", ")} in site ${siteId}`);
}

/** A content row as members see it: its status as of now (a scheduled content whose time came is published). */
const asOfNow = <T extends Content>(content: T, now = new Date().toISOString()): T => ({ ...content, status: statusAt(content, now) });

/** The rows whose status is `status` now, not as stored: "scheduled" only until the time, "published" from then on. */
function statusNow(status: ContentStatus, now: string): SQL | undefined {
  if (status === "published") return isPublic(now);
  if (status === "scheduled") return and(eq(contents.status, "scheduled"), gt(contents.publishAt, now));
  return eq(contents.status, status);
}

/**
 * The reads of a content's answer, put at the end of a write's batch: a write that committed is
 * answered from the same round trip, so a failing read cannot tell the caller to do it again.
 */
const detailReads = (db: Database, scope: TenantScope, id: number) =>
  [
    db
      .select()
      .from(contents)
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id)))
      .limit(1),
    db
      .select({ id: contentCategories.categoryId })
      .from(contentCategories)
      .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id))),
  ] as const;
const detailOf = (content: Content, linked: { id: number }[]) => ({ ...asOfNow(content), categoryIds: linked.map((l) => l.id) });

export async function contentDetail(db: Database, scope: TenantScope, id: number) {
  const content = asOfNow(await contentInScope(db, scope, id));
  const linked = await db
    .select({ id: contentCategories.categoryId })
    .from(contentCategories)
    .where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id)));
  return { ...content, categoryIds: linked.map((l) => l.id) };
}

/** A content's language versions, asked from any of them: the original (the group's first content) and those that translate it. */
function languageVersionsOf(scope: TenantScope, id: number) {
  const original = sql`coalesce((SELECT ${contents.translationOf} FROM ${contents} WHERE ${contents.id} = ${id} AND ${contents.tenantId} = ${scope.tenantId}), ${id})`;
  return or(eq(contents.id, original), eq(contents.translationOf, original));
}

export async function listContents(
  db: Database,
  scope: TenantScope,
  q: { siteId?: number; status?: ContentStatus; translationsOf?: number; categoryId?: number; q?: string; page: number; size: number },
) {
  const now = new Date().toISOString();
  const where = inTenant(
    contents.tenantId,
    scope,
    isNull(contents.deletedAt),
    q.siteId ? eq(contents.siteId, q.siteId) : undefined,
    q.status ? statusNow(q.status, now) : undefined,
    q.translationsOf ? languageVersionsOf(scope, q.translationsOf) : undefined,
    q.categoryId
      ? sql`EXISTS (SELECT 1 FROM ${contentCategories} WHERE ${contentCategories.contentId} = ${contents.id} AND ${contentCategories.categoryId} = ${q.categoryId})`
      : undefined,
    // A plain substring, not a LIKE pattern: % and _ in the words are letters like the others.
    q.q ? sql`instr(lower(${contents.title}), lower(${q.q})) > 0` : undefined,
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
  return { items: items.map((item) => asOfNow(item, now)), total: total?.total ?? 0, page: q.page, size: q.size };
}

/** The group's first content that `translationOf` names: a content of the same site, never the content itself. */
async function originalOf(db: Database, scope: TenantScope, siteId: number, translationOf: number, self?: number): Promise<number> {
  const original = await contentInScope(db, scope, translationOf).catch(() => {
    throw fieldRefused("translationOf", `no content with id ${translationOf}`);
  });
  if (original.siteId !== siteId) throw fieldRefused("translationOf", "the original is a content of another site");
  const first = original.translationOf ?? original.id;
  if (first === self) throw fieldRefused("translationOf", "a content cannot be a translation of itself");
  return first;
}

/**
 * A write as it is stored: the body and cover with the site's own media addressed site-relative, as pages on any of its hosts
 * need them; the cover's words trimmed, and spaces alone as none.
 */
const asStored = <T extends { bodyMarkdown?: string; coverImages?: string | null; coverAlt?: string | null }>(
  input: T,
  tenantId: number,
  siteId: number,
): T => ({
  ...input,
  bodyMarkdown: siteRelativeMedia(input.bodyMarkdown, tenantId, siteId),
  coverImages: siteRelativeMedia(input.coverImages, tenantId, siteId),
  ...(input.coverAlt === undefined ? {} : { coverAlt: input.coverAlt?.trim() || null }),
});

/** How many numbered slugs (`harbour-2` … `harbour-40`) a taken slug's suggestion tries. */
const SLUG_SUGGESTIONS = 39;

/**
 * The first of `base-2` … `base-40` free in the site and language, where `base` is the slug without
 * a number of one or two digits ending it (`harbour-2` → `harbour-3`; a year stays: `fair-2026-2`).
 */
async function freeSlug(db: Database, scope: TenantScope, where: { siteId: number; language: string; slug: string }) {
  const base = where.slug.replace(/-\d{1,2}$/, "");
  // Cut to leave room for the number within a slug's 80 characters, never ending on a dash (a slug has single dashes).
  const numbered = (n: number) => `${base.slice(0, 80 - String(n).length - 1).replace(/-$/, "")}-${n}`;
  const candidates = Array.from({ length: SLUG_SUGGESTIONS }, (_, i) => numbered(i + 2));
  const taken = await db
    .select({ slug: contents.slug })
    .from(contents)
    .where(
      inTenant(
        contents.tenantId,
        scope,
        eq(contents.siteId, where.siteId),
        eq(contents.language, where.language),
        inArray(contents.slug, candidates),
      ),
    );
  return candidates.find((candidate) => !taken.some((t) => t.slug === candidate));
}

/** A content's slug is unique in its site and language: a clash is a 409 naming the field, with a free slug to take. */
async function unlessSlugTaken<T>(
  db: Database,
  scope: TenantScope,
  where: { siteId: number; language: string; slug: string; field: string },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const suggestion = await freeSlug(db, scope, where);
    const message = `The slug ${where.slug} is already taken in ${languageInEnglish(where.language)}${suggestion ? `: ${suggestion} is free` : ""}`;
    throw new ApiError(409, message, [{ field: where.field, message, ...(suggestion ? { suggestion } : {}) }]);
  }
}

/** An autosave keeps writing into the member's own latest version for this long, then starts a new one. */
const AUTOSAVE_VERSION_MINUTES = 10;

/**
 * A draft's edits saved while the member writes: into their own latest version when it is under
 * ten minutes old (the history keeps a version per stretch of writing, not per pause), else as a
 * new version. Never a published or scheduled content: its text is what readers see, and changes
 * only when someone saves it on purpose.
 */
async function autosaveContent(
  db: Database,
  scope: TenantScope,
  id: number,
  userId: number,
  given: z.infer<typeof contentUpdate>,
  roomBytes: number,
) {
  const existing = await contentInScope(db, scope, id);
  const now = new Date();
  if (statusAt(existing, now.toISOString()) !== "draft")
    throw new ApiError(
      409,
      `Only a draft is saved automatically: this content is ${statusAt(existing, now.toISOString())}, and changes when you save it`,
    );
  const [latest] = await db
    .select({ savedBy: contentVersions.savedBy, savedAt: contentVersions.savedAt })
    .from(contentVersions)
    .where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id), eq(contentVersions.version, existing.version)))
    .limit(1);
  const since = new Date(now.getTime() - AUTOSAVE_VERSION_MINUTES * 60_000).toISOString();
  const replaceLatest = latest !== undefined && latest.savedBy === userId && latest.savedAt > since;
  return updateContent(db, scope, id, userId, given, { existing, replaceLatest, roomBytes });
}

/** Free tags as the site's contents already spell them: `Waterfront` or `water-front` joins the page of `waterfront` or `water front` rather than starting its own. */
async function inSiteSpelling(db: Database, scope: TenantScope, siteId: number, tags: string[] | undefined) {
  if (!tags?.length) return tags;
  const spelling = await tagSpellings(db, inTenant(contents.tenantId, scope, eq(contents.siteId, siteId)), tags);
  return tags.map((t) => spelling.get(tagKey(t)) ?? t);
}

/**
 * A new draft, its first version recorded beside it, within the tenant's room for text (`roomBytes`);
 * the site's version stays, since no page or list of it changes.
 */
export async function createContent(db: Database, scope: TenantScope, authorId: number, given: z.infer<typeof contentCreate>, roomBytes: number) {
  const input = asStored(given, scope.tenantId, given.siteId);
  const { categoryIds, ...fields } = input;
  await siteInScope(db, scope, input.siteId);
  fields.tags = await inSiteSpelling(db, scope, input.siteId, fields.tags);
  await assertCategories(db, scope, input.siteId, categoryIds);
  if (input.translationOf) fields.translationOf = await originalOf(db, scope, input.siteId, input.translationOf);
  const bodyHtml = await renderMarkdown(input.bodyMarkdown ?? "", await imageSizesIn(db, scope.tenantId, input.siteId, input.bodyMarkdown ?? ""));
  // Rows that follow the content find its id by its unique key, inside the same batch.
  const newId = sql<number>`(SELECT id FROM contents WHERE site_id = ${input.siteId} AND language = ${input.language} AND slug = ${input.slug})`;
  const text = [input.title, input.intro ?? "", input.bodyMarkdown ?? ""];
  const where = { siteId: input.siteId, language: input.language, slug: input.slug, field: "body.slug" };
  return unlessSlugTaken(db, scope, where, async () => {
    const [[content]] = await withinTextRoom(db, scope.tenantId, roomBytes, text, () =>
      db.batch([
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
        measureText(db, scope.tenantId, roomBytes),
      ]),
    );
    return { ...content!, categoryIds: categoryIds ?? [] };
  });
}

/**
 * A save: the fields, a new version, the categories, and the site's cache, all or nothing, within the
 * tenant's room for text (`roomBytes`). An autosave (`replaceLatest`) writes its text into the latest
 * version instead of adding one; a new version lets the oldest past `VERSIONS_KEPT` go.
 */
export async function updateContent(
  db: Database,
  scope: TenantScope,
  id: number,
  userId: number,
  given: z.infer<typeof contentUpdate>,
  options: { existing?: Content; replaceLatest?: boolean; roomBytes: number; restoring?: number },
) {
  const existing = options.existing ?? (await contentInScope(db, scope, id));
  const input = asStored(given, scope.tenantId, existing.siteId);
  const { categoryIds, ...fields } = input;
  await assertCategories(db, scope, existing.siteId, categoryIds);
  fields.tags = await inSiteSpelling(db, scope, existing.siteId, fields.tags);
  // The same checks as at creation: a PATCH cannot tie a content to another site's.
  if (input.translationOf) fields.translationOf = await originalOf(db, scope, existing.siteId, input.translationOf, id);
  const version = options.replaceLatest ? existing.version : existing.version + 1;
  const body = input.bodyMarkdown ?? existing.bodyMarkdown;
  const bodyHtml =
    input.bodyMarkdown === undefined ? existing.bodyHtml : await renderMarkdown(body, await imageSizesIn(db, scope.tenantId, existing.siteId, body));
  const now = new Date().toISOString();
  const text = { title: input.title ?? existing.title, intro: input.intro ?? existing.intro, bodyMarkdown: body, savedBy: userId };
  const taken = {
    siteId: existing.siteId,
    language: input.language ?? existing.language,
    slug: input.slug ?? existing.slug,
    field: input.slug === undefined ? "body.language" : "body.slug",
  };
  // A public content that moves keeps its old address working: links to it are out there already.
  const moves = statusAt(existing, now) === "published" && (taken.slug !== existing.slug || taken.language !== existing.language);
  const site = moves ? await siteInScope(db, scope, existing.siteId) : undefined;
  return unlessSlugTaken(db, scope, taken, async () => {
    const statements: BatchItem<"sqlite">[] = [
      db
        .update(contents)
        .set({ ...fields, bodyHtml, version, updatedAt: now })
        .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
      ...(site ? movedAddresses(db, scope, site.id, [{ from: contentPath(site, existing), to: contentPath(site, taken) }]) : []),
      options.replaceLatest
        ? db
            .update(contentVersions)
            .set({ ...text, savedAt: now })
            .where(inTenant(contentVersions.tenantId, scope, eq(contentVersions.contentId, id), eq(contentVersions.version, version)))
        : db.insert(contentVersions).values({ tenantId: scope.tenantId, contentId: id, version, ...text }),
      ...(options.replaceLatest ? [] : [versionsPast(db, scope, id, version)]),
      bumpVersionIfPublic(db, scope, existing.siteId, id),
      // A change readers see is in the audit log, and so is a restore (a deliberate act); a draft's
      // saves (every few seconds as one types) are not.
      ...(options.restoring !== undefined
        ? [audit(db, scope, userId, "restore-version", `content ${id} (${text.title}) to version ${options.restoring}`, id)]
        : statusAt(existing, now) === "published"
          ? [audit(db, scope, userId, "update", `content ${id} (${text.title})`, id)]
          : []),
    ];
    if (categoryIds) {
      statements.push(db.delete(contentCategories).where(inTenant(contentCategories.tenantId, scope, eq(contentCategories.contentId, id))));
      for (const categoryId of categoryIds)
        statements.push(db.insert(contentCategories).values({ tenantId: scope.tenantId, contentId: id, categoryId }));
    }
    statements.push(measureText(db, scope.tenantId, options.roomBytes), ...detailReads(db, scope, id));
    const results = await withinTextRoom(db, scope.tenantId, options.roomBytes, [text.title, text.intro, text.bodyMarkdown], () =>
      db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]),
    );
    // The batch's last two results are detailReads' (the statements before them vary in number).
    const [content, linked] = results.slice(-2) as [Content[], { id: number }[]];
    return detailOf(content[0]!, linked);
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
  const [, , , [content], linked] = await db.batch([
    db
      .update(contents)
      .set({ status, publishAt, updatedAt: now })
      .where(inTenant(contents.tenantId, scope, eq(contents.id, id))),
    bumpVersion(db, scope, existing.siteId),
    audit(db, scope, userId, action, `content ${id}${publishAt && status === "scheduled" ? ` at ${publishAt}` : ""}`, id),
    ...detailReads(db, scope, id),
  ]);
  return detailOf(content!, linked);
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
export async function restoreVersion(db: Database, scope: TenantScope, id: number, version: number, userId: number, roomBytes: number) {
  const old = await versionOf(db, scope, id, version);
  return updateContent(
    db,
    scope,
    id,
    userId,
    { title: old.title, intro: old.intro, bodyMarkdown: old.bodyMarkdown },
    { roomBytes, restoring: version },
  );
}

const previewLinkSchema = z
  .object({
    url: z
      .string()
      .openapi({ description: "Opens the content on its site's host with the site's theme; the reader stays in preview from page to page" }),
    expiresAt: z.string(),
  })
  .openapi("PreviewLink");

/** A signed link that shows the content on its site, whatever its status, until it expires. */
export async function previewLink(db: Database, env: AppEnv["Bindings"], scope: TenantScope, id: number) {
  const content = await contentInScope(db, scope, id);
  const site = (await siteById(db, content.siteId))!;
  const expires = Math.floor(Date.now() / 1000) + PREVIEW_LINK_SECONDS;
  const token = await contentPreviewToken(env.JWT_SECRET, site, content.id, expires);
  return { url: `${siteOrigin(env, site)}/_preview?token=${token}`, expiresAt: new Date(expires * 1000).toISOString() };
}

/** Contents, their publication and their saved versions. */
export function contentRoutes(route: AdminRoute) {
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents",
    summary: "Contents of every status, recently changed first",
    guard: as("viewer"),
    request: { ...tenantPath, query: contentListQuery },
    data: page(contentRow),
    answer: "A page of contents",
    handle: async (c, scope) => {
      const { page = 1, size = 20, ...filters } = c.req.valid("query");
      return listContents(c.get("db"), scope, { ...filters, page, size });
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents",
    summary: "Create a draft",
    guard: as("author"),
    request: { ...tenantPath, ...json(contentCreate) },
    data: contentSchema,
    answer: "Created",
    status: 201,
    errors: [409, 413],
    handle: async (c, scope) => createContent(c.get("db"), scope, scope.userId, c.req.valid("json"), textRoomOf(c.env)),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "One content",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: contentSchema,
    answer: "The content",
    handle: async (c, scope) => contentDetail(c.get("db"), scope, c.req.valid("param").id),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "Save a content: a new version",
    guard: as("author", "author: own drafts; editor: any"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(contentUpdate) },
    data: contentSchema,
    answer: "The content",
    errors: [409, 413],
    handle: async (c, scope) => {
      const { id } = c.req.valid("param");
      await mayEdit(c, scope, id);
      return updateContent(c.get("db"), scope, id, scope.userId, c.req.valid("json"), { roomBytes: textRoomOf(c.env) });
    },
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/contents/{id}/autosave",
    summary: `Autosave a draft: into the member's own latest version when under ${AUTOSAVE_VERSION_MINUTES} minutes old, else a new one; 409 for a published or scheduled content`,
    guard: as("author", "author: own drafts; editor: any"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(contentUpdate) },
    data: contentSchema,
    answer: "The content",
    errors: [409, 413],
    handle: async (c, scope) => {
      const { id } = c.req.valid("param");
      await mayEdit(c, scope, id);
      return autosaveContent(c.get("db"), scope, id, scope.userId, c.req.valid("json"), textRoomOf(c.env));
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/publish",
    summary: "Publish now, or at publishAt",
    guard: as("editor"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(publishRequest) },
    data: contentSchema,
    answer: "Published or scheduled",
    handle: async (c, scope) => setPublication(c.get("db"), scope, c.req.valid("param").id, scope.userId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/preview-link",
    summary: "A signed link that previews the content on its site for 24 hours (drafts and scheduled ones too)",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: previewLinkSchema,
    answer: "The link",
    handle: async (c, scope) => previewLink(c.get("db"), c.env, scope, c.req.valid("param").id),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/unpublish",
    summary: "Take back to draft",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: contentSchema,
    answer: "A draft again",
    handle: async (c, scope) => setPublication(c.get("db"), scope, c.req.valid("param").id, scope.userId, "unpublish"),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions",
    summary: "Saved versions, newest first",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.array(versionSchema),
    answer: "Versions",
    handle: async (c, scope) => versionsOf(c.get("db"), scope, c.req.valid("param").id),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/versions/{version}/restore",
    summary: "Save an old version's text as the newest",
    guard: as("author", "author: own drafts; editor: any"),
    request: inTenantPath({ id: idParam("id"), version: idParam("version") }),
    data: contentSchema,
    answer: "The content",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      await mayEdit(c, scope, p.id);
      return restoreVersion(c.get("db"), scope, p.id, p.version, scope.userId, textRoomOf(c.env));
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions/{version}",
    summary: "One saved version with its text, for a diff",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id"), version: idParam("version") }),
    data: versionTextSchema,
    answer: "The version",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      return versionOf(c.get("db"), scope, p.id, p.version);
    },
  });
}
