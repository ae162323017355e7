/**
 * What a reader of a tenant site meets first (issue 34): URLs and quotes written as Jinja2 writes
 * them, the title, paged lists past their end or with a page that is no number, the favicon, and
 * HTML ads whose links open and are counted, through a click route that goes nowhere else.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../src/content/admin/categories";
import { ads } from "../../src/content/schema";
import { users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { eq } from "drizzle-orm";
import { admin, createTestTenant, installDefaultTheme, ownerScope, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

/** An attribute's value as the browser reads it: MarkupSafe's five entities written back. */
const unescaped = (attribute: string) =>
  attribute.replace(/&(lt|gt|#34|#39|amp);/g, (_, name: string) => ({ lt: "<", gt: ">", "#34": '"', "#39": "'", amp: "&" })[name]!);
const clicksOf = async (adId: number) =>
  (await env.DB.prepare("SELECT SUM(clicks) AS clicks FROM ad_stats WHERE ad_id = ?").bind(adId).first<{ clicks: number | null }>())!.clicks ?? 0;

let tenant: TestTenant;
let slug: string;
let siteName: string;

beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  siteName = (await env.DB.prepare("SELECT name FROM sites WHERE id = ?").bind(tenant.siteId).first<{ name: string }>())!.name;
  const culture = await createCategory(database(env), ownerScope(tenant), { siteId: tenant.siteId, name: "Culture", slug: "culture" });
  for (let i = 1; i <= 11; i++) await seedContent(tenant, { title: `Concert ${i}`, categoryIds: [culture.id], tags: ["live"] });
  await seedContent(tenant, { title: `Rock 'n' Roll "Live" & more` });
  await installDefaultTheme(tenant.siteId);
});

