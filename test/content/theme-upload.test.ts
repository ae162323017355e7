import { env } from "cloudflare:test";
import { deflateSync, strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/requests";
import { createTestTenant, installDefaultTheme, memberWith, sitePage, type TestTenant, siteSlug } from "../helpers/content";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await installDefaultTheme(tenant.siteId);
});

/** The default theme as a zip, with some files replaced or added. */
function themeZip(changes: Record<string, string> = {}, prefix = "") {
  const files = { ...env.TEST_DEFAULT_THEME, ...changes };
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [`${prefix}${path}`, strToU8(text)])));
}

async function upload(zip: Uint8Array, name = "fresh", session = tenant.session, contentType = "application/zip") {
  const res = await call(`/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes?name=${name}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${session}`, "Content-Type": contentType },
    body: zip,
  });
  return { status: res.status, body: await res.json<Envelope<{ name: string; files: number; previewUrl: string }>>() };
}

const text = (res: Response) => res.text();

describe("theme upload, preview and activation", () => {
  it("stores a checked zip, previews it by its link only, activates it, and rolls back", async () => {
    const marker = '{% extends "layouts/base.html.j2" %}{% block main %}<p id="fresh">Fresh theme</p>{% endblock %}';
    const stored = await upload(themeZip({ "templates/index.html.j2": marker }, "fresh-theme/"));
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: "fresh", files: Object.keys(env.TEST_DEFAULT_THEME).length });

    const listed = await (
      await call(`/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes`, { headers: { Authorization: `Bearer ${tenant.session}` } })
    ).json<Envelope<{ active: string; previous: string | null; themes: string[] }>>();
    expect(listed.data).toEqual({ active: "default", previous: null, themes: ["default", "fresh"] });

    const preview = await sitePage(slug, stored.body.data.previewUrl);
    expect(preview.headers.get("Cache-Control")).toBe("private, no-store");
    expect(preview.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(await text(preview)).toContain('<p id="fresh">Fresh theme</p>');
    expect(await text(await sitePage(slug, "/?theme_preview=fresh&token=forged"))).not.toContain("Fresh theme");
    expect(await text(await sitePage(slug))).not.toContain("Fresh theme");

    const activate = (theme: string) =>
      call(`/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes/${theme}/activate`, {
        method: "POST",
        headers: { Authorization: `Bearer ${tenant.session}` },
      });
    expect((await activate("fresh")).status).toBe(200);
    expect(await text(await sitePage(slug))).toContain("Fresh theme");
    // The theme before the last activation: what the console's "roll back" activates.
    const themes = async () =>
      (
        await (
          await call(`/admin/api/tenants/${tenant.tenantId}/sites/${tenant.siteId}/themes`, {
            headers: { Authorization: `Bearer ${tenant.session}` },
          })
        ).json<Envelope<{ active: string; previous: string | null }>>()
      ).data;
    expect(await themes()).toMatchObject({ active: "fresh", previous: "default" });
    expect((await activate("fresh")).status).toBe(200);
    expect(await themes()).toMatchObject({ active: "fresh", previous: "default" });
    expect((await activate("default")).status).toBe(200);
    expect(await text(await sitePage(slug))).not.toContain("Fresh theme");
    expect((await activate("nowhere")).status).toBe(404);
    const audit = await env.DB.prepare("SELECT subject FROM audit_log WHERE tenant_id = ? AND action = 'activate-theme' ORDER BY id")
      .bind(tenant.tenantId)
      .all<{ subject: string }>();
    expect(await themes()).toMatchObject({ active: "default", previous: "fresh" });
    expect(audit.results.map((a) => a.subject)).toEqual([
      `site ${tenant.siteId}: fresh (was default)`,
      `site ${tenant.siteId}: fresh (was fresh)`,
      `site ${tenant.siteId}: default (was fresh)`,
    ]);
    // The upload is in the audit log, once.
    const uploaded = await env.DB.prepare("SELECT user_id AS userId, subject FROM audit_log WHERE tenant_id = ? AND action = 'upload-theme'")
      .bind(tenant.tenantId)
      .all<{ userId: number; subject: string }>();
    expect(uploaded.results).toEqual([{ userId: tenant.ownerId, subject: `site ${tenant.siteId}: fresh` }]);
  });

  it.each([
    ["zip slip", { "../evil.j2": "x" }, "../evil.j2: paths must be relative and stay inside the theme"],
    ["an absolute path", { "/etc/evil.css": "x" }, "/etc/evil.css: paths must be relative and stay inside the theme"],
    ["a file outside the theme's folders", { "secrets/key.json": "{}" }, "secrets/key.json: files belong in layouts, templates, assets, locales"],
    ["a file of a forbidden type", { "assets/shell.php": "<?php" }, "assets/shell.php: .php files are not allowed in a theme"],
    [
      "an include of a template the theme lacks",
      { "templates/index.html.j2": '{% include "partials/nowhere.html.j2" %}' },
      "templates/index.html.j2 refers to partials/nowhere.html.j2, which the theme does not have",
    ],
    ["a template that does not parse", { "templates/index.html.j2": "{% if %}" }, "a template does not parse"],
  ])("refuses %s", async (_what, changes, message) => {
    const { status, body } = await upload(themeZip(changes), "bad");
    expect(status).toBe(400);
    expect(body.error!.message).toContain(`The theme was not stored: ${message}`);
    expect((await env.THEMES.list({ prefix: `themes/${tenant.siteId}/bad/` })).objects).toEqual([]);
  });

  it("refuses a theme without its required templates, too many files, a zip bomb and what is not a zip", async () => {
    const { "templates/404.html.j2": _dropped, ...without404 } = env.TEST_DEFAULT_THEME;
    const missing = await upload(zipSync(Object.fromEntries(Object.entries(without404).map(([p, t]) => [p, strToU8(t)]))), "bad");
    expect(missing.body.error!.message).toBe("The theme was not stored: missing templates/404.html.j2");

    const many = themeZip(Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`assets/css/f${i}.css`, "a{}"])));
    expect((await upload(many, "bad")).body.error!.message).toBe("The theme was not stored: more than 2000 files");

    // A zip whose central directory declares 4 GB for one small file: refused before it is inflated.
    const bomb = themeZip();
    const view = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    for (let at = 0; at < bomb.length - 46; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 0xfffffff0, true);
    expect((await upload(bomb, "bad")).body.error!.message).toBe("The theme was not stored: more than 60 MB once unpacked");

    // One file declaring 11 MB: refused before it is inflated, since the upload holds one file at a time, each at most 10 MB.
    const large = zipDeclaring([
      ...defaultThemeEntries(),
      { name: "assets/css/large.css", data: deflateSync(strToU8("a{}")), method: 8, size: 11 * 1024 * 1024 },
    ]);
    expect((await upload(large, "bad")).body.error!.message).toBe("The theme was not stored: assets/css/large.css is more than 10 MB once unpacked");

    expect((await upload(strToU8("not a zip"), "bad")).body.error!.message).toBe("The theme was not stored: the file is not a zip");
    expect((await upload(themeZip(), "bad", tenant.session, "application/octet-stream")).status).toBe(415);
  });

  it("is the owner's: an editor may not upload", async () => {
    const editor = await memberWith(tenant, "editor");
    expect((await upload(themeZip(), "mine", editor.session)).status).toBe(403);
  });
});

