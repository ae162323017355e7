import { env, SELF } from "cloudflare:test";
import { encode } from "fast-png";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { imageDimensions } from "../../src/content/media/dimensions";
import { admin, createTestTenant, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";
import { uniqueTag } from "../helpers/accounts";
import { call } from "../helpers/requests";

/**
 * A site's images on its own host (issue 34): served there and only there with their caching
 * headers, stored with site-relative addresses that survive a change of domain, measured at upload
 * (bombs refused), resized for `srcset`, and written by the default theme through `image()`.
 */

type Stored = { id: number; url: string; key: string; width: number | null; height: number | null; variantWidths: number[] };
type Envelope<T> = { success: boolean; data: T; error?: { message: string } };

/** A PNG of that size, as a camera or an editor would send one (one grey, so it compresses to little). */
const png = (width: number, height: number) => encode({ width, height, data: new Uint8Array(width * height * 3).fill(128), channels: 3 });

/** A PNG whose header declares a size its few bytes do not hold: a decompression bomb for whoever decodes it. */
function declaredPng(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 0, 0, 0, 0, 0, 8, 2, 0, 0, 0, 0, 0, 0, 0,
  ]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

async function upload(tenant: TestTenant, bytes: Uint8Array, contentType = "image/png") {
  const res = await call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${tenant.siteId}&filename=photo.png`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": contentType },
    body: bytes,
  });
  return { status: res.status, body: await res.json<Envelope<Stored>>() };
}

/** A page's HTML with `/` as the browser reads it, however the template engine escaped it. */
const htmlOf = async (res: Response) => (await res.text()).replaceAll("&#x2f;", "/");
const slugOf = (tenant: TestTenant) => siteSlug(tenant.siteId);

let owner: TestTenant;
let other: TestTenant;
let slug: string;
let photo: Stored;
beforeAll(async () => {
  [owner, other] = await Promise.all([createTestTenant(), createTestTenant()]);
  await Promise.all([installDefaultTheme(owner.siteId), installDefaultTheme(other.siteId)]);
  slug = await slugOf(owner);
  const uploaded = await upload(owner, png(2000, 1000));
  expect(uploaded.status).toBe(201);
  photo = uploaded.body.data;
});
afterEach(() => vi.restoreAllMocks());

describe("a site's media on its own host", () => {
  it("serves the site's file at the address the console shows, immutable, with its ETag and type, never sniffed", async () => {
    const res = await sitePage(slug, photo.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
    const etag = res.headers.get("ETag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(imageDimensions(new Uint8Array(await res.arrayBuffer()), "image/png")).toEqual({ width: 2000, height: 1000 });
    const again = await sitePage(slug, photo.url, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
  });

  it("answers 404 on a site's host for another tenant's file, and for its own file under another site's path", async () => {
    const theirs = (await upload(other, png(10, 10))).body.data;
    expect((await sitePage(slug, theirs.url)).status).toBe(404);
    expect((await sitePage(await slugOf(other), photo.url)).status).toBe(404);
    expect((await sitePage(slug, photo.url.replace(/\.png$/, ".gif"))).status).toBe(404);
  });

  it("keeps serving the service host's old /media/ links", async () => {
    const res = await call(photo.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
  });

  it("never serves a stored file as a page or a script, whatever type R2 holds for it", async () => {
    const key = `${owner.tenantId}/${owner.siteId}/HHHHHHHHHHHHHHHHHHHH.png`;
    await env.MEDIA.put(key, "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
    const res = await sitePage(slug, `/media/${key}`);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("Content-Disposition")).toBe("attachment");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; sandbox");
  });
});

describe("sizes and resized copies", () => {
  it("stores the width and height of an upload and resized WebP copies narrower than it, served beside it", async () => {
    expect(photo).toMatchObject({ width: 2000, height: 1000, variantWidths: [480, 960, 1600] });
    const copy = await sitePage(slug, photo.url.replace(/\.png$/, "-480w.webp"));
    expect(copy.status).toBe(200);
    expect(copy.headers.get("Content-Type")).toBe("image/webp");
    expect(imageDimensions(new Uint8Array(await copy.arrayBuffer()), "image/webp")).toEqual({ width: 480, height: 240 });
    const small = (await upload(owner, png(600, 400))).body.data;
    expect(small).toMatchObject({ width: 600, height: 400, variantWidths: [480] });
  });

  it.each([
    [
      "a PNG declaring 100000 × 100000 pixels",
      declaredPng(100_000, 100_000),
      "image/png",
      "The image is 100000 × 100000 pixels; at most 12000 on a side and 50 megapixels",
    ],
    [
      "a PNG declaring 12000 × 12000 pixels",
      declaredPng(12_000, 12_000),
      "image/png",
      "The image is 12000 × 12000 pixels; at most 12000 on a side and 50 megapixels",
    ],
    [
      "a PNG declaring 2³² − 1 pixels a side",
      declaredPng(0xffffffff, 1),
      "image/png",
      "The image is 4294967295 × 1 pixels; at most 12000 on a side and 50 megapixels",
    ],
    [
      "a JPEG of 5 MB of empty segments and no frame",
      Uint8Array.from({ length: 5 * 1024 * 1024 - 16 }, (_, i) => (i < 2 ? [0xff, 0xd8][i]! : [0xff, 0xfe, 0x00, 0x02][(i - 2) % 4]!)),
      "image/jpeg",
      "The image's width and height cannot be read: is it a whole image/jpeg file?",
    ],
  ])("refuses %s before anything decodes it: nothing stored", async (_, bytes, type, message) => {
    const before = (await env.MEDIA.list({ prefix: `${owner.tenantId}/${owner.siteId}/` })).objects.length;
    const { status, body } = await upload(owner, bytes, type);
    expect(status).toBe(400);
    expect(body.error!.message).toBe(message);
    expect((await env.MEDIA.list({ prefix: `${owner.tenantId}/${owner.siteId}/` })).objects.length).toBe(before);
  });

  it("deletes the resized copies with the file", async () => {
    const doomed = (await upload(owner, png(1000, 500))).body.data;
    expect(doomed.variantWidths).toEqual([480, 960]);
    expect((await admin("DELETE", `/tenants/${owner.tenantId}/media/${doomed.id}`, owner.session)).status).toBe(200);
    expect((await env.MEDIA.list({ prefix: doomed.key.replace(/\.png$/, "") })).objects).toEqual([]);
  });
});

describe("addresses that stay right", () => {
  it("stores the site's own media site-relative, however the editor pasted it; other addresses as written", async () => {
    const absolute = `http://localhost:8787${photo.url}`;
    const foreign = `https://elsewhere.example${photo.url.replace(`/${owner.siteId}/`, `/${other.siteId}/`)}`;
    const created = await admin("POST", `/tenants/${owner.tenantId}/contents`, owner.session, {
      siteId: owner.siteId,
      title: "Pasted",
      slug: "pasted",
      language: "en",
      bodyMarkdown: `![The harbour](${absolute})\n\nAlso ${foreign} and https://cdn.example/a.png`,
      coverImages: `https://gateway.test${photo.url}`,
    });
    const { data } = await created.json<Envelope<{ id: number; bodyMarkdown: string; bodyHtml: string; coverImages: string }>>();
    expect(data.bodyMarkdown).toBe(`![The harbour](${photo.url})\n\nAlso ${foreign} and https://cdn.example/a.png`);
    expect(data.bodyHtml).toContain(`<img src="${photo.url}" alt="The harbour" width="2000" height="1000" loading="lazy">`);
    expect(data.coverImages).toBe(photo.url);
    const patched = await admin("PATCH", `/tenants/${owner.tenantId}/contents/${data.id}`, owner.session, {
      coverImages: `https://${slug}.localhost${photo.url}`,
    });
    expect((await patched.json<Envelope<{ coverImages: string }>>()).data.coverImages).toBe(photo.url);
    const site = await admin("PATCH", `/tenants/${owner.tenantId}/sites/${owner.siteId}`, owner.session, {
      seoImage: `http://localhost:8787${photo.url}`,
    });
    expect((await site.json<Envelope<{ seoImage: string }>>()).data.seoImage).toBe(photo.url);
  });

  it("migration 0020 makes the absolute addresses stored before it site-relative", async () => {
    const absolute = `http://localhost:8787${photo.url}`;
    const id = await seedContent(owner, { title: `Old ${uniqueTag()}`, publishAt: null });
    await env.DB.prepare("UPDATE contents SET body_markdown = ?, body_html = ?, cover_images = ? WHERE id = ?")
      .bind(
        `![a](${absolute}) and ![b](https://news.example${photo.url}) and ![c](https://other.example/media/1/1/x.png)`,
        `<img src="${absolute}">`,
        absolute,
        id,
      )
      .run();
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0020_"))!;
    for (const query of migration.queries.filter((q) => /^\s*(--.*\n)*\s*UPDATE/.test(q))) await env.DB.prepare(query).run();
    const row = await env.DB.prepare("SELECT body_markdown, body_html, cover_images FROM contents WHERE id = ?").bind(id).first();
    expect(row).toEqual({
      body_markdown: `![a](${photo.url}) and ![b](${photo.url}) and ![c](https://other.example/media/1/1/x.png)`,
      body_html: `<img src="${photo.url}">`,
      cover_images: photo.url,
    });
  });

  it("writes og:image, twitter:image and JSON-LD on the site's proved domain, and follows it when the domain changes", async () => {
    const tenant = await createTestTenant();
    await installDefaultTheme(tenant.siteId);
    const cover = (await upload(tenant, png(800, 400))).body.data;
    await seedContent(tenant, { title: "Moving story", coverImages: cover.url });
    const before = await htmlOf(await sitePage(await slugOf(tenant), "/moving-story"));
    expect(before).toContain(`<meta property="og:image" content="https://${await slugOf(tenant)}.localhost${cover.url}">`);

    const host = `${uniqueTag()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")}.example.com`;
    const claimed = await admin("PATCH", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`, tenant.session, { primaryDomain: host });
    const record = (await claimed.json<Envelope<{ domains: { host: string; verification: { name: string; value: string } }[] }>>()).data.domains[0]!
      .verification;
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ Status: 0, Answer: [{ name: record.name, type: 16, data: `"${record.value}"` }] }),
    );
    expect((await admin("POST", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}/domains/verify`, tenant.session, { host })).status).toBe(200);
    vi.restoreAllMocks();

    const page = await htmlOf(await SELF.fetch(`https://${host}/moving-story`));
    expect(page).toContain(`<meta property="og:image" content="https://${host}${cover.url}">`);
    expect(page).toContain(`<meta name="twitter:image" content="https://${host}${cover.url}">`);
    expect(page).toContain(`"image":"https://${host}${cover.url}"`);
    const image = await SELF.fetch(`https://${host}${cover.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
  });
});

describe("an image's words", () => {
  it("keeps what an image shows (trimmed, empty as none), in the site's list too; refuses too many words, and another tenant's file", async () => {
    const path = `/tenants/${owner.tenantId}/media/${photo.id}`;
    const described = await admin("PATCH", path, owner.session, { altText: "  Boats along the quay at dawn " });
    expect(described.status).toBe(200);
    expect((await described.json<Envelope<{ altText: string; url: string }>>()).data).toMatchObject({
      altText: "Boats along the quay at dawn",
      url: photo.url,
    });
    const listed = await admin("GET", `/tenants/${owner.tenantId}/sites/${owner.siteId}/media`, owner.session);
    expect((await listed.json<Envelope<{ id: number; altText: string | null }[]>>()).data.find((item) => item.id === photo.id)?.altText).toBe(
      "Boats along the quay at dawn",
    );

    const tooLong = await admin("PATCH", path, owner.session, { altText: "x".repeat(301) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json<Envelope<never>>()).error!.message).toBe("The description must be at most 300 characters");
    expect((await admin("PATCH", path, owner.session, {})).status).toBe(400);
    // Another tenant's file is not there for them, whatever its id.
    expect((await admin("PATCH", `/tenants/${other.tenantId}/media/${photo.id}`, other.session, { altText: "Mine now" })).status).toBe(404);

    const cleared = await admin("PATCH", path, owner.session, { altText: "   " });
    expect((await cleared.json<Envelope<{ altText: string | null }>>()).data.altText).toBeNull();
  });
});

describe("image ads", () => {
  it("show their image from the site's own host", async () => {
    const tenant = await createTestTenant();
    await installDefaultTheme(tenant.siteId);
    const banner = (await upload(tenant, png(600, 100))).body.data;
    const ad = await admin("POST", `/tenants/${tenant.tenantId}/ads`, tenant.session, {
      siteId: tenant.siteId,
      kind: "image",
      slot: "sidebar",
      mediaId: banner.id,
      link: "https://shop.example/",
      startsAt: "2026-01-01T00:00:00Z",
    });
    expect(ad.status).toBe(201);
    const site = await slugOf(tenant);
    const { id } = (await ad.json<Envelope<{ id: number }>>()).data;
    // No words for the picture yet: a reader who cannot see it hears the theme's word for an ad.
    expect(await htmlOf(await sitePage(site, "/"))).toContain(
      `<a href="/ads/${id}/click" rel="sponsored noopener"><img src="${banner.url}" alt="Advertisement">`,
    );
    const image = await sitePage(site, banner.url);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    // The editor's words for it are its alt, escaped as any text of the page.
    const described = await admin("PATCH", `/tenants/${tenant.tenantId}/ads/${id}`, tenant.session, {
      altText: 'Harbour Café: "breakfast" <until> noon',
    });
    expect((await described.json<Envelope<{ altText: string }>>()).data.altText).toBe('Harbour Café: "breakfast" <until> noon');
    expect(await htmlOf(await sitePage(site, "/"))).toContain(`<img src="${banner.url}" alt="Harbour Café: &#34;breakfast&#34; &lt;until&gt; noon">`);
    const tooLong = await admin("PATCH", `/tenants/${tenant.tenantId}/ads/${id}`, tenant.session, { altText: "x".repeat(301) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json<Envelope<never>>()).error!.message).toContain("Alt text must be at most 300 characters");
  });
});

describe("image() in templates", () => {
  /** A theme whose content page writes what image() answers for the cover, and for the cover with the template's own sizes. */
  const probeTheme = {
    ...env.TEST_DEFAULT_THEME,
    "templates/content.html.j2": "{{ image(content.coverImages) | tojson }}|{{ image(content.coverImages, '50vw') | tojson }}",
  };
  const probe = async (site: string, path: string) => {
    const [plain, sized] = (await (await sitePage(site, path)).text()).split("|");
    return { plain: JSON.parse(plain!) as unknown, sized: JSON.parse(sized!) as unknown };
  };

  it("answers the site's image with its resized copies, width and height; the template may say its sizes", async () => {
    const tenant = await createTestTenant();
    await installDefaultTheme(tenant.siteId, probeTheme);
    const cover = (await upload(tenant, png(2000, 1000))).body.data;
    await seedContent(tenant, { title: "Covered harbour", coverImages: cover.url });
    const base = cover.url.replace(/\.png$/, "");
    const srcset = `${base}-480w.webp 480w, ${base}-960w.webp 960w, ${base}-1600w.webp 1600w, ${cover.url} 2000w`;
    expect(await probe(await slugOf(tenant), "/covered-harbour")).toEqual({
      plain: { src: cover.url, srcset, sizes: "(max-width: 48rem) 100vw, 48rem", width: 2000, height: 1000 },
      sized: { src: cover.url, srcset, sizes: "50vw", width: 2000, height: 1000 },
    });
  });

  it("answers an image without copies with empty srcset and sizes, and none for another tenant's file or an outside address", async () => {
    const tenant = await createTestTenant();
    await installDefaultTheme(tenant.siteId, probeTheme);
    const small = (await upload(tenant, png(300, 200))).body.data;
    const theirs = (await upload(other, png(10, 10))).body.data;
    await seedContent(tenant, { title: "Small cover", coverImages: small.url });
    await seedContent(tenant, { title: "Borrowed cover", coverImages: theirs.url });
    await seedContent(tenant, { title: "Remote cover", coverImages: "https://cdn.example/cover.png" });
    const site = await slugOf(tenant);
    expect((await probe(site, "/small-cover")).plain).toEqual({ src: small.url, srcset: "", sizes: "", width: 300, height: 200 });
    expect(await probe(site, "/borrowed-cover")).toEqual({ plain: null, sized: null });
    expect(await probe(site, "/remote-cover")).toEqual({ plain: null, sized: null });
  });

  it("gives the default theme's cover its resized copies, width and height", async () => {
    await seedContent(owner, { title: "Covered harbour", coverImages: photo.url });
    const cover = /<img class="cover"[^>]*>/.exec(await htmlOf(await sitePage(slug, "/covered-harbour")))![0];
    expect(cover).toContain(`src="${photo.url}"`);
    expect(cover).toContain(`srcset="${photo.url.replace(/\.png$/, "")}-480w.webp 480w,`);
    expect(cover).toContain('width="2000" height="1000"');
  });
});
