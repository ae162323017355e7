import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

// A page this isolate keeps is answered before the site's router runs (sites/page-render.ts,
// keptPage): what a reader gets must be what the router would have answered.

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

let tenant: TestTenant;
let slug: string;
let draftId: number;

beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await seedContent(tenant, { title: "Harbour reopens", bodyMarkdown: "The **harbour** is open." });
  draftId = await seedContent(tenant, { title: "Secret plans", publishAt: null });
  await installDefaultTheme(tenant.siteId);
});

/** The headers a reader's cache and browser act on: all but the request's own (its id, the cache's verdict, the bookmark of the D1 reads a render made). */
const sameFor = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => !["x-request-id", "x-cache", "x-d1-bookmark"].includes(name)));

describe("a page this isolate keeps", () => {
  it("is answered as it was rendered: the same bytes and headers, marked a hit", async () => {
    for (const path of ["/", "/harbour-reopens"]) {
      const rendered = await sitePage(slug, path, { headers: { Accept: BROWSER_ACCEPT } });
      const kept = await sitePage(slug, path, { headers: { Accept: BROWSER_ACCEPT } });
      expect([rendered.headers.get("X-Cache"), kept.headers.get("X-Cache")]).toEqual(["MISS", "HIT"]);
      expect(sameFor(kept)).toEqual(sameFor(rendered));
      expect(await kept.text()).toBe(await rendered.text());
      expect(kept.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(kept.headers.get("Content-Security-Policy")).toBeTruthy();
    }
    // A content's address answers HTML or Markdown: a shared cache is told so by the kept page too.
    expect((await sitePage(slug, "/harbour-reopens")).headers.get("Vary")).toBe("Cookie, Accept, Accept-Encoding");
    expect((await sitePage(slug, "/")).headers.get("Vary")).toBe("Cookie, Accept-Encoding");
  });

  it("is sent gzipped as kept to a caller that takes gzip, and plain to one that takes Brotli too, refuses gzip or names no coding", async () => {
    const plain = await sitePage(slug, "/");
    const html = await plain.text();
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    for (const acceptEncoding of ["gzip, deflate", "gzip", "identity, gzip", "br;q=0.5, gzip"]) {
      const gzipped = await sitePage(slug, "/", { headers: { "Accept-Encoding": acceptEncoding } });
      expect([gzipped.headers.get("Content-Encoding"), gzipped.headers.get("X-Cache")]).toEqual(["gzip", "HIT"]);
      // Compressed once: the runtime's decoding gives the page, not gzip's bytes again.
      expect(await gzipped.text()).toBe(html);
      // Another representation, so another validator; either one says a copy is current.
      expect(gzipped.headers.get("ETag")).toBe(`${plain.headers.get("ETag")!.slice(0, -1)}-gzip"`);
      for (const etag of [gzipped.headers.get("ETag")!, plain.headers.get("ETag")!]) {
        const revalidated = await sitePage(slug, "/", { headers: { "Accept-Encoding": acceptEncoding, "If-None-Match": etag } });
        expect(revalidated.status).toBe(304);
      }
    }
    // A browser takes Brotli, which the edge compresses smaller than gzip: it gets the plain bytes to compress.
    for (const acceptEncoding of ["identity", "gzip;q=0, identity", "gzip;q=0.5, identity", "br", "gzip, deflate, br, zstd", "*", "*;q=0"]) {
      const refused = await sitePage(slug, "/", { headers: { "Accept-Encoding": acceptEncoding } });
      expect([refused.headers.get("Content-Encoding"), refused.headers.get("ETag")]).toEqual([null, plain.headers.get("ETag")]);
      expect(await refused.text()).toBe(html);
    }
  });

  it("answers a browser's If-None-Match with 304, and HEAD without a body", async () => {
    const etag = (await sitePage(slug, "/")).headers.get("ETag")!;
    const revalidated = await sitePage(slug, "/", { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    await sitePage(slug, "/", { method: "HEAD" });
    const head = await sitePage(slug, "/", { method: "HEAD" });
    expect([head.status, head.headers.get("X-Cache"), await head.text()]).toEqual([200, "HIT", ""]);
  });

  it("gives way to a caller that prefers Markdown at the same address", async () => {
    await sitePage(slug, "/harbour-reopens");
    const markdown = await sitePage(slug, "/harbour-reopens", { headers: { Accept: "text/markdown" } });
    expect(markdown.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toContain("The **harbour** is open.");
  });

  it("gives way to a reader whose cookie opens a draft's preview", async () => {
    await sitePage(slug, "/");
    const link = await admin("POST", `/tenants/${tenant.tenantId}/contents/${draftId}/preview-link`, tenant.session);
    const address = new URL((await link.json<{ data: { url: string } }>()).data.url);
    const opened = await sitePage(slug, `${address.pathname}${address.search}`, { redirect: "manual" });
    const cookie = opened.headers.get("Set-Cookie")!.split(";")[0]!;
    const home = await sitePage(slug, "/", { headers: { Cookie: `theme=dark; ${cookie}` } });
    expect(home.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await home.text()).toContain("Leave the preview");
    // Another cookie of the reader's opens nothing: the kept page.
    expect((await sitePage(slug, "/", { headers: { Cookie: "theme=dark" } })).headers.get("X-Cache")).toBe("HIT");
  });

  it("is not answered past a redirect written after it was kept", async () => {
    await sitePage(slug, "/harbour-reopens");
    expect((await sitePage(slug, "/harbour-reopens")).headers.get("X-Cache")).toBe("HIT");
    const written = await admin("PUT", `/tenants/${tenant.tenantId}/redirects`, tenant.session, {
      siteId: tenant.siteId,
      fromPath: "/harbour-reopens",
      toUrl: "/",
    });
    expect(written.status).toBe(200);
    const moved = await sitePage(slug, "/harbour-reopens", { redirect: "manual" });
    expect([moved.status, moved.headers.get("Location")]).toEqual([301, "/"]);
  });

  it("counts the ads it shows at every view", async () => {
    const created = await admin("POST", `/tenants/${tenant.tenantId}/ads`, tenant.session, {
      siteId: tenant.siteId,
      kind: "html",
      slot: "sidebar",
      html: "<b>Sale</b>",
      link: "https://shop.example/",
      startsAt: "2026-01-01T00:00:00Z",
    });
    const adId = (await created.json<{ data: { id: number } }>()).data.id;
    const impressions = async () =>
      (await env.DB.prepare("SELECT impressions FROM ad_stats WHERE ad_id = ?").bind(adId).first<{ impressions: number }>())?.impressions ?? 0;
    await sitePage(slug, "/");
    const before = await impressions();
    const views = await Promise.all([1, 2, 3].map(() => sitePage(slug, "/")));
    expect(views.map((view) => view.headers.get("X-Cache"))).toEqual(["HIT", "HIT", "HIT"]);
    await expect.poll(impressions).toBe(before + 3);
  });
});
