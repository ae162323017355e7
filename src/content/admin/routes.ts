import { z } from "@hono/zod-openapi";
import { createSchemaFactory } from "drizzle-zod";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter, idParam } from "../platform/openapi";
import { type Guard, tenantRoutes } from "../platform/route";
import { settingsOf } from "../platform/settings";
import {
  auditOf,
  categoriesOf,
  contentDetail,
  contentInScope,
  contentTagsOf,
  createCategory,
  createContent,
  createSite,
  createTenant,
  deleteCategory,
  deleteContent,
  deleteContentTag,
  listContents,
  orderCategories,
  membersOf,
  putContentTag,
  restoreVersion,
  setMember,
  removeMember,
  setPublication,
  sitesOf,
  tenantsOf,
  updateCategory,
  updateContent,
  activateTheme,
  updateSite,
  versionOf,
  versionsOf,
  previewContentTag,
} from "./admin";
import {
  categoryCreate,
  categoryOrder,
  categoryUpdate,
  contentCreate,
  contentListQuery,
  contentTagWrite,
  contentUpdate,
  adCreate,
  adUpdate,
  keyCreate,
  redirectWrite,
  memberAdd,
  publishRequest,
  siteCreate,
  siteUpdate,
  domainVerify,
  tenantCreate,
} from "./admin-params";
import { queryInteger } from "./params";
import { deleteMedia, MAX_MEDIA_BYTES, MEDIA_TYPES, mediaOf, uploadMedia } from "./media";
import { ads, auditLog, categories, contents, contentTags, media, MEMBER_ROLES, type MemberRole, redirects, sites, tenantKeys } from "./schema";
import { adStatsOf, adsOf, createAd, deleteAd, deleteRedirect, putRedirect, redirectsOf, updateAd } from "./site-extras";
import { contentSettings } from "./settings";
import { issueTenantKey, listTenantKeys, revokeTenantKey } from "./tenant-keys";
import { currentCsrfToken, endSession, startSession } from "./member-session";
import { previewToken, themesOf, uploadTheme } from "./sites/theme-upload";
import { verifyDomain, withDomains, withDomainsOne } from "./domains";
import { memberRole, memberScope, requireRole, siteInScope, type TenantScope } from "./tenancy";

export const ADMIN_BASE_PATH = "/admin/api";
/** Tenants one account may own unless MAX_TENANTS_PER_USER says otherwise. */
export const DEFAULT_MAX_TENANTS_PER_USER = 5;

// Response shapes are the tables' own (drizzle-zod), so a column added is a field documented.
const { createSelectSchema } = createSchemaFactory({ zodInstance: z });
const fromTable = (schema: { shape: z.ZodRawShape }, name: string) => z.object(schema.shape).openapi(name);
const domainSchema = z
  .object({
    host: z.string(),
    primary: z.boolean(),
    verified: z.boolean().openapi({ description: "Proved with its DNS TXT record: only then does the host reach the site" }),
    verification: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
      .nullable()
      .openapi({ description: "The record to publish before POST …/domains/verify; null once proved" }),
  })
  .openapi("SiteDomain");
const siteSchema = z
  .object({ ...createSelectSchema(sites).shape, primaryDomain: z.string().nullable(), aliases: z.array(z.string()), domains: z.array(domainSchema) })
  .openapi("Site");
const categorySchema = fromTable(createSelectSchema(categories), "Category");
const contentRow = fromTable(createSelectSchema(contents), "ContentRecord");
const contentSchema = contentRow.extend({ categoryIds: z.array(z.number().int()) }).openapi("Content");
const contentTagSchema = fromTable(createSelectSchema(contentTags, { definition: z.unknown() }), "ContentTag");
const auditSchema = fromTable(createSelectSchema(auditLog), "AuditEntry");
const keySchema = fromTable(createSelectSchema(tenantKeys).omit({ tokenHash: true }), "TenantKey");
const mediaSchema = fromTable(createSelectSchema(media), "MediaRecord").extend({ url: z.string() }).openapi("Media");
const redirectSchema = fromTable(createSelectSchema(redirects), "Redirect");
const adSchema = fromTable(createSelectSchema(ads), "Ad");
const tenantSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string(), role: z.enum(MEMBER_ROLES) }).openapi("TenantMembership");
const memberSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  fullName: z.string().nullable().optional(),
  role: z.enum(MEMBER_ROLES),
});
const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int() });

