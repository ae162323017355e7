import { createRoute, z } from "@hono/zod-openapi";
import { createSchemaFactory } from "drizzle-zod";
import type { Context } from "hono";
import { tenantEnvelope } from "../platform/envelope";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter, idParam, tenantErrorResponses, tenantResponse } from "../platform/openapi";
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

const common = { tags: ["C · Content admin"], security: [{ Bearer: [] }, { ConsoleSession: [] }] as Record<string, string[]>[] };
const errors = tenantErrorResponses(400, 401, 403, 404, 415, 429);
const json = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const tenantId = idParam("tenantId");
const tenantPath = { params: z.object({ tenantId }) };
const inTenantPath = <M extends z.ZodRawShape>(more: M) => ({ params: z.object({ tenantId, ...more }) });
const ok = <T extends z.ZodType>(data: T, description: string, status: 200 | 201 = 200) => ({
  ...tenantResponse(data, description, status),
  ...errors,
});
const done = ok(z.object({ deleted: z.literal(true) }), "Deleted");

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

const routes = {
  startSession: createRoute({
    ...common,
    method: "post",
    path: "/session",
    summary: "Start a console session: an HttpOnly cookie (SameSite=Lax) from the JWT, and its CSRF token",
    responses: { ...ok(csrfSchema, "The cookie is set"), ...tenantErrorResponses(400) },
  }),
  session: createRoute({
    ...common,
    method: "get",
    path: "/session",
    summary: "The session's user and CSRF token (after a reload of the console)",
    responses: ok(z.object({ userId: z.number().int(), csrfToken: z.string().nullable() }), "The session"),
  }),
  endSession: createRoute({
    ...common,
    method: "delete",
    path: "/session",
    summary: "End the console session: its id is deleted server-side, so the cookie's value is dead everywhere",
    responses: ok(z.object({ ended: z.literal(true) }), "Ended"),
  }),
  myTenants: createRoute({
    ...common,
    method: "get",
    path: "/tenants",
    summary: "The caller's tenants and roles",
    responses: ok(z.array(tenantSchema), "Tenants"),
  }),
  createTenant: createRoute({
    ...common,
    method: "post",
    path: "/tenants",
    summary: "Create a tenant; the caller is its owner (an account owns at most MAX_TENANTS_PER_USER, default 5: 403 beyond)",
    request: json(tenantCreate),
    responses: { ...ok(tenantSchema, "Created", 201), ...tenantErrorResponses(409) },
  }),
  members: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/members",
    summary: "Members and roles (viewer)",
    request: tenantPath,
    responses: ok(z.array(memberSchema), "Members"),
  }),
  setMember: createRoute({
    ...common,
    method: "put",
    path: "/tenants/{tenantId}/members",
    summary: "Add a member or change a role (owner); the last owner cannot give up the role (409)",
    request: { ...tenantPath, ...json(memberAdd) },
    responses: { ...ok(memberSchema, "The member"), ...tenantErrorResponses(409) },
  }),
  removeMember: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/members/{userId}",
    summary: "Remove a member (owner); the last owner stays (409)",
    request: inTenantPath({ userId: idParam("userId") }),
    responses: { ...done, ...tenantErrorResponses(409) },
  }),
  sites: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites",
    summary: "Sites (viewer)",
    request: tenantPath,
    responses: ok(z.array(siteSchema), "Sites"),
  }),
  createSite: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/sites",
    summary: "Create a site (owner)",
    request: { ...tenantPath, ...json(siteCreate) },
    responses: { ...ok(siteSchema, "Created", 201), ...tenantErrorResponses(409) },
  }),
  updateSite: createRoute({
    ...common,
    method: "patch",
    path: "/tenants/{tenantId}/sites/{siteId}",
    summary: "Change a site (owner)",
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(siteUpdate) },
    responses: { ...ok(siteSchema, "The site"), ...tenantErrorResponses(409) },
  }),
  verifyDomain: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/domains/verify",
    summary: "Prove a claimed host name with its DNS TXT record; from then on it reaches the site (owner)",
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(domainVerify) },
    responses: { ...ok(domainSchema, "The host name, proved"), ...tenantErrorResponses(409, 502) },
  }),
  categories: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/categories",
    summary: "A site's categories, flat, in order (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(z.array(categorySchema), "Categories"),
  }),
  orderCategories: createRoute({
    ...common,
    method: "put",
    path: "/tenants/{tenantId}/sites/{siteId}/categories/order",
    summary: "Order one parent's subcategories (editor)",
    request: { ...inTenantPath({ siteId: idParam("siteId") }), ...json(categoryOrder) },
    responses: ok(z.array(categorySchema), "Categories, in the new order"),
  }),
  createCategory: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/categories",
    summary: "Create a category (editor)",
    request: { ...tenantPath, ...json(categoryCreate) },
    responses: { ...ok(categorySchema, "Created", 201), ...tenantErrorResponses(409) },
  }),
  updateCategory: createRoute({
    ...common,
    method: "patch",
    path: "/tenants/{tenantId}/categories/{id}",
    summary: "Change a category (editor)",
    request: { ...inTenantPath({ id: idParam("id") }), ...json(categoryUpdate) },
    responses: { ...ok(categorySchema, "The category"), ...tenantErrorResponses(409) },
  }),
  deleteCategory: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/categories/{id}",
    summary: "Delete an empty category (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: { ...done, ...tenantErrorResponses(409) },
  }),
  contents: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/contents",
    summary: "Contents of every status, recently changed first (viewer)",
    request: { ...tenantPath, query: contentListQuery },
    responses: ok(page(contentRow), "A page of contents"),
  }),
  createContent: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/contents",
    summary: "Create a draft (author)",
    request: { ...tenantPath, ...json(contentCreate) },
    responses: { ...ok(contentSchema, "Created", 201), ...tenantErrorResponses(409, 413) },
  }),
  content: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "One content (viewer)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(contentSchema, "The content"),
  }),
  updateContent: createRoute({
    ...common,
    method: "patch",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "Save a content: a new version (author: own drafts; editor: any)",
    request: { ...inTenantPath({ id: idParam("id") }), ...json(contentUpdate) },
    responses: { ...ok(contentSchema, "The content"), ...tenantErrorResponses(409, 413) },
  }),
  publish: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/publish",
    summary: "Publish now, or at publishAt (editor)",
    request: { ...inTenantPath({ id: idParam("id") }), ...json(publishRequest) },
    responses: ok(contentSchema, "Published or scheduled"),
  }),
  unpublish: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/unpublish",
    summary: "Take back to draft (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(contentSchema, "A draft again"),
  }),
  deleteContent: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/contents/{id}",
    summary: "Delete a content and its versions (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: done,
  }),
  versions: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions",
    summary: "Saved versions, newest first (viewer)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(
      z.array(z.object({ version: z.number().int(), title: z.string(), savedBy: z.number().int().nullable(), savedAt: z.string() })),
      "Versions",
    ),
  }),
  restore: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/contents/{id}/versions/{version}/restore",
    summary: "Save an old version's text as the newest (author: own drafts; editor: any)",
    request: inTenantPath({ id: idParam("id"), version: idParam("version") }),
    responses: ok(contentSchema, "The content"),
  }),
  version: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/contents/{id}/versions/{version}",
    summary: "One saved version with its text, for a diff (viewer)",
    request: inTenantPath({ id: idParam("id"), version: idParam("version") }),
    responses: ok(
      z.object({
        version: z.number().int(),
        title: z.string(),
        intro: z.string(),
        bodyMarkdown: z.string(),
        savedBy: z.number().int().nullable(),
        savedAt: z.string(),
      }),
      "The version",
    ),
  }),
  tagPreview: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/tags/{id}/preview",
    summary: "What templates read for a content tag now: menu items with URLs, a taxonomy's members, a posts query's contents (viewer)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(z.unknown().openapi({ description: "The value of menus.<name> or tags.<name>" }), "The resolved tag"),
  }),
  tags: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/tags",
    summary: "Content tags: menus, taxonomies, posts (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(z.array(contentTagSchema), "Tags"),
  }),
  putTag: createRoute({
    ...common,
    method: "put",
    path: "/tenants/{tenantId}/tags",
    summary: "Create or replace a content tag by name (editor)",
    request: { ...tenantPath, ...json(contentTagWrite) },
    responses: ok(contentTagSchema, "The tag"),
  }),
  deleteTag: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/tags/{id}",
    summary: "Delete a content tag (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: done,
  }),
  keys: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/keys",
    summary: "Tenant API keys, masked (owner)",
    request: tenantPath,
    responses: ok(z.array(keySchema), "Keys"),
  }),
  createKey: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/keys",
    summary: "Create a tenant API key; the token is shown once (owner)",
    request: { ...tenantPath, ...json(keyCreate) },
    responses: ok(keySchema.extend({ token: z.string().openapi({ example: "svc_tk_…" }) }), "Created", 201),
  }),
  revokeKey: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/keys/{id}",
    summary: "Revoke a tenant API key (owner)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(keySchema, "Revoked"),
  }),
  media: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/media",
    summary: "A site's images and files (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(z.array(mediaSchema), "Media"),
  }),
  upload: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/media",
    summary: `Upload an image or PDF, the file itself as the body, at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB (author)`,
    request: {
      ...tenantPath,
      query: z.strictObject({ siteId: queryInteger("siteId", 1, 1e12), filename: fileName }),
      body: { required: true, content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }])) },
    },
    responses: { ...ok(mediaSchema, "Stored", 201), ...tenantErrorResponses(413, 415) },
  }),
  deleteMedia: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/media/{id}",
    summary: "Delete an image or file (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: done,
  }),
  redirects: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/redirects",
    summary: "A site's redirects (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(z.array(redirectSchema), "Redirects"),
  }),
  putRedirect: createRoute({
    ...common,
    method: "put",
    path: "/tenants/{tenantId}/redirects",
    summary: "Create or replace the redirect of a path (editor)",
    request: { ...tenantPath, ...json(redirectWrite) },
    responses: ok(redirectSchema, "The redirect"),
  }),
  deleteRedirect: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/redirects/{id}",
    summary: "Delete a redirect (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: done,
  }),
  ads: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/ads",
    summary: "A site's ads (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(z.array(adSchema), "Ads"),
  }),
  createAd: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/ads",
    summary: "Create an ad: an image with a link, or an HTML snippet (owner)",
    request: { ...tenantPath, ...json(adCreate) },
    responses: ok(adSchema, "Created", 201),
  }),
  updateAd: createRoute({
    ...common,
    method: "patch",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Change an ad (owner)",
    request: { ...inTenantPath({ id: idParam("id") }), ...json(adUpdate) },
    responses: ok(adSchema, "The ad"),
  }),
  deleteAd: createRoute({
    ...common,
    method: "delete",
    path: "/tenants/{tenantId}/ads/{id}",
    summary: "Delete an ad and its counts (owner)",
    request: inTenantPath({ id: idParam("id") }),
    responses: done,
  }),
  adStats: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/ads/{id}/stats",
    summary: "An ad's impressions and clicks a day, the last 90 days (editor)",
    request: inTenantPath({ id: idParam("id") }),
    responses: ok(z.array(z.object({ day: z.string(), impressions: z.number().int(), clicks: z.number().int() })), "Days"),
  }),
  themes: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "The site's themes in R2 and the active one (viewer)",
    request: inTenantPath({ siteId: idParam("siteId") }),
    responses: ok(
      z.object({
        active: z.string(),
        previous: z.string().nullable().openapi({ description: "The theme active before the last activation: activating it rolls back" }),
        themes: z.array(z.string()),
      }),
      "Themes",
    ),
  }),
  uploadTheme: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes",
    summary: "Upload a theme as a zip (at most 20 MB), checked before it is stored (owner)",
    request: {
      ...inTenantPath({ siteId: idParam("siteId") }),
      query: z.strictObject({ name: themeName }),
      body: { required: true, content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
    },
    responses: {
      ...ok(z.object({ name: z.string(), files: z.number().int(), previewUrl: z.string() }), "Stored, not active", 201),
      ...tenantErrorResponses(413, 415),
    },
  }),
  activateTheme: createRoute({
    ...common,
    method: "post",
    path: "/tenants/{tenantId}/sites/{siteId}/themes/{name}/activate",
    summary: "Make a theme the site's (owner); activating the previous one rolls back",
    request: inTenantPath({ siteId: idParam("siteId"), name: themeName.openapi({ param: { name: "name", in: "path" } }) }),
    responses: ok(siteSchema, "The site"),
  }),
  audit: createRoute({
    ...common,
    method: "get",
    path: "/tenants/{tenantId}/audit",
    summary: "Publishing, unpublishing and deletions, newest first (editor)",
    request: {
      ...tenantPath,
      query: z.strictObject({ page: queryInteger("page", 1, 100_000).optional(), size: queryInteger("size", 1, 100).optional() }),
    },
    responses: ok(z.array(auditSchema), "Entries"),
  }),
};

