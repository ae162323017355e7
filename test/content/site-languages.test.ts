import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../src/content/admin/categories";
import { dateFormat } from "../../src/content/sites/languages";
import { database } from "../../src/platform/database";
import { admin, createTestTenant, installDefaultTheme, ownerScope, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

const htmlOf = (res: Response) => res.text();
/** The hreflang links of a page, as [hreflang, href]. */
const hreflangs = (html: string) => [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]);
const cardTitles = (html: string) => [...html.matchAll(/<h([23]) class="card-title"><a href="[^"]+">([^<]+)<\/a><\/h\1>/g)].map((m) => m[2]);

let tenant: TestTenant;
let slug: string;
let origin: string;

/**
 * A site in English (default) and German, in Berlin's time zone: a story and its translation
 * published at 23:30 UTC on 5 March 2026 (already 6 March in Berlin), an English story without a
 * translation, a category, a tag on both languages, and a menu for each language.
 */
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  origin = `https://${slug}.localhost`;
  await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { timezone: "Europe/Berlin" });
  const news = await createCategory(database(env), ownerScope(tenant), { siteId: tenant.siteId, name: "News", slug: "news" });
  const english = await seedContent(tenant, {
    title: "Ferry timetable",
    categoryIds: [news.id],
    tags: ["ferry"],
    publishAt: "2026-03-05T23:30:00Z",
  });
  await seedContent(tenant, {
    title: "Faehrplan",
    language: "de",
    translationOf: english,
    categoryIds: [news.id],
    tags: ["ferry"],
    publishAt: "2026-03-05T23:30:00Z",
  });
  await seedContent(tenant, { title: "Only in English", categoryIds: [news.id], publishAt: "2026-03-01T09:00:00Z" });
  for (const [name, label] of [
    ["main", "News"],
    ["main.de", "Nachrichten"],
  ])
    expect(
      (
        await admin("PUT", `/tenants/${tenant.tenantId}/tags`, tenant.session, {
          siteId: tenant.siteId,
          type: "menu",
          name,
          definition: { items: [{ label, link: { category: news.id } }] },
        })
      ).status,
    ).toBe(200);
  await installDefaultTheme(tenant.siteId);
});