/**
 * A deflate stream of at least `bytes` zeros (one fixed-Huffman block of 258-byte copies), about 160 times
 * smaller. Past its first two bytes the copies' bits repeat every 13 bytes, so most bytes are copied.
 */
function deflatedZeros(bytes: number): Uint8Array {
  const copies = Math.max(16, Math.ceil((bytes - 1) / 258));
  const endOfCopies = 3 + 8 + copies * 13;
  const out = new Uint8Array(Math.ceil((endOfCopies + 7) / 8));
  let bit = 0;
  const put = (code: number, length: number) => {
    for (let i = length - 1; i >= 0; i--, bit++) if ((code >> i) & 1) out[bit >> 3] = out[bit >> 3]! | (1 << (bit & 7));
  };
  put(0b110, 3); // last block, fixed codes
  put(0b00110000, 8); // the literal 0
  for (let i = 0; i < 16; i++) {
    put(0b11000101, 8); // length 258
    put(0, 5); // at distance 1
  }
  for (let at = 15; at < out.length; at++) out[at] = out[at - 13]!;
  // The end of block is seven zero bits: clear what the repeat wrote past the last copy.
  out[endOfCopies >> 3] = out[endOfCopies >> 3]! & ((1 << (endOfCopies & 7)) - 1);
  out.fill(0, (endOfCopies >> 3) + 1);
  return out;
}