const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const tenantId = idParam("tenantId");
const tenantPath = { params: z.object({ tenantId }) };
const inTenantPath = <M extends z.ZodRawShape>(more: M) => ({ params: z.object({ tenantId, ...more }) });
const deleted = { data: z.object({ deleted: z.literal(true) }), answer: "Deleted" };

const themeName = z.string().regex(/^[a-z0-9-]{1,40}$/, { error: "name must be a theme's folder name: lower-case letters, digits, dashes" });

/** An uploaded file's name as its uploader gave it: no path, no control characters. */
const fileName = z
  .string()
  .min(1)
  .max(200, { error: "filename must be at most 200 characters" })
  .refine((name) => !/[/\\]/.test(name) && [...name].every((ch) => ch >= " "), {
    error: "filename must be a file name, without slashes or control characters",
  });

const csrfSchema = z.object({ csrfToken: z.string().openapi({ description: "Send as X-CSRF-Token with every write that uses the cookie" }) });

type MemberScope = TenantScope & { role: MemberRole; userId: number };

/** The member's scope in the path's tenant, once their role reaches `needed`. */
async function member(c: Context<AppEnv>, id: number, needed: MemberRole): Promise<MemberScope> {
  const role = await memberRole(c.var.db, id, c.var.principal.userId);
  requireRole(role, needed);
  return { ...memberScope(id), role, userId: c.var.principal.userId };
}

/** An author saves only their own drafts; an editor or owner any content. */
async function mayEdit(c: Context<AppEnv>, scope: MemberScope, id: number) {
  if (scope.role !== "author") return;
  const content = await contentInScope(c.var.db, scope, id);
  if (content.authorId !== scope.userId || content.status !== "draft") throw new ApiError(403, "An author may change only their own drafts");
}

const maskedKey = <K extends { tokenHash: string }>({ tokenHash: _hash, ...key }: K) => key;

/** A route's member role: written once, into its summary as `(note)`, and checked before its handler, which gets the member's scope. */
const as = (role: MemberRole, note: string = role): Guard<MemberScope> => ({
  note,
  check: (c) => member(c, tenantId.parse(c.req.param("tenantId")), role),
});

