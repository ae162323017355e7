import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDemoTenant, type DemoTenant } from "../../seed/content-demo";
import { LLMS_TXT_CONTENTS } from "../../src/content/sites/markdown-pages";
import { database } from "../../src/platform/database";
import { createUser, uniqueTag } from "../helpers/accounts";
import { createTestTenant, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

let demo: DemoTenant;
let other: TestTenant;
let otherSlug: string;
beforeAll(async () => {
  const owner = await createUser();
  const slug = `demo-${uniqueTag()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")}`;
  demo = await createDemoTenant(database(env), owner.id, { name: "City Gazette", slug, demo: true });
  await installDefaultTheme(demo.siteId);
  other = await createTestTenant();
  otherSlug = await siteSlug(other.siteId);
  await installDefaultTheme(other.siteId);
});
afterEach(() => vi.useRealTimers());

describe("/llms.txt of a tenant site", () => {
  it("names the site, sums it up and lists its contents by section and language, each linked to its Markdown version", async () => {
    const answer = await sitePage(demo.siteSlug, "/llms.txt");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const text = await answer.text();
    const origin = `https://${demo.siteSlug}.localhost`;
    expect(text.split("\n").slice(0, 3)).toEqual(["# City Gazette", "", "> City Gazette: news from the city"]);
    const headings = text.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## City",
      "## Culture",
      "## Sport",
      "## Sport / Football",
      "## Other contents",
      "## Stadt (Deutsch)",
      "## Kultur (Deutsch)",
      "## Sport / Fußball (Deutsch)",
      "## Optional",
    ]);
    expect(text).toContain(
      `- [The old harbour reopens after two years of works](${origin}/harbour-reopens.md): New quays, a ferry stop and a market hall: the waterfront is open again.`,
    );
    expect(text).toContain(`(${origin}/de/hafen-wieder-offen.md)`);
    expect(text).toContain(`(${origin}/about.md)`);
    expect(text).toContain(`- [Sitemap](${origin}/sitemap.xml)`);
    // Every listed address answers its content's Markdown.
    const links = [...text.matchAll(/\]\((https:[^)]+\.md)\)/g)].map((m) => new URL(m[1]!).pathname);
    expect(links).toHaveLength(13);
    const german = await sitePage(demo.siteSlug, links.find((path) => path.startsWith("/de/")) ?? "/de/");
    expect(german.status).toBe(200);
    expect(await german.text()).toContain('language: "de"');
  });

  it("is cached like the pages: the second read is a hit with the same ETag", async () => {
    const first = await sitePage(demo.siteSlug, "/llms.txt");
    const second = await sitePage(demo.siteSlug, "/llms.txt");
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(second.headers.get("Cache-Control")).toBe("public, no-cache");
  });

  it("never lists drafts, trashed contents or another tenant's contents", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await seedContent(own, { title: "Open to all" });
    await seedContent(own, { title: "Still a draft", publishAt: null });
    const trashed = await seedContent(own, { title: "Thrown away" });
    await env.DB.prepare("UPDATE contents SET deleted_at = ? WHERE id = ?").bind(new Date().toISOString(), trashed).run();
    await seedContent(other, { title: "Of another tenant" });
    const text = await (await sitePage(ownSlug, "/llms.txt")).text();
    expect(text).toContain("[Open to all]");
    for (const hidden of ["Still a draft", "Thrown away", "Of another tenant"]) expect(text).not.toContain(hidden);
  });

  it(`lists at most the ${LLMS_TXT_CONTENTS} newest contents of a site that holds more, and says where the rest are`, async () => {
    const big = await createTestTenant();
    const bigSlug = await siteSlug(big.siteId);
    // One statement for many rows: the bound is on the list, not on how the site was filled.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO contents (tenant_id, site_id, title, slug, language, status, publish_at)
       SELECT ?, ?, 'Bulk ' || i, 'bulk-' || i, 'en', 'published', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' minutes') FROM n`,
    )
      .bind(LLMS_TXT_CONTENTS + 20, big.tenantId, big.siteId)
      .run();
    const text = await (await sitePage(bigSlug, "/llms.txt")).text();
    expect(text.split("\n").filter((line) => line.startsWith("- [Bulk "))).toHaveLength(LLMS_TXT_CONTENTS);
    expect(text).toContain("[Bulk 1]");
    expect(text).not.toContain(`[Bulk ${LLMS_TXT_CONTENTS + 1}]`);
    expect(text).toContain(`This list holds the ${LLMS_TXT_CONTENTS} newest contents; https://${bigSlug}.localhost/sitemap.xml lists them all.`);
  });
});