/** A zip whose entries declare the sizes given, whatever their data holds: what a hostile tool can write. */
function zipDeclaring(entries: { name: string; data: Uint8Array; method: 0 | 8; size: number }[]): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = strToU8(entry.name);
    const header = new Uint8Array(30 + name.length);
    const h = new DataView(header.buffer);
    for (const [at, value] of [
      [0, 0x04034b50],
      [18, entry.data.length],
      [22, entry.size],
    ] as const)
      h.setUint32(at, value, true);
    for (const [at, value] of [
      [4, 20],
      [8, entry.method],
      [26, name.length],
    ] as const)
      h.setUint16(at, value, true);
    header.set(name, 30);
    const record = new Uint8Array(46 + name.length);
    const r = new DataView(record.buffer);
    for (const [at, value] of [
      [0, 0x02014b50],
      [20, entry.data.length],
      [24, entry.size],
      [42, offset],
    ] as const)
      r.setUint32(at, value, true);
    for (const [at, value] of [
      [4, 20],
      [6, 20],
      [10, entry.method],
      [28, name.length],
    ] as const)
      r.setUint16(at, value, true);
    record.set(name, 46);
    local.push(header, entry.data);
    central.push(record);
    offset += header.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  for (const [at, value] of [
    [0, 0x06054b50],
    [12, centralSize],
    [16, offset],
  ] as const)
    e.setUint32(at, value, true);
  for (const at of [8, 10]) e.setUint16(at, entries.length, true);
  const zip = new Uint8Array(offset + centralSize + 22);
  let at = 0;
  for (const part of [...local, ...central, end]) {
    zip.set(part, at);
    at += part.length;
  }
  return zip;
}

const defaultThemeEntries = () =>
  Object.entries(env.TEST_DEFAULT_THEME).map(([name, text]) => ({ name, data: strToU8(text), method: 0 as const, size: strToU8(text).length }));