/** The admin API the console uses: tenant members with a session, each action checked against the member's role. */
export function adminRoutes() {
  const r = createRouter();
  const route = tenantRoutes(r, {
    tags: ["C · Content admin"],
    security: [{ Bearer: [] }, { ConsoleSession: [] }],
    errors: [400, 401, 403, 404, 415, 429],
  });
  // Members' data and CSRF tokens: no browser or proxy keeps a copy.
  r.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });

  route({
    method: "post",
    path: "/session",
    summary: "Start a console session: an HttpOnly cookie (SameSite=Lax) from the JWT, and its CSRF token",
    data: csrfSchema,
    answer: "The cookie is set",
    handle: async (c) => ({ csrfToken: await startSession(c) }),
  });
  route({
    method: "get",
    path: "/session",
    summary: "The session's user and CSRF token (after a reload of the console)",
    data: z.object({ userId: z.number().int(), csrfToken: z.string().nullable() }),
    answer: "The session",
    handle: async (c) => ({ userId: c.var.principal.userId, csrfToken: await currentCsrfToken(c) }),
  });
  route({
    method: "delete",
    path: "/session",
    summary: "End the console session: its id is deleted server-side, so the cookie's value is dead everywhere",
    data: z.object({ ended: z.literal(true) }),
    answer: "Ended",
    handle: async (c) => {
      await endSession(c);
      return { ended: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants",
    summary: "The caller's tenants and roles",
    data: z.array(tenantSchema),
    answer: "Tenants",
    handle: async (c) => tenantsOf(c.var.db, c.var.principal.userId),
  });
  route({
    method: "post",
    path: "/tenants",
    summary: "Create a tenant; the caller is its owner (an account owns at most MAX_TENANTS_PER_USER, default 5: 403 beyond)",
    request: json(tenantCreate),
    data: tenantSchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c) =>
      createTenant(
        c.var.db,
        c.var.principal.userId,
        c.req.valid("json"),
        settingsOf(c.env, contentSettings).MAX_TENANTS_PER_USER ?? DEFAULT_MAX_TENANTS_PER_USER,
      ),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/members",
    summary: "Members and roles",
    guard: as("viewer"),
    request: tenantPath,
    data: z.array(memberSchema),
    answer: "Members",
    handle: async (c, scope) => membersOf(c.var.db, scope),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/members",
    summary: "Add a member or change a role",
    guard: as("owner"),
    summaryEnd: "; the last owner cannot give up the role (409)",
    request: { ...tenantPath, ...json(memberAdd) },
    data: memberSchema,
    answer: "The member",
    errors: [409],
    handle: async (c, scope) => {
      const { email, role } = c.req.valid("json");
      return setMember(c.var.db, scope, email, role);
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/members/{userId}",
    summary: "Remove a member",
    guard: as("owner"),
    summaryEnd: "; the last owner stays (409)",
    request: inTenantPath({ userId: idParam("userId") }),
    ...deleted,
    errors: [409],
    handle: async (c, scope) => {
      await removeMember(c.var.db, scope, c.req.valid("param").userId);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites",
    summary: "Sites",
    guard: as("viewer"),
    request: tenantPath,
    data: z.array(siteSchema),
    answer: "Sites",
    handle: async (c, scope) => withDomains(c.var.db, scope, await sitesOf(c.var.db, scope)),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites",
    summary: "Create a site",
    guard: as("owner"),
    request: { ...tenantPath, ...json(siteCreate) },
    data: siteSchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => withDomainsOne(c.var.db, scope, await createSite(c.var.db, scope, c.req.valid("json"))),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/sites/{siteId}",
    summary: "Change a site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(siteUpdate) },
    data: siteSchema,
    answer: "The site",
    errors: [409],
    handle: async (c, scope) => updateSite(c.var.db, c.env, scope, c.req.valid("param").siteId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/domains/verify",
    summary: "Prove a claimed host name with its DNS TXT record; from then on it reaches the site",
    guard: as("owner"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(domainVerify) },
    data: domainSchema,
    answer: "The host name, proved",
    errors: [409, 502],
    handle: async (c, scope) => {
      const { siteId } = c.req.valid("param");
      await siteInScope(c.var.db, scope, siteId);
      return verifyDomain(c.var.db, c.env, scope, siteId, c.req.valid("json").host);
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/categories",
    summary: "A site's categories, flat, in order",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(categorySchema),
    answer: "Categories",
    handle: async (c, scope) => categoriesOf(c.var.db, scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/sites/{siteId}/categories/order",
    summary: "Order one parent's subcategories",
    guard: as("editor"),
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(categoryOrder) },
    data: z.array(categorySchema),
    answer: "Categories, in the new order",
    handle: async (c, scope) => orderCategories(c.var.db, scope, c.req.valid("param").siteId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/categories",
    summary: "Create a category",
    guard: as("editor"),
    request: { ...tenantPath, ...json(categoryCreate) },
    data: categorySchema,
    answer: "Created",
    status: 201,
    errors: [409],
    handle: async (c, scope) => createCategory(c.var.db, scope, c.req.valid("json")),
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
    handle: async (c, scope) => updateCategory(c.var.db, scope, c.req.valid("param").id, c.req.valid("json")),
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
      await deleteCategory(c.var.db, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
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
      return listContents(c.var.db, scope, { ...filters, page, size });
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
    handle: async (c, scope) => createContent(c.var.db, scope, scope.userId, c.req.valid("json")),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "One content",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: contentSchema,
    answer: "The content",
    handle: async (c, scope) => contentDetail(c.var.db, scope, c.req.valid("param").id),
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
      return updateContent(c.var.db, scope, id, scope.userId, c.req.valid("json"));
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
    handle: async (c, scope) => setPublication(c.var.db, scope, c.req.valid("param").id, scope.userId, c.req.valid("json")),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/unpublish",
    summary: "Take back to draft",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: contentSchema,
    answer: "A draft again",
    handle: async (c, scope) => setPublication(c.var.db, scope, c.req.valid("param").id, scope.userId, "unpublish"),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "Delete a content and its versions",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteContent(c.var.db, scope, c.req.valid("param").id, scope.userId);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions",
    summary: "Saved versions, newest first",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.array(z.object({ version: z.number().int(), title: z.string(), savedBy: z.number().int().nullable(), savedAt: z.string() })),
    answer: "Versions",
    handle: async (c, scope) => versionsOf(c.var.db, scope, c.req.valid("param").id),
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
      return restoreVersion(c.var.db, scope, p.id, p.version, scope.userId);
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions/{version}",
    summary: "One saved version with its text, for a diff",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id"), version: idParam("version") }),
    data: z.object({
      version: z.number().int(),
      title: z.string(),
      intro: z.string(),
      bodyMarkdown: z.string(),
      savedBy: z.number().int().nullable(),
      savedAt: z.string(),
    }),
    answer: "The version",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      return versionOf(c.var.db, scope, p.id, p.version);
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/tags/{id}/preview",
    summary: "What templates read for a content tag now: menu items with URLs, a taxonomy's members, a posts query's contents",
    guard: as("viewer"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.unknown().openapi({ description: "The value of menus.<name> or tags.<name>" }),
    answer: "The resolved tag",
    handle: async (c, scope) => previewContentTag(c.var.db, scope, c.req.valid("param").id),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/tags",
    summary: "Content tags: menus, taxonomies, posts",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(contentTagSchema),
    answer: "Tags",
    handle: async (c, scope) => contentTagsOf(c.var.db, scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/tags",
    summary: "Create or replace a content tag by name",
    guard: as("editor"),
    request: { ...tenantPath, ...json(contentTagWrite) },
    data: contentTagSchema,
    answer: "The tag",
    handle: async (c, scope) => putContentTag(c.var.db, scope, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/tags/{id}",
    summary: "Delete a content tag",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteContentTag(c.var.db, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/keys",
    summary: "Tenant API keys, masked",
    guard: as("owner"),
    request: tenantPath,
    data: z.array(keySchema),
    answer: "Keys",
    handle: async (c, scope) => (await listTenantKeys(c.var.db, scope.tenantId)).map(maskedKey),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/keys",
    summary: "Create a tenant API key; the token is shown once",
    guard: as("owner"),
    request: { ...tenantPath, ...json(keyCreate) },
    data: keySchema.extend({ token: z.string().openapi({ example: "svc_tk_…" }) }),
    answer: "Created",
    status: 201,
    handle: async (c, scope) => {
      const input = c.req.valid("json");
      // A key bound to sites may name only sites of its tenant.
      if (input.siteIds)
        for (const siteId of input.siteIds)
          if (!(await sitesOf(c.var.db, scope)).some((s) => s.id === siteId)) throw new ApiError(400, `siteIds: no site ${siteId} in this tenant`);
      const { key, token } = await issueTenantKey(c.var.db, scope.tenantId, scope.userId, {
        name: input.name,
        siteIds: input.siteIds ?? null,
        scopes: input.scopes ?? [],
      });
      c.header("Cache-Control", "no-store");
      return { ...maskedKey(key), token };
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/keys/{id}",
    summary: "Revoke a tenant API key",
    guard: as("owner"),
    request: inTenantPath({ id: idParam("id") }),
    data: keySchema,
    answer: "Revoked",
    handle: async (c, scope) => {
      const { id } = c.req.valid("param");
      const key = await revokeTenantKey(c.var.db, scope.tenantId, id);
      if (!key) throw new ApiError(404, `No key with id ${id}`);
      return maskedKey(key);
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/media",
    summary: "A site's images and files",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(mediaSchema),
    answer: "Media",
    handle: async (c, scope) => mediaOf(c.var.db, scope, c.req.valid("param").siteId),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/media",
    summary: `Upload an image or PDF, the file itself as the body, at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`,
    guard: as("author"),
    request: {
      ...tenantPath,
      query: z.strictObject({ siteId: queryInteger("siteId", 1, 1e12), filename: fileName }),
      body: { required: true, content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }])) },
    },
    data: mediaSchema,
    answer: "Stored",
    status: 201,
    errors: [413, 415],
    handle: async (c, scope) => {
      const { siteId, filename } = c.req.valid("query");
      const contentType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      return uploadMedia(c.var.db, c.env.MEDIA, scope, scope.userId, { siteId, filename, contentType, bytes });
    },
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/media/{id}",
    summary: "Delete an image or file",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteMedia(c.var.db, c.env.MEDIA, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/redirects",
    summary: "A site's redirects",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(redirectSchema),
    answer: "Redirects",
    handle: async (c, scope) => redirectsOf(c.var.db, scope, c.req.valid("param").siteId),
  });
  route({
    method: "put",
    path: "/tenants/{tenantId}/redirects",
    summary: "Create or replace the redirect of a path",
    guard: as("editor"),
    request: { ...tenantPath, ...json(redirectWrite) },
    data: redirectSchema,
    answer: "The redirect",
    handle: async (c, scope) => putRedirect(c.var.db, scope, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/redirects/{id}",
    summary: "Delete a redirect",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteRedirect(c.var.db, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/ads",
    summary: "A site's ads",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.array(adSchema),
    answer: "Ads",
    handle: async (c, scope) => adsOf(c.var.db, scope, c.req.valid("param").siteId),
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/ads",
    summary: "Create an ad: an image with a link, or an HTML snippet",
    guard: as("owner"),
    request: { ...tenantPath, ...json(adCreate) },
    data: adSchema,
    answer: "Created",
    status: 201,
    handle: async (c, scope) => createAd(c.var.db, scope, c.req.valid("json")),
  });
  route({
    method: "patch",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Change an ad",
    guard: as("owner"),
    request: { ...inTenantPath({ id: idParam("id") }), ...json(adUpdate) },
    data: adSchema,
    answer: "The ad",
    handle: async (c, scope) => updateAd(c.var.db, scope, c.req.valid("param").id, c.req.valid("json")),
  });
  route({
    method: "delete",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Delete an ad and its counts",
    guard: as("owner"),
    request: inTenantPath({ id: idParam("id") }),
    ...deleted,
    handle: async (c, scope) => {
      await deleteAd(c.var.db, scope, c.req.valid("param").id);
      return { deleted: true as const };
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/ads/{id}/stats",
    summary: "An ad's impressions and clicks a day, the last 90 days",
    guard: as("editor"),
    request: inTenantPath({ id: idParam("id") }),
    data: z.array(z.object({ day: z.string(), impressions: z.number().int(), clicks: z.number().int() })),
    answer: "Days",
    handle: async (c, scope) => adStatsOf(c.var.db, scope, c.req.valid("param").id, 90),
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "The site's themes in R2 and the active one",
    guard: as("viewer"),
    request: inTenantPath({ siteId: idParam("siteId") }),
    data: z.object({
      active: z.string(),
      previous: z.string().nullable().openapi({ description: "The theme active before the last activation: activating it rolls back" }),
      themes: z.array(z.string()),
    }),
    answer: "Themes",
    handle: async (c, scope) => {
      const site = await siteInScope(c.var.db, scope, c.req.valid("param").siteId);
      return { active: site.theme, previous: site.previousTheme, themes: await themesOf(c.env.THEMES, site.id) };
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "Upload a theme as a zip (at most 20 MB), checked before it is stored",
    guard: as("owner"),
    request: {
      ...inTenantPath({ siteId: idParam("siteId") }),
      query: z.strictObject({ name: themeName }),
      body: { required: true, content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
    },
    data: z.object({ name: z.string(), files: z.number().int(), previewUrl: z.string() }),
    answer: "Stored, not active",
    status: 201,
    errors: [413, 415],
    handle: async (c, scope) => {
      const site = await siteInScope(c.var.db, scope, c.req.valid("param").siteId);
      if ((c.req.header("Content-Type") ?? "").split(";")[0]!.trim() !== "application/zip")
        throw new ApiError(415, "A theme is uploaded as application/zip");
      const { name } = c.req.valid("query");
      const stored = await uploadTheme(c.env.THEMES, site.id, name, new Uint8Array(await c.req.arrayBuffer()));
      const token = await previewToken(c.env.JWT_SECRET, site.id, name);
      return { ...stored, previewUrl: `/?theme_preview=${name}&token=${token}` };
    },
  });
  route({
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/activate",
    summary: "Make a theme the site's",
    guard: as("owner"),
    summaryEnd: "; activating the previous one rolls back",
    request: inTenantPath({ siteId: idParam("siteId"), name: themeName.openapi({ param: { name: "name", in: "path" } }) }),
    data: siteSchema,
    answer: "The site",
    handle: async (c, scope) => {
      const p = c.req.valid("param");
      const site = await siteInScope(c.var.db, scope, p.siteId);
      if (!(await themesOf(c.env.THEMES, site.id)).includes(p.name)) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
      return withDomainsOne(c.var.db, scope, await activateTheme(c.var.db, scope, site, p.name, scope.userId));
    },
  });
  route({
    method: "get",
    path: "/tenants/{tenantId}/audit",
    summary: "Publishing, unpublishing and deletions, newest first",
    guard: as("editor"),
    request: {
      ...tenantPath,
      query: z.strictObject({ page: queryInteger("page", 1, 100_000).optional(), size: queryInteger("size", 1, 100).optional() }),
    },
    data: z.array(auditSchema),
    answer: "Entries",
    handle: async (c, scope) => {
      const { page = 1, size = 50 } = c.req.valid("query");
      return auditOf(c.var.db, scope, page, size);
    },
  });
  return r;
}
