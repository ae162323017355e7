import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { purgeTrash, TRASH_DAYS } from "../../src/content/admin/trash";
import { contents, contentVersions } from "../../src/content/schema";
import { database } from "../../src/platform/database";
import { logger } from "../../src/platform/logging";
import { admin, createTestTenant, headless, installDefaultTheme, memberWith, seedContent, sitePage, type TestTenant } from "../helpers/content";
import { uniqueTag } from "../helpers/accounts";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
interface Trashed {
  id: number;
  title: string;
  deletedAt: string;
  deletedBy: number;
  purgeAt: string;
}

async function send<T = Record<string, unknown>>(method: string, path: string, session: string, body?: unknown) {
  const res = await admin(method, path, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  await installDefaultTheme(tenant.siteId);
  const sites = await send<{ id: number; slug: string }[]>("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session);
  slug = sites.body.data.find((s) => s.id === tenant.siteId)!.slug;
});

const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
/** Where a reader or a client finds a published content: each answers whether it is there. */
async function seenEverywhere(id: number, title: string) {
  const contentSlug = slugOf(title);
  return {
    page: (await sitePage(slug, `/${contentSlug}`)).status === 200,
    home: (await (await sitePage(slug, "/")).text()).includes(title),
    feed: (await (await sitePage(slug, "/feed.xml")).text()).includes(title),
    sitemap: (await (await sitePage(slug, "/sitemap-contents.xml")).text()).includes(contentSlug),
    headlessList: (await (await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token)).text()).includes(title),
    headlessOne: (await headless(`/api/mcp/contents/${id}`, tenant.token)).status === 200,
    adminList: (await (await admin("GET", `/tenants/${tenant.tenantId}/contents?siteId=${tenant.siteId}`, tenant.session)).text()).includes(title),
  };
}
const everywhere = { page: true, home: true, feed: true, sitemap: true, headlessList: true, headlessOne: true, adminList: true };
const nowhere = { page: false, home: false, feed: false, sitemap: false, headlessList: false, headlessOne: false, adminList: false };

