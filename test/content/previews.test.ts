import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { previewToken } from "../../src/content/sites/theme-upload";
import { admin, createTestTenant, installDefaultTheme, memberWith, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

let tenant: TestTenant;
let slug: string;
let draftId: number;

beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await installDefaultTheme(tenant.siteId);
  await seedContent(tenant, { title: "Market hall opens" });
  draftId = await seedContent(tenant, { title: "Secret harbour plans", publishAt: null });
});
afterEach(() => vi.useRealTimers());

type Link = { url: string; expiresAt: string };

async function previewLink(id = draftId, session = tenant.session, tenantId = tenant.tenantId) {
  const res = await admin("POST", `/tenants/${tenantId}/contents/${id}/preview-link`, session);
  return { status: res.status, link: (await res.json<{ data: Link }>()).data };
}

/** The link's path and query on the site's host (the link is absolute, on `<slug>.localhost`). */
const onSite = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Opens a preview link as a browser does: the cookie it sets, and where it leads. */
async function open(path: string, site = slug) {
  const res = await sitePage(site, path, { redirect: "manual" });
  const cookie = res.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  return { res, cookie, location: res.headers.get("Location") };
}

describe("draft preview links", () => {
  it("hands an editor a link that shows a draft on the site's host, uncached and not indexed", async () => {
    const { status, link } = await previewLink();
    expect(status).toBe(200);
    expect(link.url).toMatch(new RegExp(`^https?://${slug}\\.localhost(:\\d+)?/_preview\\?token=${draftId}\\.\\d+\\.[0-9a-f]{64}$`));
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const opened = await open(onSite(link.url));
    expect(opened.res.status).toBe(302);
    expect(opened.location).toBe("/secret-harbour-plans");
    expect(opened.res.headers.get("Set-Cookie")).toMatch(/gw_preview=.+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax/);

    const page = await sitePage(slug, "/secret-harbour-plans", { headers: { Cookie: opened.cookie } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Secret harbour plans");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain("Leave the preview");
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(page.headers.get("X-Cache")).toBeNull();
  });

  it("keeps the reader in preview on the site's other pages, and shows them nothing of it after", async () => {
    const { cookie } = await open(onSite((await previewLink()).link.url));
    const home = await sitePage(slug, "/", { headers: { Cookie: cookie } });
    expect(home.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await home.text()).toContain("Leave the preview");
    // A reader without the link: the ordinary, cached home, and the draft is not found.
    const plain = await sitePage(slug, "/");
    expect(await plain.text()).not.toContain("Leave the preview");
    expect(plain.headers.get("Cache-Control")).toContain("public");
    // A browser that kept the plain home before it opened the link asks again once it has the cookie.
    expect(plain.headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect((await sitePage(slug, "/secret-harbour-plans")).status).toBe(404);
    // Leaving the preview clears the cookie.
    const left = await sitePage(slug, "/_preview/end", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(left.status).toBe(302);
    expect(left.headers.get("Set-Cookie")).toMatch(/^gw_preview=; Max-Age=0/);
  });

  it("ends once the content is published: the next page is the site as anyone sees it, and the cookie is cleared", async () => {
    const id = await seedContent(tenant, { title: "Lantern festival", publishAt: null });
    const { cookie } = await open(onSite((await previewLink(id)).link.url));
    expect(await (await sitePage(slug, "/", { headers: { Cookie: cookie } })).text()).toContain("Leave the preview");
    expect((await admin("POST", `/tenants/${tenant.tenantId}/contents/${id}/publish`, tenant.session, {})).status).toBe(200);

    const home = await sitePage(slug, "/", { headers: { Cookie: cookie } });
    expect(await home.text()).not.toContain("Leave the preview");
    expect(home.headers.get("Set-Cookie")).toMatch(/^gw_preview=; Max-Age=0; Path=\//);
    expect(home.headers.get("Cache-Control")).toContain("public");
    const page = await sitePage(slug, "/lantern-festival", { headers: { Cookie: cookie } });
    expect(await page.text()).not.toContain("Leave the preview");
    expect(page.status).toBe(200);
  });

  it("refuses a tampered link, another content's signature, another site's host and an expired link", async () => {
    const { link } = await previewLink();
    const token = new URL(link.url).searchParams.get("token")!;
    const [id, expires, signature] = token.split(".");
    const otherId = await seedContent(tenant, { title: "Another draft", publishAt: null });
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith("0") ? "1" : "0"}`;
    for (const forged of [
      `${id}.${expires}.${flipped}`,
      `${otherId}.${expires}.${signature}`,
      `${id}.${Number(expires) + 3600}.${signature}`,
      `${id}.${expires}`,
      "",
      `${id}.${expires}.${signature}.x`,
    ]) {
      const res = (await open(`/_preview?token=${encodeURIComponent(forged)}`)).res;
      expect(res.status, forged).toBe(403);
      expect(res.headers.get("Set-Cookie"), forged).toBeNull();
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    }
    // A forged cookie shows nothing either.
    expect((await sitePage(slug, "/secret-harbour-plans", { headers: { Cookie: `gw_preview=${id}.${expires}.${flipped}` } })).status).toBe(404);
    // The same token on another tenant's site.
    const other = await createTestTenant();
    const otherSlug = await siteSlug(other.siteId);
    await installDefaultTheme(other.siteId);
    expect((await open(`/_preview?token=${token}`, otherSlug)).res.status).toBe(403);
    // Past its expiry: the link and a cookie set before both stop working.
    const { cookie } = await open(`/_preview?token=${token}`);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Number(expires) * 1000 + 1000);
    expect((await open(`/_preview?token=${token}`)).res.status).toBe(403);
    expect((await sitePage(slug, "/secret-harbour-plans", { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it("gives links to editors and owners only, for contents of their own tenant", async () => {
    const author = await memberWith(tenant, "author");
    const viewer = await memberWith(tenant, "viewer");
    const editor = await memberWith(tenant, "editor");
    expect((await previewLink(draftId, author.session)).status).toBe(403);
    expect((await previewLink(draftId, viewer.session)).status).toBe(403);
    expect((await previewLink(draftId, editor.session)).status).toBe(200);
    const stranger = await createTestTenant();
    expect((await previewLink(draftId, stranger.session, stranger.tenantId)).status).toBe(404);
    expect((await previewLink(draftId, stranger.session)).status).toBe(404);
  });

  it("shows a scheduled content before its time to whoever has the link", async () => {
    const id = await seedContent(tenant, { title: "Regatta next week", publishAt: new Date(Date.now() + 7 * 86_400_000).toISOString() });
    const { cookie, location } = await open(onSite((await previewLink(id)).link.url));
    expect(location).toBe("/regatta-next-week");
    expect(await (await sitePage(slug, "/regatta-next-week", { headers: { Cookie: cookie } })).text()).toContain("Regatta next week");
    expect((await sitePage(slug, "/regatta-next-week")).status).toBe(404);
  });
});

describe("theme preview", () => {
  it("stays in the previewed theme after the first page, by a cookie of the site's host", async () => {
    const marker = '{% extends "layouts/base.html.j2" %}{% block main %}<p id="other-theme">Other theme</p>{% endblock %}';
    for (const [path, text] of Object.entries({ ...env.TEST_DEFAULT_THEME, "templates/index.html.j2": marker, "templates/content.html.j2": marker }))
      await env.THEMES.put(`themes/${tenant.siteId}/other/${path}`, text);
    const token = await previewToken(env.JWT_SECRET, tenant.siteId, "other");
    const first = await open(`/?theme_preview=other&token=${token}`);
    expect(await first.res.text()).toContain("Other theme");
    expect(first.cookie).toMatch(/^gw_theme_preview=other\./);
    // The next click: a plain address, the cookie alone.
    const next = await sitePage(slug, "/market-hall-opens", { headers: { Cookie: first.cookie } });
    expect(await next.text()).toContain("Other theme");
    expect(next.headers.get("Cache-Control")).toBe("private, no-store");
    // A forged cookie, or none: the site's own theme.
    expect(
      await (await sitePage(slug, "/market-hall-opens", { headers: { Cookie: `gw_theme_preview=other.${"0".repeat(64)}` } })).text(),
    ).not.toContain("Other theme");
    expect(await (await sitePage(slug, "/market-hall-opens")).text()).not.toContain("Other theme");
  });
});