describe("pages written as Python's Jinja2 writes them", () => {
  it("writes the URLs in attributes with their slashes, and quotes and ampersands as MarkupSafe's entities", async () => {
    const html = await (await sitePage(slug)).text();
    expect(html).not.toContain("&#x2f;");
    expect(html).not.toContain("&#x27;");
    expect(html).toContain(`<link rel="canonical" href="https://${slug}.localhost/">`);
    expect(html).toContain(`<meta property="og:url" content="https://${slug}.localhost/">`);
    expect(html).toContain('<a href="/rock-n-roll-live-more">Rock &#39;n&#39; Roll &#34;Live&#34; &amp; more</a>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/themes\/\d+\/default\/css\/site\.css\?v=[0-9a-f]{16}">/);
  });
});

describe("the title of a page", () => {
  it("is the site's name once on the home page, in <title>, og:title and twitter:title", async () => {
    const html = await (await sitePage(slug)).text();
    expect(html).toContain(`<title>${siteName}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${siteName}">`);
    expect(html).toContain(`<meta name="twitter:title" content="${siteName}">`);
    expect(html).not.toContain(`${siteName} · ${siteName}`);
  });

  it("is the page's title and the site's name on other pages, whatever characters the title holds", async () => {
    expect(await (await sitePage(slug, "/concert-1")).text()).toContain(`<title>Concert 1 · ${siteName}</title>`);
    expect(await (await sitePage(slug, "/c/culture")).text()).toContain(`<title>Culture · ${siteName}</title>`);
    // `$&` and `{site}` in a title are the title's own characters, not the pattern's.
    await seedContent(tenant, { title: "Save $& {site} now" });
    expect(await (await sitePage(slug, "/save-site-now")).text()).toContain(`<title>Save $&amp; {site} now · ${siteName}</title>`);
  });
});

describe("what a shared link's card and a search engine read of a content", () => {
  it("names its language, publication time, author and tags", async () => {
    await database(env).update(users).set({ fullName: "Ada Reader" }).where(eq(users.id, tenant.ownerId));
    await seedContent(tenant, { title: "Card story", tags: ["harbour", "night"] });
    const html = await (await sitePage(slug, "/card-story")).text();
    expect(html).toContain('<meta property="og:locale" content="en">');
    expect(html).toMatch(/<meta property="article:published_time" content="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z">/);
    expect(html).toContain('<meta name="author" content="Ada Reader">');
    expect(html).toContain('<meta property="article:tag" content="harbour">\n<meta property="article:tag" content="night">');
  });
});

describe("paged lists", () => {
  const lists = ["/", "/c/culture", "/tag/live", "/search?q=concert"];
  const withPage = (path: string, page: string) => `${path}${path.includes("?") ? "&" : "?"}page=${page}`;

  it.each(lists)("%s: the last page is a page, the one after it the theme's 404 page", async (path) => {
    const last = await sitePage(slug, withPage(path, "2"));
    expect(last.status).toBe(200);
    expect(await last.text()).toContain('<article class="card">');
    for (const past of ["3", "999", "10000"]) {
      const res = await sitePage(slug, withPage(path, past));
      expect(res.status, past).toBe(404);
      expect(await res.text()).toContain("<h1>Page not found</h1>");
    }
  });

  it.each(lists)("%s: a page that is no page number is no page either: the theme's 404 page, in the page's language", async (path) => {
    for (const bad of ["abc", "0", "-1", "1.5", "2e3", "%202", "", "10001", "99999999999999999999"]) {
      const res = await sitePage(slug, withPage(path, bad));
      expect(res.status, bad).toBe(404);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(await res.text()).toContain("<h1>Page not found</h1>");
    }
  });

  it("gives an empty site its first page, and nothing past it", async () => {
    const empty = await createTestTenant();
    const emptySlug = await siteSlug(empty.siteId);
    await installDefaultTheme(empty.siteId);
    const first = await sitePage(emptySlug, "/?page=1");
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Nothing published yet.");
    expect((await sitePage(emptySlug, "/?page=2")).status).toBe(404);
    expect((await sitePage(emptySlug, "/search?page=2")).status).toBe(404);
  });
});

describe("/favicon.ico", () => {
  it("is the built-in icon for a theme without one, cached for a day", async () => {
    const res = await sitePage(slug, "/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/x-icon");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=86400, stale-while-revalidate=604800");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes.length).toBeLessThan(1024);
  });

  it("is the theme's own favicon when it has one, and the default theme links it", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';
    await installDefaultTheme(site.siteId, { ...env.TEST_DEFAULT_THEME, "assets/favicon.svg": svg });
    const res = await sitePage(own, "/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=86400, stale-while-revalidate=604800");
    expect(await res.text()).toBe(svg);
    expect(await (await sitePage(own)).text()).toMatch(/<link rel="icon" href="\/favicon\.ico"[^>]*>/);
  });
});

