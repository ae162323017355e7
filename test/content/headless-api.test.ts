import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createCategory } from "../../src/content/admin/categories";
import { putContentTag } from "../../src/content/admin/tags";
import { database } from "../../src/platform/database";
import { admin, createTestTenant, headless, ownerScope, seedContent, tenantKey, type TestTenant } from "../helpers/content";

type Item = { id: number; title: string; publishAt: string; language: string; tags: string[]; categoryIds: number[] };
type Page = { items: Item[]; total: number; page: number; size: number };

async function read<T>(path: string, token: string, headers: Record<string, string> = {}) {
  const res = await headless(path, token, headers);
  const body = res.status === 304 ? null : await res.json<{ success: boolean; data: T; error?: { code: string; message: string } }>();
  return { res, body };
}

let tenant: TestTenant;
let news: number;
let sport: number;
let football: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  tenant = await createTestTenant();
  const scope = ownerScope(tenant);
  const db = database(env);
  news = (await createCategory(db, scope, { siteId: tenant.siteId, name: "News", slug: "news" })).id;
  sport = (await createCategory(db, scope, { siteId: tenant.siteId, name: "Sport", slug: "sport", position: 1 })).id;
  football = (await createCategory(db, scope, { siteId: tenant.siteId, parentId: sport, name: "Football", slug: "football" })).id;
  ids.old = await seedContent(tenant, { title: "Harbour reopens", categoryIds: [news], tags: ["city"], publishAt: "2026-01-10T08:00:00Z" });
  ids.match = await seedContent(tenant, { title: "Cup final tonight", categoryIds: [football], tags: ["cup"], publishAt: "2026-02-01T18:00:00Z" });
  ids.german = await seedContent(tenant, {
    title: "Pokalfinale heute",
    language: "de",
    categoryIds: [football],
    translationOf: ids.match,
    publishAt: "2026-02-01T18:05:00Z",
  });
  ids.draft = await seedContent(tenant, { title: "Unfinished draft", publishAt: null });
  ids.future = await seedContent(tenant, { title: "Next year preview", publishAt: "2099-01-01T00:00:00Z" });
  await putContentTag(db, scope, {
    siteId: tenant.siteId,
    type: "menu",
    name: "main",
    definition: {
      items: [
        { label: "News", link: { category: news } },
        { label: "Sport", link: { category: sport }, children: [{ label: "Football", link: { category: football } }] },
      ],
    },
  });
});

