import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { STARTER_THEME_PREFIX } from "../../src/content/sites/themes";
import { admin, createTestTenant, installDefaultTheme, memberWith, PIXEL_PNG, seedContent, sitePage, type TestTenant } from "../helpers/content";
import { call } from "../helpers/requests";
import { uniqueTag } from "../helpers/accounts";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };
interface SiteBody {
  id: number;
  name: string;
  slug: string;
  theme: string;
  languages: string[];
  defaultLanguage: string;
  favicon: string | null;
}

async function send<T = SiteBody>(method: string, path: string, session: string, body?: unknown) {
  const res = await admin(method, path, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}
const patchSite = (tenant: TestTenant, body: unknown, session = tenant.session) =>
  send("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, session, body);
const slugOf = async (tenant: TestTenant) =>
  (await send<SiteBody[]>("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session)).body.data.find((s) => s.id === tenant.siteId)!.slug;

async function uploadImage(tenant: TestTenant, siteId = tenant.siteId): Promise<string> {
  const res = await call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${siteId}&filename=icon.png`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "image/png" },
    body: PIXEL_PNG,
  });
  expect(res.status).toBe(201);
  return (await res.json<Envelope<{ url: string }>>()).data.url;
}

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await slugOf(tenant);
  await installDefaultTheme(tenant.siteId);
});

describe("site settings", () => {
  it("shows a new name, description and title pattern on the next page, though the page was cached before", async () => {
    await seedContent(tenant, { title: "Settings story" });
    const before = await (await sitePage(slug, "/")).text();
    expect(before).not.toContain("The Harbour Gazette");
    const saved = await patchSite(tenant, {
      name: "The Harbour Gazette",
      seoDescription: "News from the old harbour, every morning",
      seoTitlePattern: "{title} | Gazette",
      timezone: "Europe/Lisbon",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: "The Harbour Gazette", timezone: "Europe/Lisbon" });
    const home = await (await sitePage(slug, "/")).text();
    expect(home).toContain("The Harbour Gazette");
    expect(home).toContain("News from the old harbour, every morning");
    const story = await (await sitePage(slug, "/settings-story")).text();
    expect(story).toContain("<title>Settings story | Gazette</title>");
  });

  it("refuses what a site cannot be, each message beside its field and in words", async () => {
    const cases: [unknown, string, string][] = [
      [{ languages: ["en", "xx"] }, "body.languages.1", "xx is not a language code we know: use one such as en, de, fr or pt-BR"],
      [{ languages: ["en", "en"] }, "body.languages", "Each language only once"],
      [{ languages: [] }, "body.languages", "A site needs at least one language"],
      [
        { timezone: "Mars/Olympus" },
        "body.timezone",
        "Mars/Olympus is not a time zone we know: choose one such as Europe/Berlin or America/New_York",
      ],
      [{ defaultLanguage: "fr" }, "body.defaultLanguage", "The language fr is not one of the site's languages (en, de): add it there first"],
      [
        { seoTitlePattern: "{site}" },
        "body.seoTitlePattern",
        "Seo title pattern must contain {title}, where each page's own title goes, e.g. {title} · {site}",
      ],
      [{ primaryDomain: "Not a host" }, "body.primaryDomain", "Primary domain must be a lower-case host name, e.g. news.example.com"],
      [{ name: "" }, "body.name", "Name must not be empty"],
      [{ seoDescription: "x".repeat(301) }, "body.seoDescription", "Seo description must be at most 300 characters"],
      [{ seoDescriptions: { fr: "Nouvelles du port" } }, "body.seoDescriptions", "The language fr is not one of the site's other languages (de)"],
      [{ seoDescriptions: { en: "News" } }, "body.seoDescriptions", "The language en is not one of the site's other languages (de)"],
      [{ seoDescriptions: { de: "x".repeat(301) } }, "body.seoDescriptions.de", "The description in German (de) must be at most 300 characters"],
      [{ seoDescriptions: { de: "  " } }, "body.seoDescriptions.de", "The description in German (de) must not be empty"],
    ];
    for (const [body, field, message] of cases) {
      const refused = await patchSite(tenant, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error!.fields, JSON.stringify(body)).toContainEqual({ field, message });
    }
  });

  it("shows the description in each language that has its own: the German pages, their meta and feed in German", async () => {
    const saved = await patchSite(tenant, { seoDescription: "News from the harbour", seoDescriptions: { de: "Nachrichten vom Hafen" } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ seoDescriptions: { de: "Nachrichten vom Hafen" } });
    const german = await (await sitePage(slug, "/de/")).text();
    expect(german).toContain('<meta name="description" content="Nachrichten vom Hafen">');
    expect(german).toContain('<p class="page-description">Nachrichten vom Hafen</p>');
    expect(german).not.toContain("News from the harbour");
    expect(await (await sitePage(slug, "/")).text()).toContain('<meta name="description" content="News from the harbour">');
    expect(await (await sitePage(slug, "/de/feed.xml")).text()).toContain("<description>Nachrichten vom Hafen</description>");

    // A language the site drops takes its description with it; none given, the German pages show the default one again.
    await patchSite(tenant, { languages: ["en", "de", "fr"], seoDescriptions: { de: "Nachrichten vom Hafen", fr: "Nouvelles du port" } });
    expect((await patchSite(tenant, { languages: ["en", "de"] })).body.data).toMatchObject({ seoDescriptions: { de: "Nachrichten vom Hafen" } });
    expect((await patchSite(tenant, { seoDescriptions: {} })).body.data).toMatchObject({ seoDescriptions: {} });
    expect(await (await sitePage(slug, "/de/")).text()).toContain('<meta name="description" content="News from the harbour">');
  });

  it("keeps a language that contents are written in", async () => {
    await seedContent(tenant, { title: `Deutsch ${uniqueTag()}`, language: "de" });
    const refused = await patchSite(tenant, { languages: ["en"] });
    expect(refused.status).toBe(400);
    expect(refused.body.error!.fields![0]).toMatchObject({
      field: "body.languages",
      message: expect.stringMatching(/contents are written in German \(de\): keep the language/),
    });
    // Adding one and making it the default works.
    const added = await patchSite(tenant, { languages: ["en", "de", "fr"], defaultLanguage: "en" });
    expect(added.body.data.languages).toEqual(["en", "de", "fr"]);
  });

  it("keeps a language an ad is shown in, until the ad is changed", async () => {
    await patchSite(tenant, { languages: ["en", "de", "fr"] });
    const ad = await admin("POST", `/tenants/${tenant.tenantId}/ads`, tenant.session, {
      siteId: tenant.siteId,
      kind: "html",
      slot: `french-${uniqueTag()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")}`.slice(0, 40),
      html: '<a href="https://market.example/fr">Marché d\'hiver</a>',
      startsAt: "2026-01-01T00:00:00Z",
      language: "fr",
    });
    expect(ad.status).toBe(201);
    const { id } = (await ad.json<{ data: { id: number } }>()).data;
    const refused = await patchSite(tenant, { languages: ["en", "de"] });
    expect(refused.status).toBe(400);
    expect(refused.body.error!.fields![0]).toEqual({
      field: "body.languages",
      message: `Ad #${id} is shown on the French (fr) pages only: keep the language, or change the ad first`,
    });
    await admin("PATCH", `/tenants/${tenant.tenantId}/ads/${id}`, tenant.session, { language: null });
    expect((await patchSite(tenant, { languages: ["en", "de"] })).status).toBe(200);
  });

  it("serves the favicon chosen from the site's media, and refuses another site's image", async () => {
    const icon = await uploadImage(tenant);
    const chosen = await patchSite(tenant, { favicon: icon });
    expect(chosen.status).toBe(200);
    const served = await sitePage(slug, "/favicon.ico");
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PIXEL_PNG);

    const other = await createTestTenant();
    const foreign = await uploadImage(other);
    const refused = await patchSite(tenant, { favicon: foreign });
    expect(refused.status).toBe(400);
    expect(refused.body.error!.fields).toEqual([
      { field: "body.favicon", message: "Favicon must be an image of this site's Media: upload it there, then choose it" },
    ]);
    expect((await patchSite(tenant, { favicon: "/media/1/1/nothing.png" })).status).toBe(400);
    // None: the theme's, else the built-in icon.
    await patchSite(tenant, { favicon: null });
    expect((await sitePage(slug, "/favicon.ico")).headers.get("Content-Type")).not.toBe("image/png");
  });

  it("lets a viewer read the settings but not change them, and another tenant reach neither", async () => {
    const viewer = await memberWith(tenant, "viewer");
    expect((await send<SiteBody[]>("GET", `/tenants/${tenant.tenantId}/sites`, viewer.session)).status).toBe(200);
    const refused = await patchSite(tenant, { name: "Viewer's name" }, viewer.session);
    expect(refused.status).toBe(403);
    const editor = await memberWith(tenant, "editor");
    expect((await patchSite(tenant, { name: "Editor's name" }, editor.session)).status).toBe(403);

    const intruder = await createTestTenant();
    expect((await patchSite(tenant, { name: "Taken over" }, intruder.session)).status).toBe(404);
    const sideways = await send("PATCH", `/tenants/${intruder.tenantId}/sites/${tenant.siteId}`, intruder.session, { name: "Taken over" });
    expect(sideways.status).toBe(404);
    const names = (await send<SiteBody[]>("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session)).body.data.map((s) => s.name);
    expect(names).not.toContain("Taken over");
  });
});

describe("a second site", () => {
  it("starts with a copy of the first site's theme, so that its pages show at once", async () => {
    const second = `second-${uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")}`;
    const created = await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, {
      name: "The Second Paper",
      slug: second,
      languages: ["fr", "en"],
      timezone: "Europe/Paris",
      copyThemeFrom: tenant.siteId,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "The Second Paper", defaultLanguage: "fr", languages: ["fr", "en"], theme: "default" });
    const home = await sitePage(second, "/");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("The Second Paper");
    const sites = await send<SiteBody[]>("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session);
    expect(sites.body.data.map((s) => s.slug)).toContain(second);
  });

  it("starts with a copy of the operator's starter theme when it copies none, and says how to get one when there is no starter", async () => {
    const fresh = () =>
      `s-${uniqueTag()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")}`;
    const bare = fresh();
    expect((await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, { name: "Bare Paper", slug: bare })).status).toBe(201);
    const unthemed = await sitePage(bare, "/");
    expect(unthemed.status).toBe(503);
    expect(await unthemed.text()).toBe(
      `The site ${bare} has no theme yet: its owner uploads one, or copies another site's, under Themes in the console`,
    );

    const starter = Object.keys(env.TEST_DEFAULT_THEME).map((path) => `${STARTER_THEME_PREFIX}${path}`);
    try {
      for (const [path, text] of Object.entries(env.TEST_DEFAULT_THEME)) await env.THEMES.put(`${STARTER_THEME_PREFIX}${path}`, text);
      const themeBytes = async () =>
        (await send<{ themes: { usedBytes: number } }>("GET", `/tenants/${tenant.tenantId}/storage`, tenant.session)).body.data.themes.usedBytes;
      const before = await themeBytes();
      const started = fresh();
      const created = await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, { name: "Started Paper", slug: started });
      expect(created.body.data.theme).toBe("default");
      const home = await sitePage(started, "/");
      expect(home.status).toBe(200);
      expect(await home.text()).toContain("Started Paper");
      // The site's own copy, counted in the tenant's room: the starter may change without changing it.
      expect((await themeBytes()) - before).toBe(
        Object.values(env.TEST_DEFAULT_THEME).reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0),
      );
    } finally {
      // Other files create sites in this storage: none of them starts with a starter it does not expect.
      await env.THEMES.delete(starter);
    }
  });

  it("refuses a taken slug, another tenant's theme, a viewer, and a default language outside the languages", async () => {
    const taken = await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, { name: "Again", slug });
    expect(taken.status).toBe(409);
    expect(taken.body.error!.message).toBe(`The site slug ${slug} is already taken`);
    const other = await createTestTenant();
    const fresh = () =>
      `s-${uniqueTag()
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")}`;
    const foreign = await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, {
      name: "Copy",
      slug: fresh(),
      copyThemeFrom: other.siteId,
    });
    expect(foreign.status).toBe(404);
    const viewer = await memberWith(tenant, "viewer");
    expect((await send("POST", `/tenants/${tenant.tenantId}/sites`, viewer.session, { name: "Mine", slug: fresh() })).status).toBe(403);
    const mismatch = await send("POST", `/tenants/${tenant.tenantId}/sites`, tenant.session, {
      name: "Mismatch",
      slug: fresh(),
      languages: ["de"],
      defaultLanguage: "en",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error!.fields).toEqual([
      { field: "body.defaultLanguage", message: "The language en is not one of the site's languages (de): add it there first" },
    ]);
  });
});

describe("a new address name", () => {
  it("moves the development address at once: the old one stops answering, the new one answers", async () => {
    const moving = await createTestTenant();
    await installDefaultTheme(moving.siteId);
    const old = await slugOf(moving);
    const renamed = `moved-${uniqueTag().toLowerCase()}`;
    // Both addresses asked for first, so that this isolate has each host's answer in memory.
    expect((await sitePage(old, "/")).status).toBe(200);
    expect((await sitePage(renamed, "/")).status).toBe(404);
    expect((await patchSite(moving, { slug: renamed })).status).toBe(200);
    expect((await sitePage(renamed, "/")).status).toBe(200);
    expect((await sitePage(old, "/")).status).toBe(404);
  });
});
