import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import type { Storage } from "../../src/content/admin/answers";
import { createSite, sitesRoomOf } from "../../src/content/admin/sites";
import { cleanUpStorage } from "../../src/content/storage-cleanup";
import { memberScope } from "../../src/content/tenancy/scope";
import { database } from "../../src/platform/database";
import { logger } from "../../src/platform/logging";
import { uniqueTag } from "../helpers/accounts";
import { createTestTenant, seedContent, type TestTenant } from "../helpers/content";
import { callWorker } from "../helpers/requests";

/**
 * API4 · what a tenant keeps is bounded: anyone may sign up and own tenants. Its texts
 * (TEXT_BYTES_PER_TENANT): contents of 200,000 characters saved as often as the rate limit lets,
 * every save a version kept in the D1 database all tenants share. Its sites (MAX_SITES_PER_TENANT):
 * each holds its own media, themes and search indexes. Its themes (THEME_BYTES_PER_TENANT): each
 * upload up to 60 MB unpacked, stored in R2 at the operator's cost. Its categories, menus and
 * content tags, ads, redirects and API keys: rows of the database, each list answered whole to the console.
 */

type Envelope<T> = { success: boolean; data: T; error?: { message: string } };
interface Saved {
  id: number;
  title: string;
  version: number;
}
const MB = 1024 * 1024;
/** What a version's record counts beside its text. */
const RECORD = 256;
const ROOM = { TEXT_BYTES_PER_TENANT: String(MB) };
/** A body of 600,000 bytes: 200,000 characters (the most a body takes), each three bytes in UTF-8. */
const LARGEST = "中".repeat(200_000);
/** 450,000 bytes. */
const LARGE = "中".repeat(150_000);