describe("the Trash", () => {
  it("takes a deleted content off the site, feeds, sitemaps, the headless API and lists, and a restore brings it all back", async () => {
    const title = `Museum night ${uniqueTag()}`;
    const id = await seedContent(tenant, { title });
    expect(await seenEverywhere(id, title)).toEqual(everywhere);

    const trashed = await send<{ deleted: true; purgeAt: string }>("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session);
    expect(trashed.status).toBe(200);
    const days = (Date.parse(trashed.body.data.purgeAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(TRASH_DAYS - 0.1);
    expect(await seenEverywhere(id, title)).toEqual(nowhere);
    const opened = await send("GET", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session);
    expect(opened.status).toBe(404);
    expect(opened.body.error!.message).toBe(`Content ${id} is in the Trash: restore it first`);
    expect((await send("PATCH", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session, { title: "Edited" })).status).toBe(404);

    const trash = await send<{ items: Trashed[] }>("GET", `/tenants/${tenant.tenantId}/trash?siteId=${tenant.siteId}`, tenant.session);
    expect(trash.body.data.items.find((item) => item.id === id)).toMatchObject({
      title,
      deletedBy: tenant.ownerId,
      purgeAt: trashed.body.data.purgeAt,
    });
    // One content of the Trash, as a menu item linking to it asks for its title.
    const one = await send<Trashed>("GET", `/tenants/${tenant.tenantId}/trash/${id}`, tenant.session);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id, title, deletedBy: tenant.ownerId, purgeAt: trashed.body.data.purgeAt });

    const restored = await send("POST", `/tenants/${tenant.tenantId}/trash/${id}/restore`, tenant.session);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id, title, status: "published", deletedAt: null });
    expect(await seenEverywhere(id, title)).toEqual(everywhere);
    const after = await send<{ items: Trashed[] }>("GET", `/tenants/${tenant.tenantId}/trash`, tenant.session);
    expect(after.body.data.items.map((item) => item.id)).not.toContain(id);
    const gone = await send("GET", `/tenants/${tenant.tenantId}/trash/${id}`, tenant.session);
    expect(gone.status).toBe(404);
    expect(gone.body.error!.message).toBe(`No content with id ${id} in the Trash`);

    const audit = await send<{ action: string; subject: string }[]>("GET", `/tenants/${tenant.tenantId}/audit`, tenant.session);
    expect(audit.body.data.slice(0, 2).map((a) => a.action)).toEqual(["restore", "delete"]);
  });

  it("keeps the slug reserved while the content is in the Trash; deleting it for good frees the slug", async () => {
    const title = `Reserved ${uniqueTag()}`;
    const id = await seedContent(tenant, { title, publishAt: null });
    await send("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session);
    const again = { siteId: tenant.siteId, title, slug: slugOf(title), language: "en" };
    expect((await send("POST", `/tenants/${tenant.tenantId}/contents`, tenant.session, again)).status).toBe(409);
    const erased = await send("DELETE", `/tenants/${tenant.tenantId}/trash/${id}`, tenant.session);
    expect(erased.body).toEqual({ success: true, data: { deleted: true } });
    expect((await send("POST", `/tenants/${tenant.tenantId}/trash/${id}/restore`, tenant.session)).status).toBe(404);
    expect((await send("POST", `/tenants/${tenant.tenantId}/contents`, tenant.session, again)).status).toBe(201);
  });

  it("lets a viewer see the Trash but not delete, restore or erase; an author cannot delete either", async () => {
    const id = await seedContent(tenant, { title: `Guarded ${uniqueTag()}` });
    const viewer = await memberWith(tenant, "viewer");
    const author = await memberWith(tenant, "author");
    expect((await send("GET", `/tenants/${tenant.tenantId}/trash`, viewer.session)).status).toBe(200);
    expect((await send("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, viewer.session)).status).toBe(403);
    expect((await send("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, author.session)).status).toBe(403);
    await send("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session);
    expect((await send("GET", `/tenants/${tenant.tenantId}/trash/${id}`, viewer.session)).status).toBe(200);
    expect((await send("POST", `/tenants/${tenant.tenantId}/trash/${id}/restore`, viewer.session)).status).toBe(403);
    expect((await send("DELETE", `/tenants/${tenant.tenantId}/trash/${id}`, viewer.session)).status).toBe(403);
  });

  it("never shows or restores another tenant's deleted contents", async () => {
    const id = await seedContent(tenant, { title: `Private ${uniqueTag()}` });
    await send("DELETE", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session);
    const intruder = await createTestTenant();
    expect((await send("GET", `/tenants/${tenant.tenantId}/trash`, intruder.session)).status).toBe(404);
    const own = await send<{ items: Trashed[] }>("GET", `/tenants/${intruder.tenantId}/trash?siteId=${tenant.siteId}`, intruder.session);
    expect(own.body.data.items).toEqual([]);
    for (const [method, path] of [
      ["GET", `/tenants/${intruder.tenantId}/trash/${id}`],
      ["POST", `/tenants/${intruder.tenantId}/trash/${id}/restore`],
      ["DELETE", `/tenants/${intruder.tenantId}/trash/${id}`],
      ["DELETE", `/tenants/${intruder.tenantId}/contents/${id}`],
    ] as const) {
      const refused = await send(method, path, intruder.session);
      expect(refused.status, `${method} ${path}`).toBe(404);
    }
    // Still in the owner's Trash, restorable.
    expect((await send("POST", `/tenants/${tenant.tenantId}/trash/${id}/restore`, tenant.session)).status).toBe(200);
  });

  it("refuses a restore of a content that is not in the Trash, and bad paging", async () => {
    const id = await seedContent(tenant, { title: `Alive ${uniqueTag()}` });
    const refused = await send("POST", `/tenants/${tenant.tenantId}/trash/${id}/restore`, tenant.session);
    expect(refused.status).toBe(404);
    expect(refused.body.error!.message).toBe(`No content with id ${id} in the Trash`);
    expect((await send("GET", `/tenants/${tenant.tenantId}/trash?size=1000`, tenant.session)).status).toBe(400);
  });

  it(`purges what has been in the Trash for more than ${TRASH_DAYS} days, versions included, and leaves the rest`, async () => {
    const old = await seedContent(tenant, { title: `Old ${uniqueTag()}` });
    const recent = await seedContent(tenant, { title: `Recent ${uniqueTag()}` });
    const translation = await seedContent(tenant, { title: `Alt ${uniqueTag()}`, language: "de", translationOf: old });
    const db = database(env);
    await db
      .update(contents)
      .set({ deletedAt: new Date(Date.now() - (TRASH_DAYS + 1) * 86_400_000).toISOString() })
      .where(eq(contents.id, old));
    await send("DELETE", `/tenants/${tenant.tenantId}/contents/${recent}`, tenant.session);
    const { purged } = await purgeTrash(env, logger({ test: "trash" }));
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(contents).where(eq(contents.id, old))).toEqual([]);
    expect(await db.select().from(contentVersions).where(eq(contentVersions.contentId, old))).toEqual([]);
    expect((await db.select().from(contents).where(eq(contents.id, recent))).length).toBe(1);
    expect((await db.select({ of: contents.translationOf }).from(contents).where(eq(contents.id, translation)))[0]!.of).toBeNull();
  });
});
