import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDemoTenant } from "../../seed/content-demo";
import { users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { eq } from "drizzle-orm";
import { createUser, uniqueTag } from "../helpers/accounts";
import { createTestTenant, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

/** A theme that prints what lists and content pages read, to see the context as templates get it. */
const CONTEXT_THEME = {
  "layouts/base.html.j2": "{% block main %}{% endblock %}",
  "templates/index.html.j2": "{{ contents | tojson }}",
  "templates/tag.html.j2": "{{ contents | tojson }}",
  "templates/search.html.j2": "{{ contents | tojson }}",
  "templates/category.html.j2": "{{ contents | tojson }}",
  "templates/content.html.j2": "{{ content | tojson }}",
  "templates/404.html.j2": "not found",
};

interface ReaderItem {
  title: string;
  author: { name: string } | null;
  readingMinutes: number;
  tags: string[];
  tagLinks: { name: string; url: string }[];
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

let tenant: TestTenant;
let slug: string;
const long = `Long read ${uniqueTag()}`;
const short = `Short note ${uniqueTag()}`;

beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await database(env).update(users).set({ fullName: "Ada Reader" }).where(eq(users.id, tenant.ownerId));
  // 700 words in paragraphs: blank lines between them are no words.
  await seedContent(tenant, { title: long, bodyMarkdown: [words(300), words(300), words(100)].join("\n\n"), tags: ["harbour", "café & bar"] });
  await seedContent(tenant, { title: short, bodyMarkdown: "" });
  await installDefaultTheme(tenant.siteId, CONTEXT_THEME);
});

describe("what the default theme's lists and content pages read about each content", () => {
  it("gives every listed content its author's name, its reading time and links to its tags", async () => {
    const list = await (await sitePage(slug)).json<ReaderItem[]>();
    const longItem = list.find((item) => item.title === long)!;
    expect(longItem).toMatchObject({
      author: { name: "Ada Reader" },
      readingMinutes: 4,
      tags: ["harbour", "café & bar"],
      tagLinks: [
        { name: "harbour", url: "/tag/harbour" },
        { name: "café & bar", url: "/tag/caf%C3%A9-%26-bar" },
      ],
    });
    expect(list.find((item) => item.title === short)).toMatchObject({ readingMinutes: 1, tagLinks: [] });
    for (const path of ["/tag/harbour", `/search?q=${encodeURIComponent(long)}`]) {
      const found = (await (await sitePage(slug, path)).json<ReaderItem[]>()).find((item) => item.title === long);
      expect(found, path).toMatchObject({ author: { name: "Ada Reader" }, readingMinutes: 4 });
    }
  });

  it("gives a content page the same author, reading time and tag links", async () => {
    const content = await (await sitePage(slug, `/${slugOf(long)}`)).json<ReaderItem>();
    expect(content).toMatchObject({
      author: { name: "Ada Reader" },
      readingMinutes: 4,
      tagLinks: [{ name: "harbour", url: "/tag/harbour" }, expect.anything()],
    });
  });

  it("never shows an email address as the author's name", async () => {
    const other = await createTestTenant();
    const otherSlug = await siteSlug(other.siteId);
    await database(env).update(users).set({ fullName: "writer@example.com" }).where(eq(users.id, other.ownerId));
    const title = `Mailed ${uniqueTag()}`;
    await seedContent(other, { title });
    await installDefaultTheme(other.siteId, CONTEXT_THEME);
    const list = await (await sitePage(otherSlug)).json<ReaderItem[]>();
    expect(list.find((item) => item.title === title)).toMatchObject({ author: null });
    const html = await (await sitePage(otherSlug, `/${slugOf(title)}`)).text();
    expect(html).not.toContain("writer@example.com");
  });
});

describe("the demo site's menus", () => {
  it("links only to pages that answer 200, the About page included", async () => {
    const owner = await createUser();
    const demoSlug = `demo-${uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")}`;
    const demo = await createDemoTenant(database(env), owner.id, { name: "Demo", slug: demoSlug, demo: true });
    await installDefaultTheme(demo.siteId);
    const home = (await (await sitePage(demoSlug)).text()).replaceAll("&#x2f;", "/");
    const menus = [...home.matchAll(/<nav class="(site-nav|footer-nav)"[\s\S]*?<\/nav>/g)].map((m) => m[0]).join("");
    const links = [...menus.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toEqual(["/c/city", "/c/culture", "/c/sport", "/c/football", "/about", "/about", "/search", "/tag/transport"]);
    for (const link of links) expect((await sitePage(demoSlug, link)).status, link).toBe(200);
    expect(await (await sitePage(demoSlug, "/about")).text()).toContain("About Demo");
    // The German pages' menus lead to German pages, the footer's too.
    const german = (await (await sitePage(demoSlug, "/de/")).text()).replaceAll("&#x2f;", "/");
    const germanMenus = [...german.matchAll(/<nav class="(site-nav|footer-nav)"[\s\S]*?<\/nav>/g)].map((m) => m[0]).join("");
    const germanLinks = [...germanMenus.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(germanLinks).toEqual(["/de/c/city", "/de/c/culture", "/de/c/sport", "/de/c/football", "/de/search", "/de/tag/verkehr"]);
    for (const link of germanLinks) expect((await sitePage(demoSlug, link)).status, link).toBe(200);
  });
});