describe("each language's home", () => {
  it("serves the German home at /de/, in German: its contents, its menu, its dates in the site's time zone", async () => {
    const res = await sitePage(slug, "/de/");
    expect(res.status).toBe(200);
    const html = await htmlOf(res);
    expect(html).toContain('<html lang="de">');
    expect(cardTitles(html)).toEqual(["Faehrplan"]);
    expect(html).toContain('<a href="/de/faehrplan">Faehrplan</a>');
    expect(html).toContain('<li><a href="/de/c/news">Nachrichten</a>');
    expect(html).not.toContain('<li><a href="/de/c/news">News</a>');
    // The card's category, as over the article: the category has no German name, so its own.
    expect(html).toContain('<p class="kicker"><a href="/de/c/news">News</a></p>');
    expect(html).toContain('<time datetime="2026-03-05T23:30:00.000Z">6. März 2026</time>');
    expect(html).toContain(`<a class="brand" href="/de/">`);
  });

  it("keeps the English home English, its dates in the site's time zone as well", async () => {
    const html = await htmlOf(await sitePage(slug, "/"));
    expect(html).toContain('<html lang="en">');
    expect(cardTitles(html)).toEqual(["Ferry timetable", "Only in English"]);
    expect(html).toContain('<li><a href="/c/news">News</a>');
    expect(html).toContain('<time datetime="2026-03-05T23:30:00.000Z">6 March 2026</time>');
  });

  it("leads a page's address typed in capitals or with a slash at its end to its one address, keeping the query", async () => {
    for (const [typed, address] of [
      ["/Ferry-Timetable", "/ferry-timetable"],
      ["/ferry-timetable/", "/ferry-timetable"],
      ["/de/FAEHRPLAN/?utm_source=mail", "/de/faehrplan?utm_source=mail"],
      ["/c/News", "/c/news"],
      ["/de/c/news/", "/de/c/news"],
    ] as const) {
      const res = await sitePage(slug, typed, { redirect: "manual" });
      expect(res.status, typed).toBe(301);
      expect(res.headers.get("Location"), typed).toBe(address);
      expect((await sitePage(slug, address.replace(/\?.*/, ""))).status, address).toBe(200);
    }
    // A language's home, a tag's words and anything that is no page's address are left as they are.
    expect((await sitePage(slug, "/de/", { redirect: "manual" })).status).toBe(200);
    expect((await sitePage(slug, "/tag/ferry", { redirect: "manual" })).status).toBe(200);
    expect((await sitePage(slug, "/Nothing/Here/", { redirect: "manual" })).status).toBe(404);
    expect((await sitePage(slug, `/${"A".repeat(81)}/`, { redirect: "manual" })).status).toBe(404);
  });

  it("answers /de with a permanent redirect to its one address, /de/, keeping the query", async () => {
    const res = await sitePage(slug, "/de?page=2", { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("Location")).toBe("/de/?page=2");
  });

  it("answers the theme's 404 page for a prefix that is no language of the site: unknown, not the site's, the default's, or far too long", async () => {
    for (const path of ["/xx/", "/fr/", "/fr/feed.xml", "/en/", "/en/ferry-timetable", "/de/c/nothing", "/de/ferry-timetable", "/xx/c/news"]) {
      const res = await sitePage(slug, path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain("<h1>");
    }
    const started = Date.now();
    for (const path of [`/de/${"a".repeat(8000)}`, `/${"de/".repeat(2000)}`, `/de/c/${"a".repeat(8000)}`, `/de/tag/${"%41".repeat(3000)}`]) {
      expect((await sitePage(slug, path)).status, path.slice(0, 20)).toBe(404);
    }
    expect(Date.now() - started).toBeLessThan(5000);
    // A 404 under a language of the site is written in that language.
    const german = await htmlOf(await sitePage(slug, "/de/nothing-here"));
    expect(german).toContain('<html lang="de">');
    expect(german).toMatch(/<title>Seite nicht gefunden · [^<]+<\/title>/);
    expect(await htmlOf(await sitePage(slug, "/nothing-here"))).toMatch(/<title>Page not found · [^<]+<\/title>/);
    // So is a German list's page that is no page number, its way back the German home.
    const noPage = await sitePage(slug, "/de/?page=abc");
    expect(noPage.status).toBe(404);
    const noPageHtml = await htmlOf(noPage);
    expect(noPageHtml).toContain('<html lang="de">');
    expect(noPageHtml).toMatch(/<title>Seite nicht gefunden · [^<]+<\/title>/);
    expect(noPageHtml).toContain('<a class="button" href="/de/">');
    // The switcher marks no link of a page that exists in no language, least of all the current one.
    expect(german).toContain('<a href="/de/" hreflang="de" aria-current="page"><span lang="de">Deutsch</span></a>');
    // The empty search page is titled in its language too.
    expect(await htmlOf(await sitePage(slug, "/de/search"))).toMatch(/<title>Suche · [^<]+<\/title>/);
    // `/xx` without its slash is a content slug of the default language, which there is not.
    expect((await sitePage(slug, "/xx", { redirect: "manual" })).status).toBe(404);
  });
});

describe("the default theme's words", () => {
  it("are French, Spanish, Italian, Portuguese and Dutch on those languages' pages, a regional language taking its language's", async () => {
    const other = await createTestTenant();
    const otherSlug = await siteSlug(other.siteId);
    const languages = ["en", "fr", "es", "it", "pt-BR", "nl"];
    expect((await admin("PATCH", `/tenants/${other.tenantId}/sites/${other.siteId}`, other.session, { languages })).status).toBe(200);
    await installDefaultTheme(other.siteId);
    const titles: Record<string, string> = {};
    for (const language of languages.slice(1)) {
      const page = await htmlOf(await sitePage(otherSlug, `/${language}/nothing-here`));
      titles[language] = /<title>([^<·]+) ·/.exec(page)?.[1]?.trim() ?? page.slice(0, 200);
    }
    expect(titles).toEqual({
      fr: "Page introuvable",
      es: "Página no encontrada",
      it: "Pagina non trovata",
      "pt-BR": "Página não encontrada",
      nl: "Pagina niet gevonden",
    });
  });
});

describe("each language's lists and feeds", () => {
  it("lists a category, a tag and a search in the page's language only, a search's word finding the compounds it begins", async () => {
    for (const [path, titles] of [
      ["/c/news", ["Ferry timetable", "Only in English"]],
      ["/de/c/news", ["Faehrplan"]],
      ["/tag/ferry", ["Ferry timetable"]],
      ["/de/tag/ferry", ["Faehrplan"]],
      ["/de/search?q=faehrplan", ["Faehrplan"]],
      // The beginning of a compound finds it; two letters find whole words only.
      ["/de/search?q=faehr", ["Faehrplan"]],
      ["/de/search?q=fa", []],
      ["/de/search?q=english", []],
    ] as const) {
      const html = await htmlOf(await sitePage(slug, path));
      expect(cardTitles(html), path).toEqual(titles);
      expect(html, path).toContain(`<html lang="${path.startsWith("/de/") ? "de" : "en"}">`);
    }
    expect(await htmlOf(await sitePage(slug, "/de/search?q=x"))).toMatch(/<form class="[^"]+" role="search" action="\/de\/search"/);
  });

  it("says how to search on a search page without words, above the language's newest contents, and what to try when nothing is found", async () => {
    const english = await htmlOf(await sitePage(slug, "/search"));
    expect(english).toContain('<p class="search-hint">Type a word or a few: the articles that hold them all are shown, newest first.');
    expect(english).toContain('<h2 class="kicker search-latest">Latest</h2>');
    expect(cardTitles(english)).toEqual(["Ferry timetable", "Only in English"]);
    // The contents under "Latest" are headed one level below it.
    expect(english).toContain('<h3 class="card-title">');
    expect(english).not.toContain('<h2 class="card-title">');
    const german = await htmlOf(await sitePage(slug, "/de/search"));
    expect(german).toContain("Der Anfang eines Wortes genügt");
    expect(cardTitles(german)).toEqual(["Faehrplan"]);
    const none = await htmlOf(await sitePage(slug, "/search?q=zeppelin"));
    expect(none).toContain('<p class="empty">Nothing found. Try fewer words, or only the start of one.</p>');
    // A results page is titled as a search for its words, in its language.
    expect(none).toMatch(/<title>Search: zeppelin · [^<]+<\/title>/);
    expect(await htmlOf(await sitePage(slug, "/de/search?q=f%C3%A4hre"))).toMatch(/<title>Suche: fähre · [^<]+<\/title>/);
    // The words as typed, even those a replacement pattern would read ($& is the matched text).
    expect(await htmlOf(await sitePage(slug, "/search?q=%24%26"))).toMatch(/<title>Search: \$&amp; · [^<]+<\/title>/);
    expect(none).not.toContain("search-latest");
    expect(cardTitles(none)).toEqual([]);
  });

  it("gives each language its own RSS and Atom feed", async () => {
    const english = await (await sitePage(slug, "/feed.xml")).text();
    expect(english).toContain("<title>Ferry timetable</title>");
    expect(english).not.toContain("Faehrplan");
    expect(english).toContain("<language>en</language>");
    const german = await sitePage(slug, "/de/feed.xml");
    expect(german.headers.get("Content-Type")).toBe("application/rss+xml; charset=utf-8");
    const rss = await german.text();
    expect([...rss.matchAll(/<item><title>([^<]+)<\/title>/g)].map((m) => m[1])).toEqual(["Faehrplan"]);
    expect(rss).toContain(`<link>${origin}/de/faehrplan</link>`);
    expect(rss).toContain("<language>de</language>");
    expect(rss).toContain(`<atom:link href="${origin}/de/feed.xml" rel="self"`);
    const atom = await (await sitePage(slug, "/de/atom.xml")).text();
    expect(atom).toContain('xml:lang="de"');
    expect([...atom.matchAll(/<entry><title>([^<]+)<\/title>/g)].map((m) => m[1])).toEqual(["Faehrplan"]);
    expect(await htmlOf(await sitePage(slug, "/de/"))).toContain('type="application/rss+xml" title="Site');
    expect(await htmlOf(await sitePage(slug, "/de/"))).toMatch(/href="\/de\/feed\.xml"/);
  });

  it("lists each language's home and category pages in the sitemap, and every language's contents", async () => {
    // A category without a public content in a language has no page worth indexing in it; a parent's page shows its children's.
    const db = database(env);
    const scope = ownerScope(tenant);
    await createCategory(db, scope, { siteId: tenant.siteId, name: "Empty", slug: "empty" });
    const port = await createCategory(db, scope, { siteId: tenant.siteId, name: "Port", slug: "port" });
    const ferries = await createCategory(db, scope, { siteId: tenant.siteId, name: "Ferries", slug: "ferries", parentId: port.id });
    await seedContent(tenant, { title: "Night ferry", categoryIds: [ferries.id], publishAt: "2026-03-02T09:00:00Z" });
    await seedContent(tenant, { title: "Nachtfaehre", language: "de", categoryIds: [ferries.id], publishAt: null });
    const pages = await (await sitePage(slug, "/sitemap-categories.xml")).text();
    const listed = [...pages.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.slice(origin.length));
    expect(listed).toEqual(["/", "/c/news", "/c/port", "/c/ferries", "/de/", "/de/c/news"]);
    const contents = await (await sitePage(slug, "/sitemap-contents.xml")).text();
    for (const path of ["/ferry-timetable", "/de/faehrplan", "/only-in-english"]) expect(contents).toContain(`<loc>${origin}${path}</loc>`);
  });
});

describe("hreflang and the language switcher", () => {
  it("links a content's translations on the site's origin, itself and x-default included", async () => {
    const html = await htmlOf(await sitePage(slug, "/de/faehrplan"));
    expect(hreflangs(html)).toEqual([
      ["en", `${origin}/ferry-timetable`],
      ["de", `${origin}/de/faehrplan`],
      ["x-default", `${origin}/ferry-timetable`],
    ]);
    expect(hreflangs(await htmlOf(await sitePage(slug, "/ferry-timetable")))).toEqual(hreflangs(html));
    expect(hreflangs(await htmlOf(await sitePage(slug, "/only-in-english")))).toEqual([]);
  });

  it("links the homes and lists of every language, and none from a search", async () => {
    expect(hreflangs(await htmlOf(await sitePage(slug, "/de/")))).toEqual([
      ["en", `${origin}/`],
      ["de", `${origin}/de/`],
      ["x-default", `${origin}/`],
    ]);
    expect(hreflangs(await htmlOf(await sitePage(slug, "/c/news")))).toEqual([
      ["en", `${origin}/c/news`],
      ["de", `${origin}/de/c/news`],
      ["x-default", `${origin}/c/news`],
    ]);
    expect(hreflangs(await htmlOf(await sitePage(slug, "/de/tag/ferry")))).toEqual([
      ["en", `${origin}/tag/ferry`],
      ["de", `${origin}/de/tag/ferry`],
      ["x-default", `${origin}/tag/ferry`],
    ]);
    expect(hreflangs(await htmlOf(await sitePage(slug, "/de/search?q=faehrplan")))).toEqual([]);
  });

  it("gives templates page.languages: the same page in each language where it exists, else that language's home", async () => {
    const site = await createTestTenant();
    const row = await siteSlug(site.siteId);
    const english = await seedContent(site, { title: "Market opens" });
    await seedContent(site, { title: "Markt eroeffnet", language: "de", translationOf: english });
    await seedContent(site, { title: "English only" });
    await installDefaultTheme(site.siteId, {
      ...env.TEST_DEFAULT_THEME,
      "templates/content.html.j2":
        "{% for l in page.languages %}[{{ l.code }} {{ l.name }} {{ l.url }} {{ l.hasVersion }} {{ l.current }}]{% endfor %}",
    });
    const text = async (path: string) => htmlOf(await sitePage(row, path));
    expect(await text("/de/markt-eroeffnet")).toBe("[en English /market-opens true false][de Deutsch /de/markt-eroeffnet true true]");
    expect(await text("/english-only")).toBe("[en English /english-only true true][de Deutsch /de/ false false]");
  });

  it("writes the switcher into the default theme: each language's name, linked to this page in it, the current one marked", async () => {
    const html = await htmlOf(await sitePage(slug, "/de/faehrplan"));
    expect(html).toContain('<nav class="lang-switcher" aria-label="Sprachen">');
    expect(html).toContain('<a href="/ferry-timetable" hreflang="en"><span lang="en">English</span></a>');
    expect(html).toContain('<a href="/de/faehrplan" hreflang="de" aria-current="page"><span lang="de">Deutsch</span></a>');
  });

  it("says in the page's language, before the click, that a language without this page leads to its home", async () => {
    const html = await htmlOf(await sitePage(slug, "/only-in-english"));
    expect(html).toContain(
      '<a href="/de/" hreflang="de" class="no-version" title="This page is not written in this language: the link leads to its home page"><span lang="de">Deutsch</span> <span class="no-version-note">(home page)</span></a>',
    );
  });
});

/** The site's `footer` menu, replaced by these items. */
async function putFooter(items: unknown[]) {
  const put = await admin("PUT", `/tenants/${tenant.tenantId}/tags`, tenant.session, {
    siteId: tenant.siteId,
    type: "menu",
    name: "footer",
    definition: { items },
  });
  expect(put.status).toBe(200);
}

/** The footer menu's links on a page, as "label address". */
const footer = async (path: string) =>
  [...(await htmlOf(await sitePage(slug, path))).matchAll(/<nav class="footer-nav"[^>]*>\s*<ul>(.*?)<\/ul>/gs)]
    .flatMap((nav) => [...nav[1]!.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a><\/li>/g)])
    .map((m) => `${m[2]} ${m[1]}`);

describe("menus and posts queries in the page's language", () => {
  it("falls back to the default language's menu for a language without its own", async () => {
    await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { languages: ["en", "de", "fr"] });
    try {
      const html = await htmlOf(await sitePage(slug, "/fr/"));
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain('<li><a href="/fr/c/news">News</a>');
      expect(html).toContain('<a href="/fr/" hreflang="fr" aria-current="page"><span lang="fr">Français</span></a>');
    } finally {
      await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { languages: ["en", "de"] });
    }
  });

  it("leads a shared menu's home and contents to the page's language where it can", async () => {
    const original = await seedContent(tenant, { title: "Harbour walk", publishAt: "2026-03-02T09:00:00Z" });
    await seedContent(tenant, { title: "Hafenspaziergang", language: "de", translationOf: original, publishAt: "2026-03-02T09:00:00Z" });
    const english = await seedContent(tenant, { title: "Tide clock", publishAt: "2026-03-02T09:00:00Z" });
    const items = [
      { label: "Home", link: { url: "/" } },
      { label: "Walk", link: { content: original } },
      { label: "Tides", link: { content: english } },
      { label: "Elsewhere", link: { url: "https://example.com/" } },
    ];
    await putFooter(items);
    expect(await footer("/")).toEqual(["Home /", "Walk /harbour-walk", "Tides /tide-clock", "Elsewhere https://example.com/"]);
    // On German pages: the German home, the walk's German version; the English-only content as it is.
    expect(await footer("/de/")).toEqual(["Home /de/", "Walk /de/hafenspaziergang", "Tides /tide-clock", "Elsewhere https://example.com/"]);
    // The theme gives the feed's link itself when the menu does not.
    expect(await htmlOf(await sitePage(slug, "/"))).toContain('<p class="footer-feed">');
  });

  it("names a borrowed menu's categories in the page's language, and leads its written list addresses there", async () => {
    await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { languages: ["en", "de", "fr"] });
    try {
      const harbour = await createCategory(database(env), ownerScope(tenant), { siteId: tenant.siteId, name: "Harbour", slug: "harbour" });
      const named = await admin("PATCH", `/tenants/${tenant.tenantId}/categories/${harbour.id}`, tenant.session, { names: { fr: "Port" } });
      expect(named.status).toBe(200);
      const items = [
        { label: "Harbour", link: { category: harbour.id } },
        { label: "Find", link: { url: "/search" } },
        { label: "Feed", link: { url: "/feed.xml" } },
        { label: "Ferries", link: { url: "/tag/ferry" } },
        { label: "Written", link: { url: "/only-in-english" } },
      ];
      await putFooter(items);
      // On its own language's pages, as written.
      expect(await footer("/")).toEqual(["Harbour /c/harbour", "Find /search", "Feed /feed.xml", "Ferries /tag/ferry", "Written /only-in-english"]);
      // The menu's feed item is the footer's one feed link: the theme adds none beside it.
      expect(await htmlOf(await sitePage(slug, "/"))).not.toContain('<p class="footer-feed">');
      // Borrowed by French pages: the category's French name, its page, search and the feed in French; a tag's or content's address as written.
      expect(await footer("/fr/")).toEqual([
        "Port /fr/c/harbour",
        "Find /fr/search",
        "Feed /fr/feed.xml",
        "Ferries /tag/ferry",
        "Written /only-in-english",
      ]);
      // German has no name for it: the label as written, the page German.
      expect(await footer("/de/")).toEqual([
        "Harbour /de/c/harbour",
        "Find /de/search",
        "Feed /de/feed.xml",
        "Ferries /tag/ferry",
        "Written /only-in-english",
      ]);
    } finally {
      await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { languages: ["en", "de"] });
    }
  });

  it("refuses a menu for a language the site does not have, or a name that is no menu's", async () => {
    for (const [name, message] of [
      ["main.fr", "a language the site does not have"],
      ["main.DE", "A menu's name is lower-case words joined by dashes"],
      ["main.de.de", "A menu's name is lower-case words joined by dashes"],
    ]) {
      const res = await admin("PUT", `/tenants/${tenant.tenantId}/tags`, tenant.session, {
        siteId: tenant.siteId,
        type: "menu",
        name,
        definition: { items: [] },
      });
      expect(res.status, name).toBe(400);
      expect(JSON.stringify(await res.json()), name).toContain(message);
    }
    const posts = await admin("PUT", `/tenants/${tenant.tenantId}/tags`, tenant.session, {
      siteId: tenant.siteId,
      type: "posts",
      name: "picks.de",
      definition: {},
    });
    expect(posts.status).toBe(400);
  });

  it("lists a posts query's contents of the page's language, each at its own address", async () => {
    const site = await createTestTenant();
    const row = await siteSlug(site.siteId);
    const english = await seedContent(site, { title: "Jazz week", tags: ["music"] });
    await seedContent(site, { title: "Jazzwoche", language: "de", translationOf: english, tags: ["music"] });
    await admin("PUT", `/tenants/${site.tenantId}/tags`, site.session, {
      siteId: site.siteId,
      type: "posts",
      name: "music",
      definition: { tags: ["music"] },
    });
    await installDefaultTheme(site.siteId, {
      ...env.TEST_DEFAULT_THEME,
      "templates/index.html.j2": "{% for p in tags.music %}[{{ p.title }} {{ p.url }}]{% endfor %}",
    });
    expect(await htmlOf(await sitePage(row, "/de/"))).toBe("[Jazzwoche /de/jazzwoche]");
    expect(await htmlOf(await sitePage(row, "/"))).toBe("[Jazz week /jazz-week]");
  });
});