describe("HTML ads", () => {
  const AD =
    '<p>Winter market <a href="https://shop.example/market?day=sat&amp;time=10">tickets</a> · <a href="https://shop.example/map">map</a></p>';

  async function htmlAd(site: TestTenant, html: string) {
    const res = await admin("POST", `/tenants/${site.tenantId}/ads`, site.session, {
      siteId: site.siteId,
      kind: "html",
      slot: "sidebar",
      html,
      startsAt: "2026-01-01T00:00:00Z",
    });
    return { status: res.status, body: await res.json<{ data: { id: number }; error?: { message: string } }>() };
  }

  it("sits in a frame whose links open and go through the click counter, in the reader's color scheme", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    await installDefaultTheme(site.siteId);
    const { body } = await htmlAd(site, AD);
    const page = await (await sitePage(own)).text();
    // Its title says where its links go, for a reader who hears it before entering it.
    const frame = /<iframe sandbox="([^"]*)" title="Advertisement \(its links open in a new tab\)" srcdoc="([^"]*)"><\/iframe>/.exec(page);
    expect(frame, page).not.toBeNull();
    expect(frame![1]).toBe("allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation");
    const srcdoc = unescaped(frame![2]!);
    const id = body.data.id;
    expect(srcdoc).toContain(
      `<a href="/ads/${id}/click?to=https%3A%2F%2Fshop.example%2Fmarket%3Fday%3Dsat%26time%3D10" target="_blank" rel="sponsored noopener">tickets</a>`,
    );
    expect(srcdoc).toContain(`<a href="/ads/${id}/click?to=https%3A%2F%2Fshop.example%2Fmap" target="_blank" rel="sponsored noopener">map</a>`);
    expect(srcdoc).toContain('<meta name="color-scheme" content="light dark">');
    expect(srcdoc).toContain("background:transparent");
  });

  it("is titled as an ad alone when none of its links opens a new tab: each asks for the whole page, or it has none", async () => {
    for (const html of ['<p>Open day <a href="https://shop.example/day" target="_top">in this window</a></p>', "<p>Open day, Saturday</p>"]) {
      const site = await createTestTenant();
      await installDefaultTheme(site.siteId);
      expect((await htmlAd(site, html)).status).toBe(201);
      const page = await (await sitePage(await siteSlug(site.siteId))).text();
      expect(/<iframe [^>]*title="([^"]*)"/.exec(page)?.[1], page).toBe("Advertisement");
    }
  });

  it("shows the ad's new HTML on the next page after an edit, its link through the click counter", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    await installDefaultTheme(site.siteId);
    const { body } = await htmlAd(site, AD);
    const srcdocOf = async () => unescaped(/srcdoc="([^"]*)"/.exec(await (await sitePage(own)).text())?.[1] ?? "");
    expect(await srcdocOf()).toContain("Winter market");
    const edited = await admin("PATCH", `/tenants/${site.tenantId}/ads/${body.data.id}`, site.session, {
      html: '<p>Spring fair <a href="https://shop.example/fair">stands</a></p>',
    });
    expect(edited.status).toBe(200);
    const after = await srcdocOf();
    expect(after).not.toContain("Winter market");
    expect(after).toContain(
      `<a href="/ads/${body.data.id}/click?to=https%3A%2F%2Fshop.example%2Ffair" target="_blank" rel="sponsored noopener">stands</a>`,
    );
  });

  it("is read once per version of the site: later renders draw from the list kept in the isolate", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    await installDefaultTheme(site.siteId);
    const { body } = await htmlAd(site, AD);
    const srcdocAt = async (path: string) => unescaped(/srcdoc="([^"]*)"/.exec(await (await sitePage(own, path)).text())?.[1] ?? "");
    expect(await srcdocAt("/?render=1")).toContain("Winter market");
    // Changed behind the service's back, so the site's version stays: a render that read the ads again would show it.
    await env.DB.prepare("UPDATE ads SET html = '<p>Changed behind</p>' WHERE id = ?").bind(body.data.id).run();
    expect(await srcdocAt("/?render=2")).toContain("Winter market");
  });

  it("counts a click on each of its links on the way to it, and sends no one anywhere else", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    const { body } = await htmlAd(site, AD);
    const id = body.data.id;
    const click = (to: string) => sitePage(own, `/ads/${id}/click?to=${encodeURIComponent(to)}`, { redirect: "manual" });

    const res = await click("https://shop.example/market?day=sat&time=10");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("https://shop.example/market?day=sat&time=10");
    expect((await click("https://shop.example/map")).headers.get("Location")).toBe("https://shop.example/map");
    expect(await clicksOf(id)).toBe(2);

    for (const elsewhere of [
      "https://evil.example/",
      "javascript:alert(1)",
      "//evil.example/",
      "/admin/",
      "https://shop.example/map#x",
      "x".repeat(3000),
    ]) {
      const refused = await click(elsewhere);
      expect(refused.status, elsewhere).toBe(400);
      expect(refused.headers.get("Location")).toBeNull();
      expect(await refused.text()).toContain("This ad does not link to that address.");
    }
    expect(await clicksOf(id)).toBe(2);
    // An HTML ad without a link of its own has nowhere to go without `to`; another site's ad is not this site's.
    expect((await sitePage(own, `/ads/${id}/click`, { redirect: "manual" })).status).toBe(404);
    expect((await sitePage(slug, `/ads/${id}/click?to=${encodeURIComponent("https://shop.example/map")}`, { redirect: "manual" })).status).toBe(404);
    expect(await clicksOf(id)).toBe(2);
  });

  it.each([
    ["a script", '<a href="https://a.example/">x</a><script>alert(1)</script>', "An ad may not hold <script>"],
    ["a script in SVG", "<svg><script>alert(1)</script></svg>", "An ad may not hold <script>"],
    ["a frame", '<iframe src="https://a.example/"></iframe>', "An ad may not hold <iframe>"],
    ["a form", '<form action="https://a.example/"><button>Go</button></form>', "An ad may not hold <form>"],
    ["an event handler", '<img src="https://a.example/x.png" onerror="alert(1)">', "An ad may not run code on events (onerror)"],
    ["a javascript: link", '<a href="javascript:alert(1)">x</a>', "href must be an http(s) address, not javascript:alert(1)"],
    ["a javascript: link with a tab inside", '<a href="java\tscript:alert(1)">x</a>', "href must be an http(s) address"],
    ["a javascript: link written with character references", '<a href="&#106;avascript&colon;alert(1)">x</a>', "href must be an http(s) address"],
    ["a data: link", '<a href="data:text/html,<b>x</b>">x</a>', "href must be an http(s) address"],
    ["a relative link", '<a href="/elsewhere">x</a>', "A link must be a whole http(s) address (https://…), not /elsewhere"],
    ["too many links", '<a href="https://a.example/">x</a>'.repeat(21), "An ad may hold at most 20 links, this one has 21"],
  ])("refuses an ad with %s, saying why", async (_what, html, message) => {
    const { status, body } = await htmlAd(tenant, html);
    expect(status).toBe(400);
    expect(body.error!.message).toContain(message);
  });

  it("refuses the same in a change, and an ad longer than 20000 characters", async () => {
    const { body } = await htmlAd(tenant, AD);
    const patched = await admin("PATCH", `/tenants/${tenant.tenantId}/ads/${body.data.id}`, tenant.session, { html: '<a href="javascript:x">x</a>' });
    expect(patched.status).toBe(400);
    expect((await htmlAd(tenant, `<p>${"x".repeat(20_000)}</p>`)).status).toBe(400);
    await admin("DELETE", `/tenants/${tenant.tenantId}/ads/${body.data.id}`, tenant.session);
  });

  it("cleans an ad saved before these rules: no script, no handler, no javascript: link reaches the frame", async () => {
    const site = await createTestTenant();
    const own = await siteSlug(site.siteId);
    await installDefaultTheme(site.siteId);
    await database(env).insert(ads).values({
      tenantId: site.tenantId,
      siteId: site.siteId,
      slot: "sidebar",
      kind: "html",
      html: '<b onclick="alert(1)">Old</b><script>alert(2)</script><a href="javascript:alert(3)">bad</a><a href="https://ok.example/" target="_top">ok</a>',
      startsAt: "2026-01-01T00:00:00Z",
    });
    const page = await (await sitePage(own)).text();
    const srcdoc = unescaped(/srcdoc="([^"]*)"/.exec(page)![1]!);
    expect(srcdoc).toContain("<b>Old</b>");
    expect(srcdoc).not.toMatch(/script|onclick|javascript/);
    expect(srcdoc).toContain("<a>bad</a>");
    expect(srcdoc).toMatch(/<a href="\/ads\/\d+\/click\?to=https%3A%2F%2Fok\.example%2F" target="_top" rel="sponsored noopener">ok<\/a>/);
  });
});