describe("API4 · theme upload: zip bombs", () => {
  it("refuses a file declaring 100 bytes whose deflate stream holds 1 GB before inflating it, its time close to an honest upload's", async () => {
    // Inflating all of it would take seconds and a gigabyte, so the bound below fails if the count comes after.
    const bomb = zipDeclaring([
      ...defaultThemeEntries(),
      { name: "assets/css/bomb.css", data: deflatedZeros(1024 * 1024 * 1024), method: 8, size: 100 },
    ]);
    // The same files honestly zipped, twice: the first loads the route, the second is the work of an
    // upload, so that what is measured below is the bomb's own cost, whatever the machine's speed.
    const honest = zipDeclaring([...defaultThemeEntries(), { name: "assets/css/bomb.css", data: deflateSync(strToU8("a{}")), method: 8, size: 3 }]);
    expect((await upload(honest, "bomb")).status).toBe(201);
    const honestStarted = performance.now();
    expect((await upload(honest, "bomb")).status).toBe(201);
    const honestTook = performance.now() - honestStarted;
    const started = performance.now();
    const { status, body } = await upload(bomb, "bomb");
    const took = performance.now() - started;
    expect(status).toBe(400);
    expect(body.error!.message).toBe("The theme was not stored: assets/css/bomb.css holds more than the 100 bytes it declares");
    // Well under the seconds a full inflation takes, beyond an honest upload's own work: the refusal comes
    // after the first 4 KB step (some 4 MB out). Two CI runs on a busy two-core machine measured 1.1 and
    // 1.6 s beyond it, cause not yet found; the unbounded inflation takes several seconds more.
    expect(took).toBeLessThan(honestTook + 2500);
    const { version } = (await env.DB.prepare("SELECT version FROM theme_versions WHERE site_id = ? AND name = 'bomb' AND live = 1")
      .bind(tenant.siteId)
      .first<{ version: string }>())!;
    expect(await env.THEMES.head(`themes/${tenant.siteId}/bomb/versions/${version}/assets/css/bomb.css`).then((object) => object?.size)).toBe(3);
  });

  it.each([
    [
      "a deflated file that holds less than it declares",
      { data: deflateSync(strToU8("a{}")), method: 8 as const, size: 1000 },
      "holds 3 bytes, not the 1000 it declares",
    ],
    [
      "a stored file that holds less than it declares",
      { data: strToU8("a{}"), method: 0 as const, size: 1000 },
      "holds 3 bytes, not the 1000 it declares",
    ],
    [
      "a stored file that holds more than it declares",
      { data: strToU8("a{}b{}"), method: 0 as const, size: 3 },
      "holds 6 bytes, not the 3 it declares",
    ],
  ])("refuses %s", async (_what, entry, message) => {
    const { status, body } = await upload(zipDeclaring([...defaultThemeEntries(), { name: "assets/css/odd.css", ...entry }]), "odd");
    expect(status).toBe(400);
    expect(body.error!.message).toBe(`The theme was not stored: assets/css/odd.css ${message}`);
  });

  it("accepts a zip that holds what it declares", async () => {
    expect(
      (
        await upload(
          zipDeclaring([
            ...defaultThemeEntries(),
            { name: "assets/css/more.css", data: deflateSync(strToU8("a{}".repeat(500))), method: 8, size: 1500 },
          ]),
          "honest",
        )
      ).status,
    ).toBe(201);
  });
});

/** Doubles a list 30 times: a few steps of fuel, 2^30 items. */
const DOUBLING = "{% set ns = namespace(l=[1]) %}{% for i in range(30) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}";

describe("API4 · theme upload: templates that exhaust the engine", () => {
  it("refuses, in well under a second, a template that doubles a list 30 times, naming it; the next upload renders", async () => {
    expect((await upload(themeZip(), "warm")).status).toBe(201);
    const started = performance.now();
    const { status, body } = await upload(themeZip({ "templates/search.html.j2": DOUBLING }), "doubling");
    const took = performance.now() - started;
    expect(status).toBe(400);
    expect(body.error!.message).toMatch(
      /^The theme was not stored: templates\/search\.html\.j2: stopped at the engine's 32 MB of memory .*: a render may not need more$/,
    );
    expect(took).toBeLessThan(1000);
    expect((await env.THEMES.list({ prefix: `themes/${tenant.siteId}/doubling/` })).objects).toEqual([]);

    const marker = '{% extends "layouts/base.html.j2" %}{% block main %}<p id="after">After the trap</p>{% endblock %}';
    const next = await upload(themeZip({ "templates/index.html.j2": marker }), "after");
    expect(next.status).toBe(201);
    expect(await text(await sitePage(slug, next.body.data.previewUrl))).toContain('<p id="after">After the trap</p>');
  });

  it("refuses a template whose page is longer than a render may write", async () => {
    const { status, body } = await upload(themeZip({ "templates/404.html.j2": "{% for i in range(6) %}{{ 'x' * 1000000 }}{% endfor %}" }), "long");
    expect(status).toBe(400);
    expect(body.error!.message).toBe(
      "The theme was not stored: templates/404.html.j2: writes more than 5,000,000 characters: a render may not need more",
    );
  });
});