describe("ads in the page's language", () => {
  const htmlAd = (text: string, language?: string | null) => ({
    siteId: tenant.siteId,
    kind: "html",
    slot: "sidebar",
    html: `<a href="https://market.example/${language ?? "all"}">${text}</a>`,
    startsAt: "2026-01-01T00:00:00Z",
    ...(language === undefined ? {} : { language }),
  });
  const ads = (method: string, path: string, body?: unknown) => admin(method, `/tenants/${tenant.tenantId}/ads${path}`, tenant.session, body);

  it("shows an ad of a language on that language's pages only, and one of every language on all", async () => {
    const created = await ads("POST", "", htmlAd("Wintermarkt am Hafen", "de"));
    expect(created.status).toBe(201);
    const german = await created.json<{ data: { id: number; language: string } }>();
    expect(german.data.language).toBe("de");
    const english = await (await ads("POST", "", htmlAd("Winter market at the harbour", "en"))).json<{ data: { id: number } }>();
    for (const path of ["/de/", "/de/faehrplan"]) {
      const html = await htmlOf(await sitePage(slug, path));
      expect(html, path).toContain("Wintermarkt am Hafen");
      expect(html, path).not.toContain("Winter market at the harbour");
    }
    for (const path of ["/", "/ferry-timetable"]) {
      const html = await htmlOf(await sitePage(slug, path));
      expect(html, path).toContain("Winter market at the harbour");
      expect(html, path).not.toContain("Wintermarkt am Hafen");
    }
    // Every language's again (null), with the German one paused: the German pages show it.
    expect((await ads("PATCH", `/${english.data.id}`, { language: null })).status).toBe(200);
    expect((await ads("PATCH", `/${german.data.id}`, { isActive: false })).status).toBe(200);
    expect(await htmlOf(await sitePage(slug, "/de/"))).toContain("Winter market at the harbour");
    expect(await htmlOf(await sitePage(slug, "/"))).toContain("Winter market at the harbour");
  });

  it("lists a content's language versions alone (the admin API's translationsOf), from either of them, and refuses a bad id", async () => {
    const other = await createTestTenant();
    const original = await seedContent(other, { title: "Harbour walk" });
    const german = await seedContent(other, { title: "Hafenrundgang", language: "de", translationOf: original });
    await seedContent(other, { title: "Unrelated story" });
    const versions = async (id: number | string) =>
      admin("GET", `/tenants/${other.tenantId}/contents?siteId=${other.siteId}&translationsOf=${id}`, other.session);
    for (const id of [original, german]) {
      const res = await versions(id);
      expect(res.status, String(id)).toBe(200);
      const { data } = await res.json<{ data: { items: { id: number }[]; total: number } }>();
      expect(data.items.map((c) => c.id).sort((a, b) => a - b)).toEqual([original, german]);
      expect(data.total).toBe(2);
    }
    expect((await versions("abc")).status).toBe(400);
  });

  it("refuses a language the site does not have, at its field, on creation and on an edit", async () => {
    const refused = await ads("POST", "", htmlAd("Marché d'hiver", "fr"));
    expect(refused.status).toBe(400);
    const body = await refused.json<{ error: { fields: { field: string; message: string }[] } }>();
    expect(body.error.fields).toEqual([{ field: "body.language", message: "The language fr is not one of the site's languages (en, de)" }]);
    const created = await (await ads("POST", "", htmlAd("Any language"))).json<{ data: { id: number; language: string | null } }>();
    expect(created.data.language).toBeNull();
    const patched = await ads("PATCH", `/${created.data.id}`, { language: "fr" });
    expect(patched.status).toBe(400);
    expect((await ads("PATCH", `/${created.data.id}`, { language: "xx-yy" })).status).toBe(400);
    await ads("DELETE", `/${created.data.id}`);
  });
});

describe("format_date", () => {
  it("writes a date long or short in the page's language and the site's time zone, and anything else back as it came", () => {
    const instant = "2026-11-26T23:30:00Z";
    expect(dateFormat("de", "Europe/Berlin")(instant, "long")).toBe("27. November 2026");
    expect(dateFormat("en", "UTC")(instant, "long")).toBe("26 November 2026");
    expect(dateFormat("en-US", "UTC")(instant)).toBe("November 26, 2026");
    expect(dateFormat("de", "UTC")(instant, "short")).toBe("26.11.26");
    expect(dateFormat("en", "Not/AZone")(instant, "constructor")).toBe("26 November 2026");
    expect(dateFormat("en", "UTC")("not a date", "long")).toBe("not a date");
    expect(dateFormat("en", "UTC")(null)).toBe("");
  });
});
