import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, memberWith, PIXEL_PNG, sitePage, type TestTenant, siteSlug } from "../helpers/content";
import { call } from "../helpers/requests";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
const PNG = PIXEL_PNG;

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant();
});

async function upload(bytes: Uint8Array, contentType: string, session = tenant.session, filename = "logo.png") {
  const res = await call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${tenant.siteId}&filename=${encodeURIComponent(filename)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${session}`, "Content-Type": contentType },
    body: bytes,
  });
  return { status: res.status, body: await res.json<Envelope<{ id: number; url: string; key: string; size: number; contentType: string }>>() };
}

async function send<T = Record<string, unknown>>(method: string, path: string, body?: unknown, session = tenant.session) {
  const res = await admin(method, `/tenants/${tenant.tenantId}${path}`, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

describe("media", () => {
  it("stores an upload in R2 under a random key, serves it as uploaded, lists it and deletes it", async () => {
    const { status, body } = await upload(PNG, "image/png");
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ size: PNG.byteLength, contentType: "image/png" });
    expect(body.data.url).toMatch(new RegExp(`^/media/${tenant.tenantId}/${tenant.siteId}/[0-9A-Za-z]{20}\\.png$`));
    expect(await env.MEDIA.head(body.data.key)).not.toBeNull();

    const served = await call(body.data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const listed = await send<{ id: number }[]>("GET", `/sites/${tenant.siteId}/media`);
    expect(listed.body.data.map((m) => m.id)).toContain(body.data.id);
    expect((await send("DELETE", `/media/${body.data.id}`)).status).toBe(200);
    expect(await env.MEDIA.head(body.data.key)).toBeNull();
    expect((await call(body.data.url)).status).toBe(404);
  });

  it("refuses to delete a file a content, the site's settings or an ad still shows, saying which, and deletes it once none does", async () => {
    const cover = await upload(PNG, "image/png", tenant.session, "harbour.png");
    const inText = await upload(PNG, "image/png", tenant.session, "quay.png");
    const social = await upload(PNG, "image/png", tenant.session, "social.png");
    const post = await send<{ id: number }>("POST", "/contents", {
      siteId: tenant.siteId,
      title: "Harbour days",
      slug: "harbour-days",
      language: "en",
      coverImages: cover.body.data.url,
      bodyMarkdown: `Before.\n\n![The quay](${inText.body.data.url})`,
    });
    expect(post.status).toBe(201);
    expect((await send("PATCH", `/sites/${tenant.siteId}`, { seoImage: social.body.data.url })).status).toBe(200);
    const ad = await send<{ id: number }>("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "image",
      slot: "sidebar",
      mediaId: social.body.data.id,
      link: "https://shop.example/",
      startsAt: "2026-01-01T00:00:00Z",
    });

    const refused = async (id: number) => {
      const answer = await send("DELETE", `/media/${id}`);
      expect(answer.status).toBe(409);
      return answer.body.error!.message;
    };
    expect(await refused(cover.body.data.id)).toBe("harbour.png is still shown by “Harbour days”: remove it there first, then delete it");
    expect(await refused(inText.body.data.id)).toBe("quay.png is still shown by “Harbour days”: remove it there first, then delete it");
    expect(await refused(social.body.data.id)).toBe(
      "social.png is still shown by the site's social image (Settings), an image ad (Ads): remove it there first, then delete it",
    );
    expect(await env.MEDIA.head(cover.body.data.key)).not.toBeNull();
    expect((await call(cover.body.data.url)).status).toBe(200);

    // Once nothing shows them (the content in the Trash counts as gone), each file goes.
    expect((await send("DELETE", `/contents/${post.body.data.id}`)).status).toBe(200);
    expect((await send("PATCH", `/sites/${tenant.siteId}`, { seoImage: null })).status).toBe(200);
    expect((await send("DELETE", `/ads/${ad.body.data.id}`)).status).toBe(200);
    for (const file of [cover, inText, social]) expect((await send("DELETE", `/media/${file.body.data.id}`)).status).toBe(200);
    expect((await call(cover.body.data.url)).status).toBe(404);
  });

  it("refuses a body that is not what its type says, SVG, and a file over 5 MB", async () => {
    const lying = await upload(new TextEncoder().encode("<script>alert(1)</script>"), "image/png");
    expect(lying.status).toBe(400);
    expect(lying.body.error!.message).toBe("logo.png is not a PNG image, as its type (image/png) says: its bytes are another kind of file");
    const svg = await upload(new TextEncoder().encode("<svg onload=alert(1)>"), "image/svg+xml");
    expect(svg.status).toBe(415);
    expect(svg.body.error!.message).toBe(
      "logo.png is not one of the files a site's media takes: PNG, JPEG, GIF and WebP images and PDF files (Content-Type image/png, image/jpeg, image/gif, image/webp, application/pdf)",
    );
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    expect((await upload(big, "image/png")).status).toBe(413);
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE tenant_id = ?").bind(tenant.tenantId).all<{ n: number }>();
    expect(results[0]!.n).toBe(0);
  });

  it("lets a viewer list but not upload", async () => {
    const viewer = await memberWith(tenant, "viewer");
    expect((await upload(PNG, "image/png", viewer.session)).status).toBe(403);
  });

  it("answers 404 for a file that does not exist, 400 for a name that is no media key", async () => {
    expect((await call(`/media/${tenant.tenantId}/${tenant.siteId}/AAAAAAAAAAAAAAAAAAAA.png`)).status).toBe(404);
    expect((await call(`/media/${tenant.tenantId}/${tenant.siteId}/..%2F..%2Fsecret`)).status).toBe(400);
  });
});

describe("redirects", () => {
  it("creates, replaces, lists and deletes the redirect of a path", async () => {
    const first = await send<{ id: number; status: number }>("PUT", "/redirects", { siteId: tenant.siteId, fromPath: "/old-news", toUrl: "/news" });
    expect(first.body.data).toMatchObject({ fromPath: "/old-news", toUrl: "/news", status: 301 });
    const replaced = await send<{ id: number }>("PUT", "/redirects", {
      siteId: tenant.siteId,
      fromPath: "/old-news",
      toUrl: "https://elsewhere.example/",
      status: 302,
    });
    expect(replaced.body.data).toMatchObject({ id: first.body.data.id, status: 302 });
    expect((await send<unknown[]>("GET", `/sites/${tenant.siteId}/redirects`)).body.data).toHaveLength(1);
    expect((await send("DELETE", `/redirects/${first.body.data.id}`)).status).toBe(200);
  });

  it.each([
    [{ fromPath: "old", toUrl: "/x" }, "The path must start with / and hold no spaces, ? or #"],
    [{ fromPath: "/a", toUrl: "javascript:alert(1)" }, "The destination must be an http(s) address or a path starting with one /"],
    // Browsers read both as another site's address: an open redirect through the tenant's site.
    [{ fromPath: "/a", toUrl: "//evil.example/" }, "The destination must be an http(s) address or a path starting with one /"],
    [{ fromPath: "/a", toUrl: "/\\evil.example/" }, "The destination must be an http(s) address or a path starting with one /"],
    [{ fromPath: "/a", toUrl: "/b", status: 307 }, "The status must be 301 or 302"],
  ])("refuses %j", async (input, message) => {
    const { status, body } = await send("PUT", "/redirects", { siteId: tenant.siteId, ...input });
    expect(status).toBe(400);
    expect(body.error!.message).toBe(message);
  });
});

describe("redirects on the site", () => {
  const put = (fromPath: string, toUrl: string) => send<{ id: number }>("PUT", "/redirects", { siteId: tenant.siteId, fromPath, toUrl });

  it("stop sending readers on the moment one is deleted", async () => {
    const slug = await siteSlug(tenant.siteId);
    const made = await put("/summer-sale", "/winter-market");
    const before = await sitePage(slug, "/summer-sale", { redirect: "manual" });
    expect([before.status, before.headers.get("Location")]).toEqual([301, "/winter-market"]);
    expect((await send("DELETE", `/redirects/${made.body.data.id}`)).status).toBe(200);
    const after = await sitePage(slug, "/summer-sale", { redirect: "manual" });
    // The site has no theme here: its own answer for the path, not the redirect.
    expect([after.status, after.headers.get("Location")]).toEqual([503, null]);
  });

  it.each([
    ["to its own path", [], ["/loop-a", "/loop-a"]],
    ["back through another", [["/old-harbour", "/harbour-reopens"]], ["/harbour-reopens", "/old-harbour"]],
    [
      "back through a chain",
      [
        ["/c1", "/c2"],
        ["/c2", "/c3"],
      ],
      ["/c3", "/c1"],
    ],
  ])("refuse one that would lead %s, in words", async (_, existing, [from, to]) => {
    for (const [f, t] of existing) expect((await put(f!, t!)).status).toBe(200);
    const { status, body } = await put(from!, to!);
    expect(status).toBe(400);
    expect(body.error!.message).toBe(
      `${from} → ${to} would loop: the redirects from ${to} lead back to ${from}, and browsers give up on such a page`,
    );
  });

  it("take one onto a chain that ends elsewhere, and refuse one past 50 hops", async () => {
    expect((await put("/d2", "/d3")).status).toBe(200);
    expect((await put("/d1", "/d2")).status).toBe(200);
    // 50 hops /h1 → /h2 → … → /h51, written at once.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
       INSERT INTO redirects (tenant_id, site_id, from_path, to_url, status) SELECT ?1, ?2, '/h' || i, '/h' || (i + 1), 301 FROM n`,
    )
      .bind(tenant.tenantId, tenant.siteId)
      .run();
    const { status, body } = await put("/start", "/h1");
    expect(status).toBe(400);
    expect(body.error!.message).toBe("The redirects from /h1 already run 50 hops: point /start at where they end");
  });
});