async function send<T = Saved>(tenant: TestTenant, method: string, path: string, body?: unknown, settings: Record<string, string> = ROOM) {
  const res = await callWorker(
    `/admin/api/tenants/${tenant.tenantId}${path}`,
    {
      method,
      headers: { Authorization: `Bearer ${tenant.session}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { ...env, ...settings },
  );
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

const create = (tenant: TestTenant, bodyMarkdown: string, fields: Record<string, unknown> = {}) =>
  send(tenant, "POST", "/contents", {
    siteId: tenant.siteId,
    title: "Harbour",
    slug: `harbour-${uniqueTag().toLowerCase()}`,
    language: "en",
    bodyMarkdown,
    ...fields,
  });

/** What the tenant's versions hold, read from the table: bytes and rows. */
async function versionsHeld(tenantId: number) {
  return (await env.DB.prepare("SELECT coalesce(sum(text_bytes), 0) AS bytes, count(*) AS n FROM content_versions WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ bytes: number; n: number }>())!;
}

let tenant: TestTenant;
beforeEach(async () => {
  tenant = await createTestTenant();
});

describe("API4 · a tenant's texts take bounded room", () => {
  it("refuses the save that would pass TEXT_BYTES_PER_TENANT with 409, in people's words, and writes nothing of it", async () => {
    const created = await create(tenant, LARGE);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await send(tenant, "PATCH", `/contents/${id}`, { bodyMarkdown: `${LARGE}.` })).status).toBe(200);
    const refused = await send(tenant, "PATCH", `/contents/${id}`, { title: "Changed", bodyMarkdown: `${LARGE}..` });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe(
      "A version of 440 KB would take the tenant's texts past their 1 MB (879 KB are used, every saved version counted): " +
        "delete contents it no longer needs and empty them from the Trash, or ask the operator for more room",
    );
    const content = await send(tenant, "GET", `/contents/${id}`);
    expect(content.body.data).toMatchObject({ title: "Harbour", version: 2 });
    expect(await versionsHeld(tenant.tenantId)).toEqual({ bytes: 2 * (RECORD + 450_007) + 1, n: 2 });
    // A save that fits still goes in: the room is on bytes.
    expect((await send(tenant, "PATCH", `/contents/${id}`, { title: "Changed", bodyMarkdown: "Short now." })).status).toBe(200);
  });

  it("refuses a new content past the room, and no row of it is left", async () => {
    expect((await create(tenant, LARGEST)).status).toBe(201);
    const refused = await create(tenant, LARGEST, { slug: "refused" });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(/^A version of 586 KB would take the tenant's texts past their 1 MB \(586 KB are used/);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM contents WHERE tenant_id = ? AND slug = 'refused'")
      .bind(tenant.tenantId)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
    expect((await versionsHeld(tenant.tenantId)).n).toBe(1);
  });

  it("refuses an autosave that grows the latest version past the room, and keeps the version as it was", async () => {
    expect((await create(tenant, LARGEST)).status).toBe(201);
    const draft = await create(tenant, "A first line.");
    const refused = await send(tenant, "PUT", `/contents/${draft.body.data.id}/autosave`, { bodyMarkdown: LARGEST });
    expect(refused.status).toBe(409);
    const version = await send<{ bodyMarkdown: string }>(tenant, "GET", `/contents/${draft.body.data.id}/versions/1`);
    expect(version.body.data.bodyMarkdown).toBe("A first line.");
  });

  it("counts every site of the tenant and no other tenant's, and frees the room of a content deleted for good", async () => {
    const db = database(env);
    const secondSite = await createSite(
      db,
      memberScope(tenant.tenantId),
      { name: "Second", slug: `second-${uniqueTag().toLowerCase()}` },
      sitesRoomOf(env),
    );
    const elsewhere = await create(tenant, LARGEST, { siteId: secondSite.id });
    expect(elsewhere.status).toBe(201);
    expect((await create(tenant, LARGEST)).status).toBe(409);
    // Another tenant's room is its own.
    const other = await createTestTenant();
    expect((await create(other, LARGEST)).status).toBe(201);
    // In the Trash it is still kept (and restorable), so it still counts; deleted for good, it frees its room.
    expect((await send(tenant, "DELETE", `/contents/${elsewhere.body.data.id}`)).status).toBe(200);
    expect((await create(tenant, LARGEST)).status).toBe(409);
    expect((await send(tenant, "DELETE", `/trash/${elsewhere.body.data.id}`)).status).toBe(200);
    expect((await create(tenant, LARGEST)).status).toBe(201);
  });

  it("lets one of several large saves sent at once in, never two together", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => create(tenant, LARGEST)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await versionsHeld(tenant.tenantId)).toEqual({ bytes: RECORD + 600_007, n: 1 });
  });

  it("keeps a content's newest 50 versions: a save past them lets the oldest go", async () => {
    const created = await create(tenant, "Version 1.");
    const id = created.body.data.id;
    // Versions 2 to 50, as 49 saves would have left them, written in one statement.
    await env.DB.batch([
      env.DB.prepare(
        `WITH RECURSIVE n(v) AS (SELECT 2 UNION ALL SELECT v + 1 FROM n WHERE v < 50)
         INSERT INTO content_versions (tenant_id, content_id, version, title, intro, body_markdown, saved_by) SELECT ?, ?, v, 'Harbour', '', 'Version ' || v || '.', ? FROM n`,
      ).bind(tenant.tenantId, id, tenant.ownerId),
      env.DB.prepare("UPDATE contents SET version = 50 WHERE id = ?").bind(id),
    ]);
    expect((await send(tenant, "PATCH", `/contents/${id}`, { bodyMarkdown: "Version 51." })).status).toBe(200);
    const versions = await send<{ version: number }[]>(tenant, "GET", `/contents/${id}/versions`);
    expect(versions.body.data.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => 51 - i));
    expect((await send(tenant, "GET", `/contents/${id}/versions/1`)).status).toBe(404);
    // An autosave into the latest version lets none go.
    expect((await send(tenant, "PUT", `/contents/${id}/autosave`, { bodyMarkdown: "Version 51, autosaved." })).status).toBe(200);
    expect((await send<unknown[]>(tenant, "GET", `/contents/${id}/versions`)).body.data).toHaveLength(50);
  });

  it("tells a member what the texts take, in UTF-8 bytes and 256 a version, and how much they may, 100 MB unless the operator says otherwise", async () => {
    expect((await create(tenant, "中文", { title: "Café", intro: "Ünï" })).status).toBe(201);
    const storage = await send<Storage>(tenant, "GET", "/storage", undefined, {});
    expect(storage.body.data.text).toEqual({ usedBytes: RECORD + 5 + 5 + 6, quotaBytes: 100 * MB });
    expect((await send<Storage>(tenant, "GET", "/storage")).body.data.text.quotaBytes).toBe(MB);
  });

  it("answers a TEXT_BYTES_PER_TENANT below 1 MB with a 503 naming it", async () => {
    const refused = await send(tenant, "GET", "/storage", undefined, { TEXT_BYTES_PER_TENANT: "1000" });
    expect(refused.status).toBe(503);
    expect(refused.body.error!.message).toBe("service misconfigured: TEXT_BYTES_PER_TENANT");
  });
});

describe("API4 · a tenant keeps a bounded number of sites", () => {
  const SITES = { MAX_SITES_PER_TENANT: "3" };
  const newSite = (owner: TestTenant, settings: Record<string, string> = SITES) =>
    send(owner, "POST", "/sites", { name: "Another", slug: `another-${uniqueTag().toLowerCase()}` }, settings);
  const sitesHeld = async (tenantId: number) =>
    (await env.DB.prepare("SELECT count(*) AS n FROM sites WHERE tenant_id = ?").bind(tenantId).first<{ n: number }>())!.n;

  it("refuses the site past MAX_SITES_PER_TENANT with 409, in people's words, and writes no row of it", async () => {
    expect((await newSite(tenant)).status).toBe(201);
    expect((await newSite(tenant)).status).toBe(201);
    const refused = await newSite(tenant);
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe("A tenant keeps at most 3 sites: ask the operator for more");
    expect(await sitesHeld(tenant.tenantId)).toBe(3);
    // Another tenant's sites are its own; 20 unless the operator says otherwise.
    const other = await createTestTenant();
    expect((await newSite(other)).status).toBe(201);
    expect((await newSite(tenant, {})).status).toBe(201);
  });

  it("lets as many of several sites sent at once in as there is room for, never more", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => newSite(tenant)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(await sitesHeld(tenant.tenantId)).toBe(3);
  });

  it("answers a MAX_SITES_PER_TENANT of 0 with a 503 naming it", async () => {
    const refused = await newSite(tenant, { MAX_SITES_PER_TENANT: "0" });
    expect(refused.status).toBe(503);
    expect(refused.body.error!.message).toBe("service misconfigured: MAX_SITES_PER_TENANT");
  });
});

describe("API4 · a tenant's themes take bounded room", () => {
  const ROOM_BYTES = 60 * MB;
  const THEMES = { THEME_BYTES_PER_TENANT: String(ROOM_BYTES) };
  const defaultTheme = Object.fromEntries(Object.entries(env.TEST_DEFAULT_THEME).map(([path, text]) => [path, strToU8(text)]));
  const defaultBytes = Object.values(defaultTheme).reduce((sum, bytes) => sum + bytes.length, 0);
  /** The default theme with blank stylesheets beside it (a small zip), `bytes` in all unpacked. */
  const themeOf = (bytes: number) => {
    const files: Record<string, Uint8Array> = { ...defaultTheme };
    for (let left = bytes - defaultBytes, n = 1; left > 0; left -= 10_000_000, n++)
      files[`assets/css/blank-${n}.css`] = new Uint8Array(Math.min(left, 10_000_000)).fill(32);
    return zipSync(files);
  };
  const upload = (name: string, zip: Uint8Array, settings: Record<string, string> = THEMES) =>
    callWorker(
      `/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes?name=${name}`,
      { method: "POST", headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "application/zip" }, body: zip },
      { ...env, ...settings },
    ).then(async (res) => ({ status: res.status, body: await res.json<Envelope<{ name: string }>>() }));
  const themesUsed = async () => (await send<Storage>(tenant, "GET", "/storage", undefined, THEMES)).body.data.themes;

  it("refuses the theme past THEME_BYTES_PER_TENANT with 409, in people's words, before storing any of its files, and frees the room of a deleted theme", async () => {
    expect((await upload("harbour", themeOf(defaultBytes))).status).toBe(201);
    expect(await themesUsed()).toEqual({ usedBytes: defaultBytes, quotaBytes: ROOM_BYTES });
    // As large as one theme may be, and one byte past what is left.
    const refused = await upload("lantern", themeOf(ROOM_BYTES - defaultBytes + 1));
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(
      /^lantern \(60 MB unpacked\) would take the tenant's themes past their 60 MB \(\d+ KB are used, a replaced version until the daily cleanup\): delete themes it no longer needs, or ask the operator for more room$/,
    );
    expect((await env.THEMES.list({ prefix: `themes/${tenant.siteId}/lantern/` })).objects).toEqual([]);
    const versions = await env.DB.prepare("SELECT name FROM theme_versions WHERE site_id = ?").bind(tenant.siteId).all<{ name: string }>();
    expect(versions.results).toEqual([{ name: "harbour" }]);
    // Deleted, its files go at once, and so does the room they took.
    expect((await send(tenant, "DELETE", `/sites/${tenant.siteId}/themes/harbour`)).status).toBe(200);
    expect((await themesUsed()).usedBytes).toBe(0);
  });

  it("counts a replaced version until the cleanup removes it", async () => {
    expect((await upload("harbour", themeOf(defaultBytes))).status).toBe(201);
    expect((await upload("harbour", themeOf(defaultBytes))).status).toBe(201);
    expect((await themesUsed()).usedBytes).toBe(2 * defaultBytes);
    expect((await upload("lantern", themeOf(ROOM_BYTES - 2 * defaultBytes + 1))).status).toBe(409);
    // The daily cleanup, two hours on, removes the replaced version's files and row.
    await cleanUpStorage(env, logger({ test: "tenant-rooms" }), Date.now() + 2 * 3_600_000);
    expect((await themesUsed()).usedBytes).toBe(defaultBytes);
  });

  it("counts the copy of a theme a new site starts with, and refuses a site whose copy would pass the room before making it", async () => {
    const sitesOf = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM sites WHERE tenant_id = ?").bind(tenant.tenantId).first<{ n: number }>())!.n;
    const copying = (settings = THEMES) =>
      send(tenant, "POST", "/sites", { name: "Copy", slug: `copy-${uniqueTag().toLowerCase()}`, copyThemeFrom: tenant.siteId }, settings);
    expect((await upload("harbour", themeOf(defaultBytes))).status).toBe(201);
    expect((await send(tenant, "POST", `/sites/${tenant.siteId}/themes/harbour/activate`)).status).toBe(200);
    const copied = await copying();
    expect(copied.status).toBe(201);
    expect((await themesUsed()).usedBytes).toBe(2 * defaultBytes);
    // A theme of 30 MB, copied, would pass the 60 MB: no site, no file, no room taken.
    expect((await upload("lantern", themeOf(30 * MB))).status).toBe(201);
    expect((await send(tenant, "POST", `/sites/${tenant.siteId}/themes/lantern/activate`)).status).toBe(200);
    const before = await sitesOf();
    const refused = await copying();
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(/^lantern \(30 MB unpacked\) would take the tenant's themes past their 60 MB /);
    expect(await sitesOf()).toBe(before);
    expect((await themesUsed()).usedBytes).toBe(2 * defaultBytes + 30 * MB);
  });

  it("answers a THEME_BYTES_PER_TENANT below the largest theme with a 503 naming it", async () => {
    const refused = await send(tenant, "GET", "/storage", undefined, { THEME_BYTES_PER_TENANT: String(10 * MB) });
    expect(refused.status).toBe(503);
    expect(refused.body.error!.message).toBe("service misconfigured: THEME_BYTES_PER_TENANT");
  });
});

describe("API4 · a tenant keeps bounded numbers of the rows its lists answer whole", () => {
  /** `n` rows written in one statement, as that many requests would have left them. */
  const fill = (sql: string, n: number) =>
    env.DB.prepare(`WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < ?) ${sql}`)
      .bind(n, tenant.tenantId, tenant.siteId)
      .run();
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenant.tenantId).first<{ n: number }>())!.n;
  const refusal = (bound: string, words: string) =>
    `A tenant keeps at most ${bound} ${words}, all its sites together: delete ones it no longer needs first`;

  it("refuses the 2,001st category with 409 in people's words, and writes no row of it", async () => {
    await fill("INSERT INTO categories (tenant_id, site_id, name, slug) SELECT ?, ?, 'Filler ' || n, 'filler-' || n FROM i", 1_999);
    const category = (slug: string) => send(tenant, "POST", "/categories", { siteId: tenant.siteId, name: "Harbour", slug });
    expect((await category("harbour")).status).toBe(201);
    const refused = await category("lanterns");
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe(refusal("2,000", "categories"));
    expect(await count("categories")).toBe(2_000);
  });

  it("refuses the 1,001st menu or content tag and the 1,001st ad", async () => {
    await fill(
      "INSERT INTO content_tags (tenant_id, site_id, type, name, definition) SELECT ?, ?, 'taxonomy', 'filler-' || n, '{\"tags\":[]}' FROM i",
      1_000,
    );
    const tag = await send(tenant, "PUT", "/tags", { siteId: tenant.siteId, type: "taxonomy", name: "topics", definition: { tags: ["city"] } });
    expect(tag.status).toBe(409);
    expect(tag.body.error!.message).toBe(refusal("1,000", "menus and content tags"));
    await fill(
      "INSERT INTO ads (tenant_id, site_id, slot, kind, html, starts_at) SELECT ?, ?, 'filler-' || n, 'html', '<b>x</b>', '2026-01-01T00:00:00Z' FROM i",
      1_000,
    );
    const ad = await send(tenant, "POST", "/ads", {
      siteId: tenant.siteId,
      kind: "html",
      slot: "top",
      html: "<b>x</b>",
      startsAt: "2026-01-01T00:00:00Z",
    });
    expect(ad.status).toBe(409);
    expect(ad.body.error!.message).toBe(refusal("1,000", "ads"));
    expect([await count("content_tags"), await count("ads")]).toEqual([1_000, 1_000]);
  });

  it("refuses the 20,001st redirect, written or made by moving a published content, which then keeps its address", async () => {
    const published = await seedContent(tenant, { title: `Ferry ${uniqueTag()}` });
    await fill("INSERT INTO redirects (tenant_id, site_id, from_path, to_url) SELECT ?, ?, '/filler-' || n, '/' FROM i", 20_000);
    const written = await send(tenant, "PUT", "/redirects", { siteId: tenant.siteId, fromPath: "/old-news", toUrl: "/news" });
    expect(written.status).toBe(409);
    expect(written.body.error!.message).toBe(refusal("20,000", "redirects"));
    const before = await send<{ slug: string; version: number }>(tenant, "GET", `/contents/${published}`);
    const moved = await send(tenant, "PATCH", `/contents/${published}`, { slug: "ferry-moved" });
    expect(moved.status).toBe(409);
    expect(moved.body.error!.message).toBe(refusal("20,000", "redirects"));
    expect((await send(tenant, "GET", `/contents/${published}`)).body.data).toEqual(before.body.data);
    expect(await count("redirects")).toBe(20_000);
  });

  it("refuses the 1,001st API key of the tenant, revoked ones counted, since they stay listed", async () => {
    // Revoked keys beside the tenant's own, made by whoever (the site's id stands in for a user's).
    await fill(
      "INSERT INTO tenant_keys (tenant_id, created_by, name, token_hash, masked_token, is_active) SELECT ?, ?, 'Old', hex(randomblob(16)), 'svc_tk_…', 0 FROM i",
      999 - (await count("tenant_keys")),
    );
    const key = () => send(tenant, "POST", "/keys", { name: "Front end", scopes: ["content:read"] });
    expect((await key()).status).toBe(201);
    const refused = await key();
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe("A tenant keeps at most 1,000 API keys, revoked ones included: ask the operator for more");
    expect(await count("tenant_keys")).toBe(1_000);
  });
});
