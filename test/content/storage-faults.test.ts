import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { ABANDONED_AFTER_MS, cleanUpStorage } from "../../src/content/storage-cleanup";
import { logger } from "../../src/platform/logging";
import { createTestTenant, PIXEL_PNG, type TestTenant, siteSlug } from "../helpers/content";
import { expectRetryLater, Faults, forEachFault } from "../helpers/faults";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };

let tenant: TestTenant;
let slug: string;
/** Requests with the real bindings, through the same module as the failing ones (its isolate caches included). */
const plain = new Faults();
const log = logger({ test: "storage-faults" });

beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
});

/** A theme of four files (each a call that fails in turn) whose home page and stylesheet carry `marker`. */
const themeFiles = (marker: string): Record<string, string> => ({
  "layouts/base.html.j2": `<!doctype html><link rel="stylesheet" href="{{ asset('css/site.css') }}">{% block main %}{% endblock %}`,
  "templates/index.html.j2": `{% extends "layouts/base.html.j2" %}{% block main %}<p id="marker">${marker}</p>{% endblock %}`,
  "templates/404.html.j2": `{% extends "layouts/base.html.j2" %}{% block main %}Not found{% endblock %}`,
  "assets/css/site.css": `p { color: navy }\n/* ${marker} */`,
});
const FILES = Object.keys(themeFiles("")).sort();
const themeZip = (marker: string) => zipSync(Object.fromEntries(Object.entries(themeFiles(marker)).map(([path, text]) => [path, strToU8(text)])));

const admin = (path: string, init: RequestInit = {}) => ({
  path: `/admin/api/tenants/${tenant.tenantId}${path}`,
  init: { ...init, headers: { Authorization: `Bearer ${tenant.session}`, ...init.headers } },
});
const uploadRequest = (name: string, marker: string) =>
  admin(`/sites/${tenant.siteId}/themes?name=${name}`, { method: "POST", headers: { "Content-Type": "application/zip" }, body: themeZip(marker) });
const send = (faults: Faults, request: { path: string; init: RequestInit }) => faults.fetch(request.path, request.init);

/** The marker at the end of the stylesheet at `address` on the site's host. */
const cssMarker = async (address: string | undefined) =>
  address ? /\/\* ([^*]*) \*\/\s*$/.exec(await (await plain.fetch(`http://${slug}.localhost${address}`)).text())?.[1] : undefined;

/** What a reader of the site sees now: the home page's marker, and the marker at the end of the stylesheet its page links. */
async function readerSees() {
  const page = await plain.fetch(`http://${slug}.localhost/`);
  const html = await page.text();
  const stylesheet = /href="(\/themes\/[^"]+\/css\/site\.css[^"]*)"/.exec(html)?.[1];
  return { status: page.status, page: /<p id="marker">([^<]*)<\/p>/.exec(html)?.[1], css: await cssMarker(stylesheet), stylesheet };
}

const versions = (name: string) =>
  env.DB.prepare("SELECT version, live FROM theme_versions WHERE site_id = ? AND name = ? ORDER BY id")
    .bind(tenant.siteId, name)
    .all<{ version: string; live: number }>()
    .then((rows) => rows.results);
const storedUnder = async (prefix: string) => (await env.THEMES.list({ prefix })).objects.map((o) => o.key.slice(prefix.length)).sort();

/** A failed call answers 503 with Retry-After in the group's envelope, saying nothing of the failure. */
async function expectUnavailable(res: Response, faults: Faults) {
  expect(res.status, `${faults.failed} failed`).toBe(503);
  expect((await expectRetryLater<Envelope<never>>(res)).success).toBe(false);
}

