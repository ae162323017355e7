import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { admin, createTestTenant, headless, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await seedContent(tenant, { title: "Already out" });
  await installDefaultTheme(tenant.siteId);
});
afterEach(() => vi.useRealTimers());

describe("cached answers and scheduled contents", () => {
  it("lists a scheduled content on the cached home page and in C1 at its time, not minutes later", async () => {
    const at = new Date(Date.now() + 5 * 60_000);
    await seedContent(tenant, { title: "Night trains return", publishAt: at.toISOString() });
    // Both answers are cached before the time comes, without the scheduled content.
    for (let i = 0; i < 2; i++) {
      expect(await (await sitePage(slug, "/")).text()).not.toContain("Night trains return");
      expect(await (await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token)).text()).not.toContain("Night trains return");
    }
    expect((await sitePage(slug, "/")).headers.get("X-Cache")).toBe("HIT");
    // One second past its time, with nothing else changed on the site (and past the isolate's site cache).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at.getTime() + 11_000);
    const home = await sitePage(slug, "/");
    expect(await home.text()).toContain("Night trains return");
    expect(home.headers.get("X-Cache")).toBe("MISS");
    expect(await (await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token)).text()).toContain("Night trains return");
    // And the new answer is cached in turn.
    expect((await sitePage(slug, "/")).headers.get("X-Cache")).toBe("HIT");
  });

  it("lets no browser keep a page, feed, sitemap or C1 answer past the site's next scheduled time", async () => {
    // A site of its own: another scheduled content would set its own moment.
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await installDefaultTheme(own.siteId);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const at = new Date(start + 40_000);
    const title = "Harbour ferries at dawn";
    await seedContent(own, { title, publishAt: at.toISOString() });
    const paths = ["/", "/feed.xml", "/atom.xml", "/sitemap-contents.xml"];
    // Asked for (and cached) 30 s before its time: kept 10 s at most, and not shown stale after.
    vi.setSystemTime(start + 30_000);
    for (const path of paths) {
      const before = await sitePage(ownSlug, path);
      expect(await before.text()).not.toContain(title);
      // A browser asks again at each view; the API's clients keep an answer no longer than the schedule allows.
      expect(before.headers.get("Cache-Control"), path).toBe("public, no-cache");
      expect((await sitePage(ownSlug, path)).headers.get("X-Cache"), path).toBe("HIT");
    }
    const list = await headless(`/api/mcp/contents?siteId=${own.siteId}`, own.token);
    expect(list.headers.get("Cache-Control")).toBe("private, max-age=10");
    // 100 s before it: a full minute fresh, and stale for the 40 s that are left.
    vi.setSystemTime(start - 60_000);
    expect((await headless(`/api/mcp/contents?siteId=${own.siteId}`, own.token)).headers.get("Cache-Control")).toBe(
      "private, max-age=60, stale-while-revalidate=40",
    );
    // At its time every one of them shows it, though nothing else changed on the site.
    vi.setSystemTime(at.getTime());
    for (const path of paths) {
      const after = await sitePage(ownSlug, path);
      expect(await after.text(), path).toContain(path === "/" ? title : "harbour-ferries-at-dawn");
      expect(after.headers.get("X-Cache"), path).toBe("MISS");
      expect(after.headers.get("Cache-Control"), path).toBe("public, no-cache");
    }
    // Its going live is its last change: the Atom entry is not updated before it was published, nor the feed.
    const atom = await (await sitePage(ownSlug, "/atom.xml")).text();
    const [, updated, published] = /<entry>.*?<updated>(.*?)<\/updated><published>(.*?)<\/published>/.exec(atom)!;
    expect(published).toBe(at.toISOString());
    expect(updated).toBe(published);
    expect(atom).toContain(`</id><updated>${published}</updated><entry>`);
  });

  it("tells members a scheduled content is published once its time has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = new Date(Date.now() + 60_000);
    const own = await createTestTenant();
    const id = await seedContent(own, { title: "Lighthouse open day", publishAt: at.toISOString() });
    const status = async () =>
      (await (await admin("GET", `/tenants/${own.tenantId}/contents/${id}`, own.session)).json<{ data: { status: string } }>()).data.status;
    const listed = async (filter: string) =>
      (
        await (
          await admin("GET", `/tenants/${own.tenantId}/contents?siteId=${own.siteId}&status=${filter}&size=100`, own.session)
        ).json<{
          data: { items: { id: number; status: string }[] };
        }>()
      ).data.items.filter((item) => item.id === id);
    expect(await status()).toBe("scheduled");
    expect(await listed("scheduled")).toEqual([expect.objectContaining({ status: "scheduled" })]);
    expect(await listed("published")).toEqual([]);
    vi.setSystemTime(at.getTime() + 1000);
    expect(await status()).toBe("published");
    expect(await listed("scheduled")).toEqual([]);
    expect(await listed("published")).toEqual([expect.objectContaining({ status: "published" })]);
  });

  it("shows a new redirect, menu item or list entry on the next request, though pages keep the site's data in memory", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await installDefaultTheme(own.siteId);
    await seedContent(own, { title: "First ferry" });
    // Two renders under the same version (the second address differs by a parameter the page ignores): the site's data is read once.
    expect(await (await sitePage(ownSlug, "/")).text()).toContain("First ferry");
    expect((await sitePage(ownSlug, "/?utm_source=test")).headers.get("X-Cache")).toBe("MISS");
    expect((await sitePage(ownSlug, "/old-path")).status).toBe(404);
    const put = (path: string, body: unknown) => admin("PUT", `/tenants/${own.tenantId}${path}`, own.session, body);
    expect((await put("/redirects", { siteId: own.siteId, fromPath: "/old-path", toUrl: "/first-ferry" })).status).toBeLessThan(300);
    expect(
      (
        await put("/tags", {
          siteId: own.siteId,
          type: "menu",
          name: "main",
          definition: { items: [{ label: "Timetable", link: { url: "/timetable" } }] },
        })
      ).status,
    ).toBeLessThan(300);
    await seedContent(own, { title: "Second ferry" });
    expect((await sitePage(ownSlug, "/old-path", { redirect: "manual" })).headers.get("Location")).toBe("/first-ferry");
    const home = await (await sitePage(ownSlug, "/?utm_source=test")).text();
    expect(home).toContain("Timetable");
    expect(home).toContain("Second ferry");
  });

  it("gives pages an ETag and answers 304 to a reader who has the page", async () => {
    const first = await sitePage(slug, "/already-out");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"v\d+s\d+t[0-9a-f]+-[0-9a-f]{16}"$/);
    // Asked again at each view, so that an unpublished content is gone from the reader's next page.
    expect(first.headers.get("Cache-Control")).toBe("public, no-cache");
    const again = await sitePage(slug, "/already-out", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("keeps the site's cached pages while an editor writes a draft, and renews them when a published content changes", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await installDefaultTheme(own.siteId);
    const published = await seedContent(own, { title: "Quay market opens" });
    const base = `/tenants/${own.tenantId}/contents`;
    const cachedHome = async () => (await sitePage(ownSlug, "/")).headers.get("X-Cache");
    await sitePage(ownSlug, "/");
    expect(await cachedHome()).toBe("HIT");

    // A new draft, a save and two autosaves of it: readers see none of it, so nothing is purged.
    const created = await admin("POST", base, own.session, {
      siteId: own.siteId,
      title: "Half-written notes",
      slug: "half-written-notes",
      language: "en",
    });
    expect(created.status).toBe(201);
    const draft = (await created.json<{ data: { id: number } }>()).data.id;
    expect((await admin("PATCH", `${base}/${draft}`, own.session, { bodyMarkdown: "First lines." })).status).toBe(200);
    for (const text of ["First lines, more.", "First lines, more and more."])
      expect((await admin("PUT", `${base}/${draft}/autosave`, own.session, { bodyMarkdown: text })).status).toBe(200);
    expect(await cachedHome()).toBe("HIT");
    expect(await (await sitePage(ownSlug, "/")).text()).not.toContain("Half-written notes");

    // A published content's new title is on the home page at the next request.
    expect((await admin("PATCH", `${base}/${published}`, own.session, { title: "Quay market opens early" })).status).toBe(200);
    const home = await sitePage(ownSlug, "/");
    expect(home.headers.get("X-Cache")).toBe("MISS");
    expect(await home.text()).toContain("Quay market opens early");
    // Its move to the Trash takes it off the cached page too.
    expect(await cachedHome()).toBe("HIT");
    expect((await admin("DELETE", `${base}/${published}`, own.session)).status).toBe(200);
    expect(await (await sitePage(ownSlug, "/")).text()).not.toContain("Quay market opens early");
  });
});