describe("API4 · theme render: a live theme that keeps stopping at its bounds", () => {
  it("is served until its third stopped render, then the site goes back to its previous theme and the audit log says so", async () => {
    const own = await createTestTenant();
    const ownSlug = await siteSlug(own.siteId);
    await installDefaultTheme(own.siteId);
    // Stored as an upload before the check would have stored it: its home page grows without end.
    for (const [path, source] of Object.entries({ ...env.TEST_DEFAULT_THEME, "templates/index.html.j2": DOUBLING }))
      await env.THEMES.put(`themes/${own.siteId}/greedy/${path}`, source);
    const activate = await call(`/admin/api/tenants/${own.tenantId}/sites/${own.siteId}/themes/greedy/activate`, {
      method: "POST",
      headers: { Authorization: `Bearer ${own.session}` },
    });
    expect(activate.status).toBe(200);

    for (let i = 0; i < 3; i++) expect((await sitePage(ownSlug)).status).toBe(500);
    const after = await sitePage(ownSlug);
    expect(after.status).toBe(200);
    expect(await text(after)).toContain('<a class="brand" href="/">');
    const site = await env.DB.prepare("SELECT theme, previous_theme FROM sites WHERE id = ?")
      .bind(own.siteId)
      .first<{ theme: string; previous_theme: string }>();
    expect(site).toEqual({ theme: "default", previous_theme: "greedy" });
    const audit = await env.DB.prepare("SELECT user_id, subject FROM audit_log WHERE tenant_id = ? AND action = 'retire-theme'")
      .bind(own.tenantId)
      .all<{ user_id: number; subject: string }>();
    expect(audit.results).toHaveLength(1);
    expect(audit.results[0]!.user_id).toBe(0);
    expect(audit.results[0]!.subject).toMatch(
      new RegExp(
        `^site ${own.siteId}: greedy stopped at its bounds 3 times \\(templates/index\\.html\\.j2: stopped at the engine's 32 MB of memory .*\\); back to default$`,
      ),
    );
  });
});