describe("a theme upload and activation when D1 or R2 fails", () => {
  beforeAll(async () => {
    expect((await send(plain, uploadRequest("harbour", "one"))).status).toBe(201);
    expect((await send(plain, admin(`/sites/${tenant.siteId}/themes/harbour/activate`, { method: "POST" }))).status).toBe(200);
    expect(await readerSees()).toMatchObject({ status: 200, page: "one", css: "one" });
  });

  it("keeps serving the previous version whole while an upload over it fails at any call, and a retry makes one version live", async () => {
    const [before] = await versions("harbour");
    const { stylesheet: oldStylesheet } = await readerSees();
    const failed = await forEachFault(
      async (faults) => {
        const res = await send(faults, uploadRequest("harbour", "two"));
        if (faults.failed === undefined) return void expect(res.status).toBe(201);
        await expectUnavailable(res, faults);
        expect(await readerSees(), `after ${faults.failed}`).toMatchObject({ status: 200, page: "one", css: "one" });
        expect((await versions("harbour")).filter((v) => v.live)).toEqual([{ version: before!.version, live: 1 }]);
      },
      ["DB", "THEMES"],
    );
    // Every R2 put of the new files failed once, and the one write that makes it live.
    expect(failed.filter((call) => call.startsWith("THEMES put"))).toHaveLength(FILES.length);
    // The last call of all: the batch that makes it live, with its audit entry.
    expect(failed.at(-1)).toBe("DB batch of 2");

    expect(await readerSees()).toMatchObject({ status: 200, page: "two", css: "two" });
    // A page of the old version (in a cache, or rendered by an isolate that has not read the site since) keeps its own stylesheet.
    expect(oldStylesheet).toContain(`?v=${before!.version}`);
    expect(await cssMarker(oldStylesheet)).toBe("one");
    const live = (await versions("harbour")).filter((v) => v.live);
    expect(live).toHaveLength(1);
    const prefix = (version: string) => `themes/${tenant.siteId}/harbour/versions/${version}/`;
    expect(await storedUnder(prefix(live[0]!.version))).toEqual(FILES);

    // An upload in flight (its row written a moment ago) and the version just replaced are left alone within the hour …
    const inFlight = "inflight-0001";
    await env.DB.prepare("INSERT INTO theme_versions (site_id, name, version, updated_at) VALUES (?, 'harbour', ?, ?)")
      .bind(tenant.siteId, inFlight, new Date().toISOString())
      .run();
    await env.THEMES.put(`${prefix(inFlight)}templates/index.html.j2`, "half");
    await cleanUpStorage(env, log, Date.now() + ABANDONED_AFTER_MS / 2);
    expect(await storedUnder(prefix(before!.version))).toHaveLength(FILES.length);
    expect(await storedUnder(prefix(inFlight))).toEqual(["templates/index.html.j2"]);

    // … and removed after it, files and rows: every abandoned upload, never the live version.
    await cleanUpStorage(env, log, Date.now() + 2 * ABANDONED_AFTER_MS);
    expect(await versions("harbour")).toEqual(live);
    expect((await plain.fetch(`http://${slug}.localhost${oldStylesheet}`)).status).toBe(404);
    expect((await storedUnder(`themes/${tenant.siteId}/harbour/versions/`)).every((key) => key.startsWith(`${live[0]!.version}/`))).toBe(true);
    expect(await readerSees()).toMatchObject({ status: 200, page: "two", css: "two" });
  });

  it("activates a theme in one write: a failed activation changes nothing, a retry activates it once", async () => {
    expect((await send(plain, uploadRequest("spare", "spare"))).status).toBe(201);
    const activations = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE tenant_id = ? AND action = 'activate-theme' AND subject LIKE '%: spare %'")
        .bind(tenant.tenantId)
        .first<{ n: number }>()
        .then((row) => row!.n);
    await forEachFault(
      async (faults) => {
        const res = await send(faults, admin(`/sites/${tenant.siteId}/themes/spare/activate`, { method: "POST" }));
        if (faults.failed === undefined) return void expect(res.status).toBe(200);
        await expectUnavailable(res, faults);
        expect(await readerSees()).toMatchObject({ page: "two" });
        expect(await activations()).toBe(0);
      },
      ["DB", "THEMES"],
    );
    expect(await readerSees()).toMatchObject({ status: 200, page: "spare", css: "spare" });
    expect(await activations()).toBe(1);
    expect((await send(plain, admin(`/sites/${tenant.siteId}/themes/harbour/activate`, { method: "POST" }))).status).toBe(200);
  });
});

describe("a media upload when D1 or R2 fails", () => {
  it("notes the key before the object is stored, leaves no row and no object behind a failure, and a retry stores it once", async () => {
    const filename = `fault-${crypto.randomUUID()}.png`;
    const upload = admin(`/media?siteId=${tenant.siteId}&filename=${filename}`, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: PIXEL_PNG,
    });
    const rows = () =>
      env.DB.prepare("SELECT key FROM media WHERE tenant_id = ? AND filename = ?")
        .bind(tenant.tenantId, filename)
        .all<{ key: string }>()
        .then((r) => r.results.map((row) => row.key));
    let order: string[] = [];
    await forEachFault(
      async (faults) => {
        const res = await send(faults, upload);
        if (faults.failed === undefined) {
          order = faults.seen;
          return void expect(res.status).toBe(201);
        }
        await expectUnavailable(res, faults);
        expect(await rows()).toEqual([]);
      },
      ["DB", "MEDIA"],
    );
    // The note comes first, so that an object stored before a crash is named somewhere.
    const noted = order.indexOf("DB insert media_uploads");
    expect(noted).toBeGreaterThanOrEqual(0);
    expect(noted).toBeLessThan(order.findIndex((call) => call.startsWith("MEDIA put")));
    const [key] = await rows();
    expect(key).toBeDefined();

    // A crash between the object and its row: the note and the object, no row. The cleanup removes it after the hour, not the stored one.
    const orphan = `${tenant.tenantId}/${tenant.siteId}/crashedbeforeitsrow.png`;
    await env.DB.prepare("INSERT INTO media_uploads (key, created_at) VALUES (?, ?)").bind(orphan, new Date().toISOString()).run();
    await env.MEDIA.put(orphan, PIXEL_PNG);
    await cleanUpStorage(env, log, Date.now() + ABANDONED_AFTER_MS / 2);
    expect(await env.MEDIA.head(orphan)).not.toBeNull();
    await cleanUpStorage(env, log, Date.now() + 2 * ABANDONED_AFTER_MS);
    expect(await env.MEDIA.head(orphan)).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media_uploads WHERE key = ?").bind(orphan).first("n")).toBe(0);
    const stored = (await env.MEDIA.list({ prefix: `${tenant.tenantId}/${tenant.siteId}/` })).objects.map((o) => o.key);
    expect(stored).toEqual([key]);
  });
});