describe("ads", () => {
  it("creates an image ad from the site's media and an HTML ad, changes and deletes them", async () => {
    const image = await upload(PNG, "image/png");
    const imageAd = await send<{ id: number }>("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "image",
      slot: "sidebar",
      mediaId: image.body.data.id,
      link: "https://shop.example/",
      startsAt: "2026-01-01T00:00:00Z",
      weight: 3,
    });
    expect(imageAd.status).toBe(201);
    expect(imageAd.body.data).toMatchObject({ kind: "image", slot: "sidebar", weight: 3, isActive: true });
    const htmlAd = await send<{ id: number }>("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "html",
      slot: "top",
      html: "<b>Sale</b>",
      startsAt: "2026-01-01T00:00:00Z",
    });
    expect(htmlAd.status).toBe(201);
    expect((await send("PATCH", `/ads/${htmlAd.body.data.id}`, { isActive: false })).body.data).toMatchObject({ isActive: false });
    expect((await send<unknown[]>("GET", `/sites/${tenant.siteId}/ads`)).body.data).toHaveLength(2);
    expect((await send<unknown[]>("GET", `/ads/${imageAd.body.data.id}/stats`)).body.data).toEqual([]);
    expect((await send("DELETE", `/ads/${imageAd.body.data.id}`)).status).toBe(200);
  });

  it("links an image ad to a page of its own site by its path, and refuses an address a browser reads as another host's", async () => {
    const image = await upload(PNG, "image/png");
    const create = (link: string) =>
      send<{ id: number }>("POST", "/ads", {
        siteId: tenant.siteId,
        kind: "image",
        slot: "sidebar",
        mediaId: image.body.data.id,
        link,
        startsAt: "2026-01-01T00:00:00Z",
      });
    const own = await create("/our-new-croissants");
    expect(own.status).toBe(201);
    const clicked = await sitePage(await siteSlug(tenant.siteId), `/ads/${own.body.data.id}/click`, { redirect: "manual" });
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get("Location")).toBe("/our-new-croissants");
    for (const elsewhere of ["//evil.example/", "/\\evil.example/", "javascript:alert(1)", "our-new-croissants"]) {
      const refused = await create(elsewhere);
      expect(refused.status, elsewhere).toBe(400);
      expect(refused.body.error!.message, elsewhere).toBe("Link must be an http(s) URL or a path of the site starting with /");
    }
    expect((await send("DELETE", `/ads/${own.body.data.id}`)).status).toBe(200);
  });

  it("edits every field an ad was created with: an image ad becomes an HTML ad, with another slot, schedule, weight and state", async () => {
    const image = await upload(PNG, "image/png");
    const other = await upload(PNG, "image/png", tenant.session, "other.png");
    const created = await send<{ id: number }>("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "image",
      slot: "sidebar",
      mediaId: image.body.data.id,
      link: "https://shop.example/",
      startsAt: "2026-01-01T00:00:00Z",
    });
    const id = created.body.data.id;
    const moved = await send("PATCH", `/ads/${id}`, { mediaId: other.body.data.id, link: "https://shop.example/sale" });
    expect(moved.body.data).toMatchObject({ kind: "image", mediaId: other.body.data.id, link: "https://shop.example/sale" });
    const edited = await send("PATCH", `/ads/${id}`, {
      kind: "html",
      slot: "footer",
      html: "<b>Now a snippet</b>",
      mediaId: null,
      link: null,
      startsAt: "2026-02-01T08:00:00Z",
      endsAt: "2026-03-01T08:00:00Z",
      weight: 7,
      isActive: false,
      name: "  Spring snippet ",
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      kind: "html",
      slot: "footer",
      html: "<b>Now a snippet</b>",
      mediaId: null,
      link: null,
      startsAt: "2026-02-01T08:00:00Z",
      endsAt: "2026-03-01T08:00:00Z",
      weight: 7,
      isActive: false,
      name: "Spring snippet",
    });
    const listed = (await send<{ id: number; slot: string }[]>("GET", `/sites/${tenant.siteId}/ads`)).body.data.find((ad) => ad.id === id);
    expect(listed).toMatchObject({ slot: "footer", weight: 7 });
    // A new start is held to the end the ad already has.
    const late = await send("PATCH", `/ads/${id}`, { startsAt: "2026-04-01T00:00:00Z" });
    expect(late.status).toBe(400);
    expect(late.body.error!.message).toBe("endsAt: the ad must end after it starts");
    // A name is the editors' own, at most 100 characters, and can be taken away.
    const long = await send("PATCH", `/ads/${id}`, { name: "x".repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.error!.message).toBe("Name must be at most 100 characters");
    expect((await send("PATCH", `/ads/${id}`, { name: null })).body.data).toMatchObject({ name: null });
  });

  it("refuses an edit that ends an ad before it starts or gives it another tenant's image (naming the field), a viewer's, an editor's, and another tenant's", async () => {
    const created = await send<{ id: number }>("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "html",
      slot: "top",
      html: "<b>Sale</b>",
      startsAt: "2026-05-01T00:00:00Z",
    });
    const id = created.body.data.id;
    const backwards = await send("PATCH", `/ads/${id}`, { endsAt: "2026-04-01T00:00:00Z" });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatchObject({
      message: "endsAt: the ad must end after it starts",
      fields: [{ field: "body.endsAt", message: "The ad must end after it starts" }],
    });
    const stranger = await createTestTenant();
    const theirs = await call(`/admin/api/tenants/${stranger.tenantId}/media?siteId=${stranger.siteId}&filename=theirs.png`, {
      method: "POST",
      headers: { Authorization: `Bearer ${stranger.session}`, "Content-Type": "image/png" },
      body: PNG,
    });
    const theirImage = (await theirs.json<Envelope<{ id: number }>>()).data.id;
    const borrowed = await send("PATCH", `/ads/${id}`, { kind: "image", mediaId: theirImage });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.error).toMatchObject({
      fields: [{ field: "body.mediaId", message: expect.stringMatching(/^No image \d+ in site \d+: choose one of the site's images$/) as string }],
    });
    for (const role of ["viewer", "editor"] as const) {
      const member = await memberWith(tenant, role);
      expect((await send("PATCH", `/ads/${id}`, { weight: 9 }, member.session)).status).toBe(403);
    }
    expect((await admin("PATCH", `/tenants/${stranger.tenantId}/ads/${id}`, stranger.session, { weight: 9 })).status).toBe(404);
    expect((await admin("GET", `/tenants/${stranger.tenantId}/ads/${id}/stats`, stranger.session)).status).toBe(404);
    expect((await send("GET", `/sites/${tenant.siteId}/ads`)).body.data).toContainEqual(
      expect.objectContaining({ id, kind: "html", endsAt: null, mediaId: null, weight: 1 }),
    );
  });

  it("refuses an image ad without an image of the site, an HTML ad without its snippet, and an editor", async () => {
    const noImage = await send("POST", "/ads", {
      siteId: tenant.siteId,
      kind: "image",
      slot: "top",
      mediaId: 999999,
      startsAt: "2026-01-01T00:00:00Z",
    });
    expect(noImage.status).toBe(400);
    expect(noImage.body.error).toMatchObject({
      message: `mediaId: no image 999999 in site ${tenant.siteId}: choose one of the site's images`,
      fields: [{ field: "body.mediaId", message: `No image 999999 in site ${tenant.siteId}: choose one of the site's images` }],
    });
    const noHtml = await send("POST", "/ads", { siteId: tenant.siteId, kind: "html", slot: "top", html: "", startsAt: "2026-01-01T00:00:00Z" });
    expect(noHtml.status).toBe(400);
    const editor = await memberWith(tenant, "editor");
    const byEditor = await send(
      "POST",
      "/ads",
      { siteId: tenant.siteId, kind: "html", slot: "top", html: "<b>x</b>", startsAt: "2026-01-01T00:00:00Z" },
      editor.session,
    );
    expect(byEditor.status).toBe(403);
  });
});
