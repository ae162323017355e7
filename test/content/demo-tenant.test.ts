import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/platform/database";
import { createDemoTenant } from "../../seed/content-demo";
import { createUser, uniqueTag } from "../helpers/accounts";
import { headless } from "../helpers/content";

describe("the demo tenant of npm run dev and tenants:create --demo", () => {
  it("fills one site with a category tree, a dozen stories in two languages and an About page, a main and a footer menu in each language, a posts tag and an ad, readable with its key", async () => {
    const owner = await createUser();
    const slug = `demo-${uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")}`;
    const demo = await createDemoTenant(database(env), owner.id, { name: "Demo", slug, demo: true });
    expect(demo).toMatchObject({ siteSlug: slug, token: expect.stringMatching(/^svc_tk_/) });
    const list = await (
      await headless(`/api/mcp/contents?siteId=${demo.siteId}&size=100`, demo.token)
    ).json<{
      data: { total: number; items: { language: string }[] };
    }>();
    expect(list.data.total).toBe(13);
    expect(new Set(list.data.items.map((i) => i.language))).toEqual(new Set(["en", "de"]));
    const tree = await (
      await headless(`/api/mcp/categories/tree?siteId=${demo.siteId}`, demo.token)
    ).json<{
      data: { slug: string; children: { slug: string }[] }[];
    }>();
    expect(tree.data.map((c) => c.slug)).toEqual(["city", "culture", "sport"]);
    expect(tree.data[2]!.children.map((c) => c.slug)).toEqual(["football"]);
    const info = await (
      await headless(`/api/mcp/site/info?siteId=${demo.siteId}`, demo.token)
    ).json<{
      data: { menus: { code: string; items: unknown[] }[] };
    }>();
    expect(info.data.menus.map((m) => m.code).sort()).toEqual(["footer", "footer.de", "main", "main.de"]);
    expect(info.data.menus).toContainEqual({
      code: "main",
      items: expect.arrayContaining([{ label: "About", link: { content: expect.any(Number) } }]),
    });
    expect(info.data.menus).toContainEqual({
      code: "main.de",
      items: expect.arrayContaining([{ label: "Kultur", link: { category: expect.any(Number) } }]),
    });
    const { results } = await env.DB.prepare("SELECT type, name FROM content_tags WHERE site_id = ? ORDER BY name").bind(demo.siteId).all();
    expect(results).toEqual([
      { type: "menu", name: "footer" },
      { type: "menu", name: "footer.de" },
      { type: "posts", name: "latest-culture" },
      { type: "menu", name: "main" },
      { type: "menu", name: "main.de" },
    ]);
    const ads = await env.DB.prepare("SELECT kind, slot, language FROM ads WHERE site_id = ? ORDER BY id").bind(demo.siteId).all();
    expect(ads.results).toEqual([
      { kind: "html", slot: "sidebar", language: "en" },
      { kind: "html", slot: "sidebar", language: "de" },
    ]);
  });

  it("makes an empty site without --demo", async () => {
    const owner = await createUser();
    const slug = `empty-${uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")}`;
    const plain = await createDemoTenant(database(env), owner.id, { name: "Empty", slug, demo: false });
    const list = await (await headless(`/api/mcp/contents?siteId=${plain.siteId}`, plain.token)).json<{ data: { total: number } }>();
    expect(list.data.total).toBe(0);
  });
});