describe("C1 published contents", () => {
  it("lists the site's public contents newest first, with the interface's item fields", async () => {
    const { res, body } = await read<Page>(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token);
    expect(res.status).toBe(200);
    expect(body!.success).toBe(true);
    expect(body!.data).toMatchObject({ total: 3, page: 1, size: 20 });
    expect(body!.data.items.map((i) => i.id)).toEqual([ids.german, ids.match, ids.old]);
    expect(body!.data.items[2]).toMatchObject({
      title: "Harbour reopens",
      publishAt: "2026-01-10T08:00:00.000Z",
      tags: ["city"],
      categoryIds: [news],
    });
    expect(body!.data.items[2]).toHaveProperty("intro");
    expect(body!.data.items[2]).toHaveProperty("coverImages");
  });

  it("filters by a category with its descendants, by tag, by language and by words", async () => {
    const q = (query: string) =>
      read<Page>(`/api/mcp/contents?siteId=${tenant.siteId}&${query}`, tenant.token).then((r) => r.body!.data.items.map((i) => i.id));
    expect(await q(`categoryId=${sport}`)).toEqual([ids.german, ids.match]);
    expect(await q("tag=city")).toEqual([ids.old]);
    expect(await q("language=de")).toEqual([ids.german]);
    expect(await q("q=harbour")).toEqual([ids.old]);
    // A word's beginning finds it (a prefix index of three characters); fifty such beginnings, the most q holds, answer too.
    expect(await q("q=harb")).toEqual([ids.old]);
    const beginnings = Array.from({ length: 50 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}a`);
    expect(await q(`q=${encodeURIComponent(beginnings.join(" ").slice(0, 200))}`)).toEqual([]);
  });

  it("pages from 1 and caps the size at 100", async () => {
    const { body } = await read<Page>(`/api/mcp/contents?siteId=${tenant.siteId}&page=2&size=2`, tenant.token);
    expect(body!.data).toMatchObject({ page: 2, size: 2, total: 3 });
    expect(body!.data.items.map((i) => i.id)).toEqual([ids.old]);
    for (const [query, message] of <[string, string][]>[
      ["size=101", "size must be from 1 to 100"],
      ["page=0", "page must be from 1 to 100000"],
      ["categoryId=x", "categoryId must be an integer"],
      ["categoryId=99999999999999999999", "categoryId must be from 1 to 1000000000000"],
      ["limit=5", "The request does not take the parameter limit"],
      ["q=%22", "q must contain a letter or digit"],
      ["q=", "q must contain a letter or digit"],
    ]) {
      const res = await read<never>(`/api/mcp/contents?siteId=${tenant.siteId}&${query}`, tenant.token);
      expect(res.res.status, query).toBe(400);
      expect(res.body!.error).toEqual({
        code: "invalid_request",
        message: expect.stringContaining(message),
        fields: [expect.objectContaining({ field: expect.any(String) })],
      });
    }
    expect((await read<never>("/api/mcp/contents", tenant.token)).res.status).toBe(400);
  });

  it("answers 404 for a category of no site of the key", async () => {
    const { res, body } = await read<never>(`/api/mcp/contents?siteId=${tenant.siteId}&categoryId=999999`, tenant.token);
    expect(res.status).toBe(404);
    expect(body).toEqual({ success: false, error: { code: "not_found", message: `No category with id 999999 in site ${tenant.siteId}` } });
  });
});

describe("C2 one content", () => {
  it("answers the body HTML, categories, SEO and translations", async () => {
    const { res, body } = await read<Record<string, unknown>>(`/api/mcp/contents/${ids.match}`, tenant.token);
    expect(res.status).toBe(200);
    expect(body!.data).toMatchObject({
      id: ids.match,
      bodyHtml: "<h1>Cup final tonight</h1>\n<p>Text.</p>\n",
      categories: [{ id: football, name: "Football", slug: "football" }],
      seo: { title: "Cup final tonight", description: "About Cup final tonight", canonical: null, noindex: false },
      translations: [{ id: ids.german, language: "de", title: "Pokalfinale heute" }],
    });
  });

  it("refuses a query parameter it does not take (siteId, a misspelt one) rather than ignore it", async () => {
    for (const name of ["siteId", "langauge"]) {
      const { res, body } = await read<never>(`/api/mcp/contents/${ids.match}?${name}=1`, tenant.token);
      expect(res.status).toBe(400);
      expect(body!.error).toEqual({
        code: "invalid_request",
        message: `The request does not take the parameter ${name}`,
        fields: [{ field: name, message: `The request does not take the parameter ${name}` }],
      });
    }
  });

  it.each(["draft", "future"])("answers 404 for a %s content", async (which) => {
    const { res, body } = await read<never>(`/api/mcp/contents/${ids[which]}`, tenant.token);
    expect(res.status).toBe(404);
    expect(body!.error?.code).toBe("not_found");
  });

  it("shows a scheduled content once its time has passed, with no job run", async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const id = await seedContent(tenant, { title: "Scheduled soon", publishAt: soon });
    expect((await headless(`/api/mcp/contents/${id}`, tenant.token)).status).toBe(404);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 1600);
      expect((await headless(`/api/mcp/contents/${id}`, tenant.token)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("C3 and C4", () => {
  it("C3 answers the category tree, each level in its order", async () => {
    const { body } = await read<{ id: number; slug: string; children: { slug: string }[] }[]>(
      `/api/mcp/categories/tree?siteId=${tenant.siteId}`,
      tenant.token,
    );
    expect(body!.data.map((c) => c.slug)).toEqual(["news", "sport"]);
    expect(body!.data[1]!.children.map((c) => c.slug)).toEqual(["football"]);
  });

  it("C4 answers the site with its languages, SEO defaults and menus", async () => {
    const { body } = await read<Record<string, unknown>>(`/api/mcp/site/info?siteId=${tenant.siteId}`, tenant.token);
    expect(body!.data).toMatchObject({
      id: tenant.siteId,
      defaultLanguage: "en",
      languages: ["en", "de"],
      seo: { titlePattern: "{title} · {site}" },
    });
    expect(body!.data.menus).toEqual([
      {
        code: "main",
        items: [
          { label: "News", link: { category: news } },
          { label: "Sport", link: { category: sport }, children: [{ label: "Football", link: { category: football } }] },
        ],
      },
    ]);
  });
});

describe("C1-C4 tenancy", () => {
  it("answers 404, never 403 or a row, for a site or content of another tenant", async () => {
    const other = await createTestTenant();
    for (const path of [
      `/api/mcp/contents?siteId=${tenant.siteId}`,
      `/api/mcp/contents/${ids.match}`,
      `/api/mcp/categories/tree?siteId=${tenant.siteId}`,
      `/api/mcp/site/info?siteId=${tenant.siteId}`,
    ]) {
      const { res, body } = await read<never>(path, other.token);
      expect(res.status, path).toBe(404);
      expect(body!.success).toBe(false);
    }
  });

  it("tells a caller who sent a data-service key that it takes a tenant key", async () => {
    const { res, body } = await read(`/api/mcp/contents?siteId=${tenant.siteId}`, `svc_sk_${"A".repeat(40)}`);
    expect(res.status).toBe(401);
    expect(body!.error).toEqual({
      code: "unauthorized",
      message:
        "A data-service key (svc_sk_…) is not a tenant key: the content API takes a tenant's key (svc_tk_…), made under API keys in the console",
    });
  });

  it("keeps a key bound to some sites to those sites", async () => {
    const scope = ownerScope(tenant);
    const { createSite, sitesRoomOf } = await import("../../src/content/admin/sites");
    const second = await createSite(database(env), scope, { name: "Second", slug: `second-${tenant.siteId}` }, sitesRoomOf(env));
    const bound = await tenantKey(tenant, { siteIds: [second.id] });
    expect((await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, bound)).status).toBe(404);
    expect((await headless(`/api/mcp/contents/${ids.match}`, bound)).status).toBe(404);
    expect((await headless(`/api/mcp/contents?siteId=${second.id}`, bound)).status).toBe(200);
  });
});

describe("C1-C4 caching", () => {
  it("answers from the edge cache with an ETag, a 304 for a matching If-None-Match, and misses after a publish", async () => {
    const fresh = await createTestTenant();
    const path = `/api/mcp/contents?siteId=${fresh.siteId}&size=5`;
    const first = await headless(path, fresh.token);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    expect(first.headers.get("Cache-Control")).toBe("private, max-age=60, stale-while-revalidate=300");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"v\d+s\d+-[0-9a-f]{16}"$/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await headless(path, fresh.token);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(await second.json()).toEqual(await first.clone().json());
    const notModified = await headless(path, fresh.token, { "If-None-Match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("ETag")).toBe(etag);

    // A publish through the admin API bumps the site's version: the next read misses and shows it.
    const created = await admin("POST", `/tenants/${fresh.tenantId}/contents`, fresh.session, {
      siteId: fresh.siteId,
      title: "Breaking",
      slug: "breaking",
      language: "en",
    });
    const { data } = await created.json<{ data: { id: number } }>();
    expect((await admin("POST", `/tenants/${fresh.tenantId}/contents/${data.id}/publish`, fresh.session, {})).status).toBe(200);
    const after = await headless(path, fresh.token, { "If-None-Match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect((await after.json<{ data: Page }>()).data.items.map((i) => i.id)).toEqual([data.id]);
  });
});

describe("C1-C4 answers kept in the isolate", () => {
  it("sends a hot answer over a kilobyte gzipped, as kept, to a client that takes gzip alone", async () => {
    const fresh = await createTestTenant();
    const id = await seedContent(fresh, { title: "The long read", bodyMarkdown: "A paragraph of the long read. ".repeat(60) });
    const path = `/api/mcp/contents/${id}`;
    const plain = await headless(path, fresh.token);
    const json = await plain.text();
    expect(json.length).toBeGreaterThan(1024);
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    const gzipped = await headless(path, fresh.token, { "Accept-Encoding": "gzip" });
    expect([gzipped.headers.get("Content-Encoding"), gzipped.headers.get("X-Cache"), gzipped.headers.get("Vary")]).toEqual([
      "gzip",
      "HIT",
      "Accept-Encoding",
    ]);
    expect(await gzipped.text()).toBe(json);
  });
});

describe("C2 and the XSS set", () => {
  const payloads = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](vbscript:msgbox(1))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe src=javascript:alert(1)></iframe>",
    '<svg onload="alert(1)">',
    '![x](x" onerror="alert(1))',
    '<div style="background:url(javascript:alert(1))">',
    "<details open ontoggle=alert(1)>",
  ];

  it("renders none of them executable", async () => {
    const id = await seedContent(tenant, { title: "Hostile body", bodyMarkdown: payloads.join("\n\n") });
    const { body } = await read<{ bodyHtml: string }>(`/api/mcp/contents/${id}`, tenant.token);
    const html = body!.data.bodyHtml;
    // No element of the payloads survives as markup, no link leads to a script, no handler attribute.
    expect(html).not.toMatch(/<(script|iframe|svg|details|div|a href="javascript)/i);
    expect(html).not.toMatch(/<[^>]+\son\w+=/i);
    expect(html).not.toMatch(/href="(javascript|vbscript|data):/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("C1 by a tag as an address spells it", () => {
  it("finds a tag written in another case, with a dash for a space, or with letters beyond ASCII in another case, as the site's tag page does", async () => {
    const site = await createTestTenant();
    const night = await seedContent(site, { title: "After dark", tags: ["Night Life"] });
    const hours = await seedContent(site, { title: "Neue Zeiten", language: "de", tags: ["Öffnungszeiten"] });
    await seedContent(site, { title: "Harbour", tags: ["night"] });
    const q = (tag: string) =>
      read<Page>(`/api/mcp/contents?siteId=${site.siteId}&tag=${encodeURIComponent(tag)}`, site.token).then((r) =>
        r.body!.data.items.map((i) => i.id),
      );
    for (const asked of ["Night Life", "night-life", "NIGHT LIFE", "Night-Life"]) expect(await q(asked), asked).toEqual([night]);
    expect(await q("öffnungszeiten")).toEqual([hours]);
    // In a language whose contents do not carry it, none.
    expect(
      await read<Page>(`/api/mcp/contents?siteId=${site.siteId}&tag=night-life&language=de`, site.token).then((r) => r.body!.data.items.length),
    ).toBe(0);
    expect(await q("nightlife")).toEqual([]);
  });
});