/** The member's scope in the path's tenant, once their role reaches `needed`. */
async function member(c: Context<AppEnv>, id: number, needed: MemberRole): Promise<TenantScope & { role: MemberRole; userId: number }> {
  const role = await memberRole(c.var.db, id, c.var.principal.userId);
  requireRole(role, needed);
  return { ...memberScope(id), role, userId: c.var.principal.userId };
}

/** An author saves only their own drafts; an editor or owner any content. */
async function mayEdit(c: Context<AppEnv>, scope: TenantScope & { role: MemberRole; userId: number }, id: number) {
  if (scope.role !== "author") return;
  const content = await contentInScope(c.var.db, scope, id);
  if (content.authorId !== scope.userId || content.status !== "draft") throw new ApiError(403, "An author may change only their own drafts");
}

const maskedKey = <K extends { tokenHash: string }>({ tokenHash: _hash, ...key }: K) => key;

/** The admin API the console uses: tenant members with a session, each action checked against the member's role. */
export function adminRoutes() {
  const r = createRouter();
  const send = <T>(c: Context<AppEnv>, data: T, status: 200 | 201 = 200) => c.json(tenantEnvelope(data), status) as never;
  // Members' data and CSRF tokens: no browser or proxy keeps a copy.
  r.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });

  r.openapi(routes.startSession, async (c) => send(c, { csrfToken: await startSession(c) }));
  r.openapi(routes.session, async (c) => send(c, { userId: c.var.principal.userId, csrfToken: await currentCsrfToken(c) }));
  r.openapi(routes.endSession, async (c) => {
    await endSession(c);
    return send(c, { ended: true as const });
  });
  r.openapi(routes.myTenants, async (c) => send(c, await tenantsOf(c.var.db, c.var.principal.userId)));
  r.openapi(routes.createTenant, async (c) =>
    send(
      c,
      await createTenant(
        c.var.db,
        c.var.principal.userId,
        c.req.valid("json"),
        settingsOf(c.env, contentSettings).MAX_TENANTS_PER_USER ?? DEFAULT_MAX_TENANTS_PER_USER,
      ),
      201,
    ),
  );
  r.openapi(routes.members, async (c) => send(c, await membersOf(c.var.db, await member(c, c.req.valid("param").tenantId, "viewer"))));
  r.openapi(routes.setMember, async (c) => {
    const { email, role } = c.req.valid("json");
    return send(c, await setMember(c.var.db, await member(c, c.req.valid("param").tenantId, "owner"), email, role));
  });
  r.openapi(routes.removeMember, async (c) => {
    const p = c.req.valid("param");
    await removeMember(c.var.db, await member(c, p.tenantId, "owner"), p.userId);
    return send(c, { deleted: true });
  });
  r.openapi(routes.sites, async (c) => {
    const scope = await member(c, c.req.valid("param").tenantId, "viewer");
    return send(c, await withDomains(c.var.db, scope, await sitesOf(c.var.db, scope)));
  });
  r.openapi(routes.createSite, async (c) => {
    const scope = await member(c, c.req.valid("param").tenantId, "owner");
    return send(c, await withDomainsOne(c.var.db, scope, await createSite(c.var.db, scope, c.req.valid("json"))), 201);
  });
  r.openapi(routes.updateSite, async (c) => {
    const p = c.req.valid("param");
    return send(c, await updateSite(c.var.db, c.env, await member(c, p.tenantId, "owner"), p.siteId, c.req.valid("json")));
  });
  r.openapi(routes.verifyDomain, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "owner");
    await siteInScope(c.var.db, scope, p.siteId);
    return send(c, await verifyDomain(c.var.db, c.env, scope, p.siteId, c.req.valid("json").host));
  });
  r.openapi(routes.categories, async (c) => {
    const p = c.req.valid("param");
    return send(c, await categoriesOf(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId));
  });
  r.openapi(routes.orderCategories, async (c) => {
    const p = c.req.valid("param");
    return send(c, await orderCategories(c.var.db, await member(c, p.tenantId, "editor"), p.siteId, c.req.valid("json")));
  });
  r.openapi(routes.createCategory, async (c) =>
    send(c, await createCategory(c.var.db, await member(c, c.req.valid("param").tenantId, "editor"), c.req.valid("json")), 201),
  );
  r.openapi(routes.updateCategory, async (c) => {
    const p = c.req.valid("param");
    return send(c, await updateCategory(c.var.db, await member(c, p.tenantId, "editor"), p.id, c.req.valid("json")));
  });
  r.openapi(routes.deleteCategory, async (c) => {
    const p = c.req.valid("param");
    await deleteCategory(c.var.db, await member(c, p.tenantId, "editor"), p.id);
    return send(c, { deleted: true });
  });
  r.openapi(routes.contents, async (c) => {
    const { page = 1, size = 20, ...filters } = c.req.valid("query");
    return send(c, await listContents(c.var.db, await member(c, c.req.valid("param").tenantId, "viewer"), { ...filters, page, size }));
  });
  r.openapi(routes.createContent, async (c) => {
    const scope = await member(c, c.req.valid("param").tenantId, "author");
    return send(c, await createContent(c.var.db, scope, scope.userId, c.req.valid("json")), 201);
  });
  r.openapi(routes.content, async (c) => {
    const p = c.req.valid("param");
    return send(c, await contentDetail(c.var.db, await member(c, p.tenantId, "viewer"), p.id));
  });
  r.openapi(routes.updateContent, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "author");
    await mayEdit(c, scope, p.id);
    return send(c, await updateContent(c.var.db, scope, p.id, scope.userId, c.req.valid("json")));
  });
  r.openapi(routes.publish, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "editor");
    return send(c, await setPublication(c.var.db, scope, p.id, scope.userId, c.req.valid("json")));
  });
  r.openapi(routes.unpublish, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "editor");
    return send(c, await setPublication(c.var.db, scope, p.id, scope.userId, "unpublish"));
  });
  r.openapi(routes.deleteContent, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "editor");
    await deleteContent(c.var.db, scope, p.id, scope.userId);
    return send(c, { deleted: true });
  });
  r.openapi(routes.versions, async (c) => {
    const p = c.req.valid("param");
    return send(c, await versionsOf(c.var.db, await member(c, p.tenantId, "viewer"), p.id));
  });
  r.openapi(routes.restore, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "author");
    await mayEdit(c, scope, p.id);
    return send(c, await restoreVersion(c.var.db, scope, p.id, p.version, scope.userId));
  });
  r.openapi(routes.version, async (c) => {
    const p = c.req.valid("param");
    return send(c, await versionOf(c.var.db, await member(c, p.tenantId, "viewer"), p.id, p.version));
  });
  r.openapi(routes.tagPreview, async (c) => {
    const p = c.req.valid("param");
    return send(c, await previewContentTag(c.var.db, await member(c, p.tenantId, "viewer"), p.id));
  });
  r.openapi(routes.tags, async (c) => {
    const p = c.req.valid("param");
    return send(c, await contentTagsOf(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId));
  });
  r.openapi(routes.putTag, async (c) =>
    send(c, await putContentTag(c.var.db, await member(c, c.req.valid("param").tenantId, "editor"), c.req.valid("json"))),
  );
  r.openapi(routes.deleteTag, async (c) => {
    const p = c.req.valid("param");
    await deleteContentTag(c.var.db, await member(c, p.tenantId, "editor"), p.id);
    return send(c, { deleted: true });
  });
  r.openapi(routes.keys, async (c) =>
    send(c, (await listTenantKeys(c.var.db, (await member(c, c.req.valid("param").tenantId, "owner")).tenantId)).map(maskedKey)),
  );
  r.openapi(routes.createKey, async (c) => {
    const scope = await member(c, c.req.valid("param").tenantId, "owner");
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
    return send(c, { ...maskedKey(key), token }, 201);
  });
  r.openapi(routes.revokeKey, async (c) => {
    const p = c.req.valid("param");
    const key = await revokeTenantKey(c.var.db, (await member(c, p.tenantId, "owner")).tenantId, p.id);
    if (!key) throw new ApiError(404, `No key with id ${p.id}`);
    return send(c, maskedKey(key));
  });
  r.openapi(routes.media, async (c) => {
    const p = c.req.valid("param");
    return send(c, await mediaOf(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId));
  });
  r.openapi(routes.upload, async (c) => {
    const scope = await member(c, c.req.valid("param").tenantId, "author");
    const { siteId, filename } = c.req.valid("query");
    const contentType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return send(c, await uploadMedia(c.var.db, c.env.MEDIA, scope, scope.userId, { siteId, filename, contentType, bytes }), 201);
  });
  r.openapi(routes.deleteMedia, async (c) => {
    const p = c.req.valid("param");
    await deleteMedia(c.var.db, c.env.MEDIA, await member(c, p.tenantId, "editor"), p.id);
    return send(c, { deleted: true });
  });
  r.openapi(routes.redirects, async (c) => {
    const p = c.req.valid("param");
    return send(c, await redirectsOf(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId));
  });
  r.openapi(routes.putRedirect, async (c) =>
    send(c, await putRedirect(c.var.db, await member(c, c.req.valid("param").tenantId, "editor"), c.req.valid("json"))),
  );
  r.openapi(routes.deleteRedirect, async (c) => {
    const p = c.req.valid("param");
    await deleteRedirect(c.var.db, await member(c, p.tenantId, "editor"), p.id);
    return send(c, { deleted: true });
  });
  r.openapi(routes.ads, async (c) => {
    const p = c.req.valid("param");
    return send(c, await adsOf(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId));
  });
  r.openapi(routes.createAd, async (c) =>
    send(c, await createAd(c.var.db, await member(c, c.req.valid("param").tenantId, "owner"), c.req.valid("json")), 201),
  );
  r.openapi(routes.updateAd, async (c) => {
    const p = c.req.valid("param");
    return send(c, await updateAd(c.var.db, await member(c, p.tenantId, "owner"), p.id, c.req.valid("json")));
  });
  r.openapi(routes.deleteAd, async (c) => {
    const p = c.req.valid("param");
    await deleteAd(c.var.db, await member(c, p.tenantId, "owner"), p.id);
    return send(c, { deleted: true });
  });
  r.openapi(routes.adStats, async (c) => {
    const p = c.req.valid("param");
    return send(c, await adStatsOf(c.var.db, await member(c, p.tenantId, "editor"), p.id, 90));
  });
  r.openapi(routes.themes, async (c) => {
    const p = c.req.valid("param");
    const site = await siteInScope(c.var.db, await member(c, p.tenantId, "viewer"), p.siteId);
    return send(c, { active: site.theme, previous: site.previousTheme, themes: await themesOf(c.env.THEMES, site.id) });
  });
  r.openapi(routes.uploadTheme, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "owner");
    const site = await siteInScope(c.var.db, scope, p.siteId);
    if ((c.req.header("Content-Type") ?? "").split(";")[0]!.trim() !== "application/zip")
      throw new ApiError(415, "A theme is uploaded as application/zip");
    const { name } = c.req.valid("query");
    const stored = await uploadTheme(c.env.THEMES, site.id, name, new Uint8Array(await c.req.arrayBuffer()));
    const token = await previewToken(c.env.JWT_SECRET, site.id, name);
    return send(c, { ...stored, previewUrl: `/?theme_preview=${name}&token=${token}` }, 201);
  });
  r.openapi(routes.activateTheme, async (c) => {
    const p = c.req.valid("param");
    const scope = await member(c, p.tenantId, "owner");
    const site = await siteInScope(c.var.db, scope, p.siteId);
    if (!(await themesOf(c.env.THEMES, site.id)).includes(p.name)) throw new ApiError(404, `No theme ${p.name} for site ${site.id}`);
    return send(c, await withDomainsOne(c.var.db, scope, await activateTheme(c.var.db, scope, site, p.name, scope.userId)));
  });
  r.openapi(routes.audit, async (c) => {
    const { page = 1, size = 50 } = c.req.valid("query");
    return send(c, await auditOf(c.var.db, await member(c, c.req.valid("param").tenantId, "editor"), page, size));
  });
  return r;
}
