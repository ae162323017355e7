import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, memberWith, seedContent, type TestTenant } from "../helpers/content";

interface LinkTargets {
  contents: { id: number; title: string; language: string; status: string; publishAt: string | null }[];
  categories: { id: number; name: string; slug: string }[];
  tags: { name: string; published: number }[];
}
type Envelope<T> = { success: boolean; data: T; error?: { message: string } };

let tenant: TestTenant;
let other: TestTenant;
const ids: Record<string, number> = {};

beforeAll(async () => {
  [tenant, other] = await Promise.all([createTestTenant(), createTestTenant()]);
  ids.published = await seedContent(tenant, { title: "Museum Night at the Harbour", tags: ["harbour", "night-life"] });
  ids.draft = await seedContent(tenant, { title: "Museum night: the draft", tags: ["night-life"], publishAt: null });
  ids.elsewhere = await seedContent(other, { title: "Museum night of another tenant", tags: ["night-life"] });
  const category = await admin("POST", `/tenants/${tenant.tenantId}/categories`, tenant.session, {
    siteId: tenant.siteId,
    name: "Night Trains",
    slug: "night-trains",
  });
  ids.category = (await category.json<Envelope<{ id: number }>>()).data.id;
});

async function targets(q: string | null, session = tenant.session, siteId = tenant.siteId, tenantId = tenant.tenantId) {
  const query = q === null ? "" : `?q=${encodeURIComponent(q)}`;
  const res = await admin("GET", `/tenants/${tenantId}/sites/${siteId}/link-targets${query}`, session);
  return { status: res.status, body: await res.json<Envelope<LinkTargets>>() };
}

describe("a menu's link targets, found by words", () => {
  it("finds contents by part of their title in any case, with their status now, and categories and tags by name", async () => {
    const { status, body } = await targets("museum NIGHT");
    expect(status).toBe(200);
    expect(body.data.contents.map((c) => [c.id, c.status])).toEqual([
      [ids.draft, "draft"],
      [ids.published, "published"],
    ]);
    expect(body.data.contents[0]).toMatchObject({ title: "Museum night: the draft", language: "en", publishAt: null });
    expect((await targets("night")).body.data.categories).toEqual([{ id: ids.category, name: "Night Trains", slug: "night-trains" }]);
    // A tag says how many published contents carry it: a menu linking one with none leads to an empty page.
    expect((await targets("night")).body.data.tags).toEqual([{ name: "night-life", published: 1 }]);
    expect((await targets("harb")).body.data.tags).toEqual([{ name: "harbour", published: 1 }]);
  });

  it("lists the latest of each kind without words, and nothing for words no title has", async () => {
    const all = (await targets(null)).body.data;
    expect(all.contents.map((c) => c.id)).toEqual(expect.arrayContaining([ids.draft, ids.published]));
    expect(all.tags.map((t) => t.name)).toEqual(["harbour", "night-life"]);
    expect((await targets("zebra crossing")).body.data).toEqual({ contents: [], categories: [], tags: [] });
  });

  it("takes a search's % and _ as letters, not patterns", async () => {
    expect((await targets("%")).body.data).toEqual({ contents: [], categories: [], tags: [] });
    expect((await targets("_")).body.data.contents).toEqual([]);
  });

  it("never shows another tenant's contents, and answers 404 for its site", async () => {
    expect((await targets("another tenant")).body.data.contents).toEqual([]);
    const foreign = await targets(null, tenant.session, other.siteId);
    expect(foreign.status).toBe(404);
    expect((await targets(null, other.session, other.siteId, tenant.tenantId)).status).toBe(404);
  });

  it("lets a viewer search, and refuses a search longer than 100 characters in words", async () => {
    const viewer = await memberWith(tenant, "viewer");
    expect((await targets("museum", viewer.session)).body.data.contents).toHaveLength(2);
    const long = await targets("x".repeat(101));
    expect(long.status).toBe(400);
    expect(long.body.error!.message).toBe("Search with at most 100 characters");
  });
});
