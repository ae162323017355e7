import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, installDefaultTheme, memberWith, seedContent, sitePage, type TestTenant } from "../helpers/content";
import { uniqueTag } from "../helpers/accounts";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };
interface CategoryBody {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  parentId: number | null;
}

async function send<T = CategoryBody>(method: string, path: string, session: string, body?: unknown) {
  const res = await admin(method, path, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

let tenant: TestTenant;
let slug: string;
const fresh = (word: string) =>
  `${word}-${uniqueTag()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")}`;
const create = async (name: string, parentId: number | null = null) =>
  (
    await send("POST", `/tenants/${tenant.tenantId}/categories`, tenant.session, {
      siteId: tenant.siteId,
      name,
      slug: fresh(name.toLowerCase()),
      parentId,
    })
  ).body.data;
const change = (id: number, body: unknown, session = tenant.session, tenantId = tenant.tenantId) =>
  send("PATCH", `/tenants/${tenantId}/categories/${id}`, session, body);

beforeAll(async () => {
  tenant = await createTestTenant();
  await installDefaultTheme(tenant.siteId);
  const sites = await send<{ id: number; slug: string }[]>("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session);
  slug = sites.body.data.find((s) => s.id === tenant.siteId)!.slug;
});

describe("changing a category after creation", () => {
  it("renames it, changes its slug, description and parent, and the site shows the new name at the new address", async () => {
    const harbour = await create("Harbour");
    const parent = await create("Places");
    await seedContent(tenant, { title: `Ferries ${uniqueTag()}`, categoryIds: [harbour.id] });
    expect((await sitePage(slug, `/c/${harbour.slug}`)).status).toBe(200);
    const newSlug = fresh("port");
    const changed = await change(harbour.id, {
      name: "Port and Ferries",
      slug: newSlug,
      description: "Boats, tides and timetables",
      parentId: parent.id,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: "Port and Ferries",
      slug: newSlug,
      description: "Boats, tides and timetables",
      parentId: parent.id,
    });
    const page = await sitePage(slug, `/c/${newSlug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Port and Ferries");
    // The old address leads to the new one.
    const old = await sitePage(slug, `/c/${harbour.slug}`, { redirect: "manual" });
    expect([old.status, old.headers.get("Location")]).toEqual([301, `/c/${newSlug}`]);
    // Back to the top level.
    expect((await change(harbour.id, { parentId: null })).body.data.parentId).toBeNull();
  });

  it("refuses a cycle: a category below itself, or below one of its own subcategories", async () => {
    const top = await create("Top");
    const middle = await create("Middle", top.id);
    const bottom = await create("Bottom", middle.id);
    const message = "a category cannot be placed below itself or one of its own subcategories";
    for (const parentId of [top.id, middle.id, bottom.id]) {
      const refused = await change(top.id, { parentId });
      expect(refused.status, `parent ${parentId}`).toBe(400);
      expect(refused.body.error).toMatchObject({
        message: `parentId: ${message}`,
        fields: [{ field: "body.parentId", message: "A category cannot be placed below itself or one of its own subcategories" }],
      });
    }
    // Nothing moved.
    const all = await send<CategoryBody[]>("GET", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}/categories`, tenant.session);
    expect(all.body.data.find((c) => c.id === top.id)!.parentId).toBeNull();
    // Moving the bottom one up is no cycle.
    expect((await change(bottom.id, { parentId: top.id })).status).toBe(200);
  });

  it("refuses a taken or malformed slug, an empty name, and a parent of another site or tenant", async () => {
    const one = await create("One");
    const two = await create("Two");
    const taken = await change(two.id, { slug: one.slug });
    expect(taken.status).toBe(409);
    expect(taken.body.error!.message).toBe("The category slug is already taken");
    const malformed = await change(two.id, { slug: "Not A Slug" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error!.fields).toContainEqual({
      field: "body.slug",
      message: "The slug must be lower-case letters and digits joined by single dashes, like museum-night",
    });
    expect((await change(two.id, { name: "  " })).body.error!.fields).toContainEqual({ field: "body.name", message: "Name must not be empty" });
    const other = await createTestTenant();
    const foreign = (
      await send("POST", `/tenants/${other.tenantId}/categories`, other.session, { siteId: other.siteId, name: "Theirs", slug: "theirs" })
    ).body.data;
    const strangerParent = await change(two.id, { parentId: foreign.id });
    expect(strangerParent.status).toBe(400);
    expect(strangerParent.body.error!.message).toBe(`parentId: no category with id ${foreign.id}`);
  });

  it("answers 404 for another tenant's category and 403 for a viewer or author", async () => {
    const mine = await create("Mine");
    const intruder = await createTestTenant();
    expect((await change(mine.id, { name: "Stolen" }, intruder.session)).status).toBe(404);
    expect((await change(mine.id, { name: "Stolen" }, intruder.session, intruder.tenantId)).status).toBe(404);
    for (const role of ["viewer", "author"] as const) {
      const member = await memberWith(tenant, role);
      expect((await change(mine.id, { name: "Renamed" }, member.session)).status, role).toBe(403);
    }
    const all = await send<CategoryBody[]>("GET", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}/categories`, tenant.session);
    expect(all.body.data.find((c) => c.id === mine.id)!.name).toBe("Mine");
  });
});

describe("a category's name in the site's other languages", () => {
  it("shows the German name and description on the German pages (its list, an article's kicker and breadcrumb), the others on the rest", async () => {
    const harbour = await create("Harbour");
    const named = await change(harbour.id, { names: { de: "Hafen" }, description: "Boats and tides", descriptions: { de: "Boote und Gezeiten" } });
    expect(named.status).toBe(200);
    expect(named.body.data).toMatchObject({ name: "Harbour", names: { de: "Hafen" }, descriptions: { de: "Boote und Gezeiten" } });
    const stamp = uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-");
    const english = await seedContent(tenant, { title: `Boats ${stamp}`, categoryIds: [harbour.id] });
    await seedContent(tenant, { title: `Boote ${stamp}`, language: "de", categoryIds: [harbour.id], translationOf: english });

    const germanList = await (await sitePage(slug, `/de/c/${harbour.slug}`)).text();
    expect(germanList).toContain("<h1>Hafen</h1>");
    expect(germanList).toContain('<meta name="description" content="Boote und Gezeiten">');
    expect(germanList).not.toContain("Boats and tides");
    expect(germanList).toContain("<title>Hafen · ");
    const germanArticle = await (await sitePage(slug, `/de/boote-${stamp}`)).text();
    expect(germanArticle).toContain(`<a href="/de/c/${harbour.slug}">Hafen</a>`);
    expect(germanArticle).toContain('"name":"Hafen"');
    const englishArticle = await (await sitePage(slug, `/boats-${stamp}`)).text();
    expect(englishArticle).toContain(`<a href="/c/${harbour.slug}">Harbour</a>`);
    const englishList = await (await sitePage(slug, `/c/${harbour.slug}`)).text();
    expect(englishList).toContain("<h1>Harbour</h1>");
    expect(englishList).toContain("Boats and tides");

    // None left: the German pages show the name again.
    expect((await change(harbour.id, { names: {} })).body.data).toMatchObject({ names: {} });
    expect(await (await sitePage(slug, `/de/c/${harbour.slug}`)).text()).toContain("<h1>Harbour</h1>");
  });

  it("names a content's first category over its title in a list, as its own page does, in the page's language; one in no category, its first tag", async () => {
    const harbour = await create("Harbour");
    await change(harbour.id, { names: { de: "Hafen" } });
    const stamp = uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-");
    const filed = await seedContent(tenant, { title: `Tides ${stamp}`, categoryIds: [harbour.id], tags: ["weather"] });
    await seedContent(tenant, { title: `Gezeiten ${stamp}`, language: "de", categoryIds: [harbour.id], tags: ["wetter"], translationOf: filed });
    await seedContent(tenant, { title: `Gulls ${stamp}`, tags: ["birds", "weather"] });

    const card = (page: string, title: string) =>
      page.slice(page.lastIndexOf('<article class="card', page.indexOf(`>${title}</a>`)), page.indexOf(`>${title}</a>`));
    const home = await (await sitePage(slug, "/")).text();
    expect(card(home, `Tides ${stamp}`)).toContain(`<p class="kicker"><a href="/c/${harbour.slug}">Harbour</a></p>`);
    expect(card(home, `Gulls ${stamp}`)).toContain('<p class="kicker"><a href="/tag/birds">birds</a></p>');
    const germanHome = await (await sitePage(slug, "/de/")).text();
    expect(card(germanHome, `Gezeiten ${stamp}`)).toContain(`<p class="kicker"><a href="/de/c/${harbour.slug}">Hafen</a></p>`);
    const search = await (await sitePage(slug, `/search?q=${stamp}`)).text();
    expect(card(search, `Tides ${stamp}`)).toContain(`>Harbour</a></p>`);
  });

  it("refuses a name or description in a language the site does not have, or in its default one, and an empty one, each at its field", async () => {
    const market = await create("Market");
    for (const [body, field, message] of [
      [{ names: { fr: "Marché" } }, "body.names", "The language fr is not one of the site's other languages (de)"],
      [{ names: { en: "Market" } }, "body.names", "The language en is not one of the site's other languages (de)"],
      [{ names: { de: " " } }, "body.names.de", "The name in German (de) must not be empty"],
      [{ names: { de: "x".repeat(101) } }, "body.names.de", "The name in German (de) must be at most 100 characters"],
      [{ descriptions: { fr: "Le marché" } }, "body.descriptions", "The language fr is not one of the site's other languages (de)"],
      [{ descriptions: { de: "x".repeat(501) } }, "body.descriptions.de", "The description in German (de) must be at most 500 characters"],
    ] as const) {
      const refused = await change(market.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error!.fields, JSON.stringify(body)).toContainEqual({ field, message });
    }
    const created = await send("POST", `/tenants/${tenant.tenantId}/categories`, tenant.session, {
      siteId: tenant.siteId,
      name: "Weather",
      names: { fr: "Météo" },
      slug: fresh("weather"),
    });
    expect(created.status).toBe(400);
  });
});