describe("the Markdown version of a content page", () => {
  it("answers `/<slug>.md` with front matter, the title and the body as written, its links made absolute and its code left alone", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await seedContent(own, {
      title: "Ferry timetable",
      tags: ["transport"],
      bodyMarkdown: [
        "The **new** timetable, with [the city map](/c/city), [the next stop](night-buses) and [a guide](https://example.com/guide).",
        "",
        "![The pier](/media/1/2/pier.jpg) and [the form][form], `[not a link](/kept)`.",
        "",
        "```",
        "[inside code](/kept-too)",
        "```",
        "",
        "[form]: /forms/ferry",
      ].join("\n"),
    });
    const answer = await sitePage(ownSlug, "/ferry-timetable.md");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    const origin = `https://${ownSlug}.localhost`;
    const text = await answer.text();
    expect(text).toMatch(/^---\ntitle: "Ferry timetable"\ndescription: "About Ferry timetable"\n/);
    expect(text).toContain(`url: "${origin}/ferry-timetable"\nlanguage: "en"\n`);
    expect(text).toContain('tags: ["transport"]\n---\n\n# Ferry timetable\n\nAbout Ferry timetable\n\nThe **new** timetable');
    expect(text).toContain(`[the city map](${origin}/c/city), [the next stop](${origin}/night-buses) and [a guide](https://example.com/guide)`);
    expect(text).toContain(`![The pier](${origin}/media/1/2/pier.jpg)`);
    expect(text).toContain(`[form]: ${origin}/forms/ferry`);
    expect(text).toContain("`[not a link](/kept)`");
    expect(text).toContain("```\n[inside code](/kept-too)\n```");
  });

  it("answers the page's own address as Markdown to `Accept: text/markdown` and as HTML to a browser, both varying on Accept", async () => {
    const markdown = await sitePage(demo.siteSlug, "/harbour-reopens", { headers: { Accept: "text/markdown" } });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("Vary")).toBe("Cookie, Accept");
    const text = await markdown.text();
    expect(text).toContain("# The old harbour reopens after two years of works");
    expect(text).toContain("the **old harbour** is open again.\n\n- a ferry stop with boats every 20 minutes");
    expect(text).toBe(await (await sitePage(demo.siteSlug, "/harbour-reopens.md")).text());
    const preferred = await sitePage(demo.siteSlug, "/harbour-reopens", { headers: { Accept: "text/markdown, text/html;q=0.5" } });
    expect(preferred.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");

    const html = await sitePage(demo.siteSlug, "/harbour-reopens", { headers: { Accept: BROWSER_ACCEPT } });
    expect(html.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(html.headers.get("Vary")).toBe("Cookie, Accept, Accept-Encoding");
    expect(await html.text()).toContain("<html");
  });

  it("is cached like the page, the Markdown and the HTML of one address kept apart", async () => {
    const ask = (accept: string) => sitePage(demo.siteSlug, "/night-buses", { headers: { Accept: accept } });
    await ask("text/markdown");
    const hit = await ask("text/markdown");
    expect(hit.headers.get("X-Cache")).toBe("HIT");
    expect(hit.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect((await ask(BROWSER_ACCEPT)).headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect((await sitePage(demo.siteSlug, "/night-buses.md")).headers.get("X-Cache")).toBe("MISS");
    expect((await sitePage(demo.siteSlug, "/night-buses.md")).headers.get("X-Cache")).toBe("HIT");
  });

  it("answers each language's contents under its prefix, and no content in another language's place", async () => {
    expect((await sitePage(demo.siteSlug, "/de/hafen-wieder-offen.md")).status).toBe(200);
    expect((await sitePage(demo.siteSlug, "/de/harbour-reopens.md")).status).toBe(404);
    expect((await sitePage(demo.siteSlug, "/hafen-wieder-offen.md")).status).toBe(404);
    expect((await sitePage(demo.siteSlug, "/fr/harbour-reopens.md")).status).toBe(404);
  });

  it("tells a content whose slug ends in `md` from the Markdown of another", async () => {
    await seedContent(other, { title: "Notes", bodyMarkdown: "Plain notes." });
    await seedContent(other, { title: "Notes md", bodyMarkdown: "Notes about Markdown." });
    const page = await sitePage(otherSlug, "/notes-md", { headers: { Accept: BROWSER_ACCEPT } });
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("Notes about Markdown.");
    expect(await (await sitePage(otherSlug, "/notes.md")).text()).toContain("Plain notes.");
    expect(await (await sitePage(otherSlug, "/notes-md.md")).text()).toContain("Notes about Markdown.");
    expect((await sitePage(otherSlug, "/notes.md.md")).status).toBe(404);
  });

  it("never answers a draft, a trashed content or another tenant's content, whatever is asked", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await seedContent(own, { title: "Secret plans", publishAt: null });
    const trashed = await seedContent(own, { title: "Binned story" });
    await env.DB.prepare("UPDATE contents SET deleted_at = ? WHERE id = ?").bind(new Date().toISOString(), trashed).run();
    await seedContent(other, { title: "Neighbour story" });
    for (const slug of ["secret-plans", "binned-story", "neighbour-story"]) {
      const md = await sitePage(ownSlug, `/${slug}.md`);
      expect(md.status, slug).toBe(404);
      expect(md.headers.get("Cache-Control")).toBe("private, no-store");
      expect(await md.text()).not.toContain(slug.split("-")[0]);
      const negotiated = await sitePage(ownSlug, `/${slug}`, { headers: { Accept: "text/markdown" } });
      expect(negotiated.status, slug).toBe(404);
    }
    // The other tenant's content is its own site's.
    expect((await sitePage(otherSlug, "/neighbour-story.md")).status).toBe(200);
  });

  it("shows a scheduled content in /llms.txt and as Markdown at its time, not before", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    vi.useFakeTimers({ toFake: ["Date"] });
    const at = new Date(Date.now() + 40_000);
    await seedContent(own, { title: "Tram line opens", publishAt: at.toISOString() });
    for (let i = 0; i < 2; i++) {
      expect(await (await sitePage(ownSlug, "/llms.txt")).text()).not.toContain("Tram line opens");
      expect((await sitePage(ownSlug, "/tram-line-opens.md")).status).toBe(404);
    }
    expect((await sitePage(ownSlug, "/llms.txt")).headers.get("X-Cache")).toBe("HIT");
    vi.setSystemTime(at.getTime());
    const listed = await sitePage(ownSlug, "/llms.txt");
    expect(listed.headers.get("X-Cache")).toBe("MISS");
    expect(await listed.text()).toContain(`[Tram line opens](https://${ownSlug}.localhost/tram-line-opens.md)`);
    expect((await sitePage(ownSlug, "/tram-line-opens.md")).status).toBe(200);
  });
});
