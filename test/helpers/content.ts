import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { createContent, setPublication } from "../../src/content/admin/contents";
import { createSite, sitesRoomOf } from "../../src/content/admin/sites";
import { createTenant } from "../../src/content/admin/tenants";
import { textRoomOf } from "../../src/content/admin/text-room";
import { memberScope } from "../../src/content/tenancy/scope";
import { tenantKeys, tenants, type MemberRole } from "../../src/content/schema";
import { forgetCachedTenantKeys, issueTenantKey } from "../../src/content/tenancy/tenant-keys";
import type { Plan } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { createUser, sessionFor, uniqueTag } from "./accounts";
import { call } from "./requests";

/** A 1×1 PNG: a whole image, whose header says its size (an upload without one is refused). */
export const PIXEL_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

export interface TestTenant {
  tenantId: number;
  siteId: number;
  ownerId: number;
  /** The owner's session JWT. */
  session: string;
  /** A key with full scopes, for every site. */
  token: string;
}

/**
 * A tenant with one site, its owner's session and a full key; names are unique per call. `plan`
 * sets the owner's and the tenant's rate-limit plan (the fuzzer's `internal`: no limits).
 */
export async function createTestTenant(options: { plan?: Plan } = {}): Promise<TestTenant> {
  const db = database(env);
  const owner = await createUser({ plan: options.plan });
  const tag = uniqueTag()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  const tenant = await createTenant(db, owner.id, { name: `Tenant ${tag}`, slug: `t-${tag}` });
  if (options.plan) await db.update(tenants).set({ plan: options.plan }).where(eq(tenants.id, tenant.id));
  const site = await createSite(
    db,
    memberScope(tenant.id),
    {
      name: `Site ${tag}`,
      slug: `s-${tag}`,
      defaultLanguage: "en",
      languages: ["en", "de"],
    },
    sitesRoomOf(env),
  );
  const { token } = await issueTenantKey(db, tenant.id, owner.id, { name: "test", siteIds: null, scopes: [] });
  return { tenantId: tenant.id, siteId: site.id, ownerId: owner.id, session: await sessionFor(owner), token };
}

/** The owner's scope, for the admin services that record who acted (in the audit log). */
export const ownerScope = (tenant: Pick<TestTenant, "tenantId" | "ownerId">) => ({
  ...memberScope(tenant.tenantId),
  role: "owner" as const,
  userId: tenant.ownerId,
});

export async function tenantKey(tenant: Pick<TestTenant, "tenantId" | "ownerId">, options: { scopes?: string[]; siteIds?: number[] | null } = {}) {
  return (
    await issueTenantKey(database(env), tenant.tenantId, tenant.ownerId, {
      name: "test",
      siteIds: options.siteIds ?? null,
      scopes: options.scopes ?? [],
    })
  ).token;
}

/** Revokes as the service does, in this isolate: the rows, and the isolate's cached copies. */
export async function revokeTenantKeys(tenantId: number) {
  await database(env).update(tenantKeys).set({ isActive: false }).where(eq(tenantKeys.tenantId, tenantId));
  forgetCachedTenantKeys({ tenantId });
}

export async function deactivateTenant(tenantId: number) {
  await database(env).update(tenants).set({ isActive: false }).where(eq(tenants.id, tenantId));
  forgetCachedTenantKeys({ tenantId });
}

/** A member of the tenant with that role, and their session. */
export async function memberWith(tenant: Pick<TestTenant, "tenantId">, role: MemberRole) {
  const user = await createUser();
  const { tenantMembers } = await import("../../src/content/schema");
  await database(env).insert(tenantMembers).values({ tenantId: tenant.tenantId, userId: user.id, role });
  return { userId: user.id, session: await sessionFor(user) };
}

/** A content written straight through the service: published now unless told otherwise. */
export async function seedContent(
  tenant: Pick<TestTenant, "tenantId" | "siteId" | "ownerId">,
  fields: {
    title?: string;
    language?: string;
    bodyMarkdown?: string;
    coverImages?: string;
    categoryIds?: number[];
    tags?: string[];
    publishAt?: string | null;
    translationOf?: number;
  } = {},
) {
  const db = database(env);
  const scope = memberScope(tenant.tenantId);
  const title = fields.title ?? `Story ${uniqueTag()}`;
  const created = await createContent(
    db,
    scope,
    tenant.ownerId,
    {
      siteId: tenant.siteId,
      title,
      slug: title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
      intro: `About ${title}`,
      bodyMarkdown: fields.bodyMarkdown ?? `# ${title}\n\nText.`,
      language: fields.language ?? "en",
      coverImages: fields.coverImages,
      categoryIds: fields.categoryIds,
      tags: fields.tags,
      translationOf: fields.translationOf,
    },
    textRoomOf(env),
  );
  if (fields.publishAt !== null) await setPublication(db, scope, created.id, tenant.ownerId, fields.publishAt ? { publishAt: fields.publishAt } : {});
  return created.id;
}

export function headless(path: string, token: string, headers: Record<string, string> = {}) {
  return call(path, { headers: { "X-API-Key": token, ...headers } });
}

export function admin(method: string, path: string, session: string, body?: unknown) {
  return call(`/admin/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${session}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Puts the default theme into the test R2 for a site, as `npm run dev` does for the demo site. */
export async function installDefaultTheme(siteId: number, files: Record<string, string> = env.TEST_DEFAULT_THEME) {
  for (const [path, text] of Object.entries(files)) await env.THEMES.put(`themes/${siteId}/default/${path}`, text);
}

/** The slug of a site, by which its pages are asked for (sitePage). */
export async function siteSlug(siteId: number): Promise<string> {
  const site = await env.DB.prepare("SELECT slug FROM sites WHERE id = ?").bind(siteId).first<{ slug: string }>();
  if (!site) throw new Error(`no site ${siteId}`);
  return site.slug;
}

/** A page of a tenant's site, asked for by its host. */
export function sitePage(slug: string, path = "/", init: RequestInit = {}) {
  return SELF.fetch(`http://${slug}.localhost${path}`, init);
}