describe("a theme's preview link, download and deletion", () => {
  let own: TestTenant;
  let ownSlug: string;
  const themes = (path = "", method = "GET", session = own.session, tenantId = own.tenantId, siteId = own.siteId) =>
    call(`/admin/api/tenants/${tenantId}/sites/${siteId}/themes${path}`, { method, headers: { Authorization: `Bearer ${session}` } });
  const storeAs = async (name: string, changes: Record<string, string> = {}) => {
    const res = await call(`/admin/api/tenants/${own.tenantId}/sites/${own.siteId}/themes?name=${name}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${own.session}`, "Content-Type": "application/zip" },
      body: themeZip(changes),
    });
    expect(res.status).toBe(201);
  };
  const marked = (marker: string) => ({
    "templates/index.html.j2": `{% extends "layouts/base.html.j2" %}{% block main %}<p>${marker}</p>{% endblock %}`,
  });
  const stored = async (name: string) => (await env.THEMES.list({ prefix: `themes/${own.siteId}/${name}/` })).objects.length;

  beforeAll(async () => {
    own = await createTestTenant();
    ownSlug = await siteSlug(own.siteId);
    await installDefaultTheme(own.siteId);
  });

  it("gives the owner a preview link of any of the site's themes, which shows the site with it", async () => {
    await storeAs("linked", marked("Linked theme"));
    const res = await themes("/linked/preview");
    expect(res.status).toBe(200);
    const { data } = await res.json<Envelope<{ name: string; previewUrl: string }>>();
    expect(data.name).toBe("linked");
    expect(data.previewUrl).toMatch(/^\/\?theme_preview=linked&token=[0-9a-f]{64}$/);
    expect(await text(await sitePage(ownSlug, data.previewUrl))).toContain("<p>Linked theme</p>");
    expect(await text(await sitePage(ownSlug))).not.toContain("Linked theme");
    expect((await themes("/nowhere/preview")).status).toBe(404);
  });

  it("shows a reader whose preview's theme was deleted since the site's own theme, not an error", async () => {
    await storeAs("fleeting", marked("Fleeting theme"));
    const { data } = await (await themes("/fleeting/preview")).json<Envelope<{ previewUrl: string }>>();
    const opened = await sitePage(ownSlug, data.previewUrl);
    const cookie = opened.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await text(opened)).toContain("<p>Fleeting theme</p>");
    expect((await themes("/fleeting", "DELETE")).status).toBe(200);
    const later = await sitePage(ownSlug, "/", { headers: { Cookie: cookie } });
    expect(later.status).toBe(200);
    expect(await text(later)).not.toContain("Fleeting theme");
  });

  it("downloads a theme as a zip of its files that an upload takes again", async () => {
    await storeAs("packed", marked("Packed theme"));
    const res = await themes("/packed/download");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="packed.zip"');
    const zip = new Uint8Array(await res.arrayBuffer());
    const files = Object.fromEntries(Object.entries(unzipSync(zip)).map(([path, bytes]) => [path, strFromU8(bytes)]));
    expect(files).toEqual({ ...env.TEST_DEFAULT_THEME, ...marked("Packed theme") });

    const again = await call(`/admin/api/tenants/${own.tenantId}/sites/${own.siteId}/themes?name=repacked`, {
      method: "POST",
      headers: { Authorization: `Bearer ${own.session}`, "Content-Type": "application/zip" },
      body: zip,
    });
    expect(again.status).toBe(201);
    expect((await again.json<Envelope<{ files: number }>>()).data.files).toBe(Object.keys(files).length);
    expect((await themes("/nowhere/download")).status).toBe(404);
  });

  it("deletes a theme that is not active, with its files, and forgets it as the one to roll back to", async () => {
    await storeAs("retired");
    expect((await themes("/retired/activate", "POST")).status).toBe(200);
    expect((await themes("/default/activate", "POST")).status).toBe(200);
    const before = await (await themes()).json<Envelope<{ previous: string | null; themes: string[] }>>();
    expect(before.data.previous).toBe("retired");

    const res = await themes("/retired", "DELETE");
    expect(res.status).toBe(200);
    expect((await res.json<Envelope<{ deleted: boolean }>>()).data).toEqual({ deleted: true });
    const after = await (await themes()).json<Envelope<{ active: string; previous: string | null; themes: string[] }>>();
    expect(after.data).toMatchObject({ active: "default", previous: null });
    expect(after.data.themes).not.toContain("retired");
    expect(await stored("retired")).toBe(0);
    const audit = await env.DB.prepare("SELECT subject FROM audit_log WHERE tenant_id = ? AND action = 'delete-theme'")
      .bind(own.tenantId)
      .all<{ subject: string }>();
    expect(audit.results.map((a) => a.subject).filter((subject) => subject.endsWith(": retired"))).toEqual([`site ${own.siteId}: retired`]);
    expect((await themes("/retired", "DELETE")).status).toBe(404);
  });

  it("refuses to delete the active theme, and keeps it", async () => {
    const res = await themes("/default", "DELETE");
    expect(res.status).toBe(409);
    expect((await res.json<Envelope<never>>()).error!.message).toBe("default is the site's active theme: activate another one before deleting it");
    expect(await stored("default")).toBe(Object.keys(env.TEST_DEFAULT_THEME).length);
    expect((await sitePage(ownSlug)).status).toBe(200);
  });

  it("is the owner's: an editor or a viewer may not preview, download or delete; another tenant does not find the theme", async () => {
    await storeAs("guarded");
    for (const role of ["editor", "viewer"] as const) {
      const member = await memberWith(own, role);
      for (const [path, method] of [
        ["/guarded/preview", "GET"],
        ["/guarded/download", "GET"],
        ["/guarded", "DELETE"],
      ])
        expect((await themes(path, method, member.session)).status, `${role} ${method} ${path}`).toBe(403);
    }
    const other = await createTestTenant();
    for (const [path, method] of [
      ["/guarded/preview", "GET"],
      ["/guarded/download", "GET"],
      ["/guarded", "DELETE"],
    ]) {
      // Their own tenant in the path with this site's id, and this tenant's path with their session.
      expect((await themes(path, method, other.session, other.tenantId, own.siteId)).status, `${method} ${path}`).toBe(404);
      expect((await themes(path, method, other.session)).status, `${method} ${path}`).toBe(404);
    }
    expect(await stored("guarded")).toBe(Object.keys(env.TEST_DEFAULT_THEME).length);
  });
});
