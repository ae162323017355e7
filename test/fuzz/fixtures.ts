/**
 * What the schema fuzzer sends with an operation: the credential its OpenAPI `security` names, as
 * the group behind the path issues it, and real objects of that credential's owner to name in the
 * path, query and body. Without them a valid request to groups C and D stops at authentication or
 * at a 404 of an id nobody has, and tests nothing else.
 *
 * - A (and P's app tokens): a user with the admin role on the `internal` plan, its key and JWT.
 * - T, I, O, scheduler: an admin's data-service key with its secret.
 * - C content API (`/api/mcp/*`, `/api/skills/*`): a tenant key (svc_tk_) of a tenant with a site.
 * - C admin API (`/admin/api/*`): that tenant's owner, by JWT (Bearer) or by the console's session
 *   (the `gw_console` cookie and `X-CSRF-Token` for writes) as `POST /admin/api/session` hands out.
 * - D (`/deposits/*`): a group A key with `miniprogram:*` and a configuration at the stage the
 *   operation needs (authorized, name verified, profile updated, code committed, audit submitted
 *   or passed), taken there through the sandbox.
 *
 * Besides ids, `known` holds plausible values for fields whose pattern the fuzzer cannot invent
 * (slugs, slot codes, language codes, paths), so that more valid requests get past validation.
 */
import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { vi } from "vitest";
import { cookieValue, createUser, sessionFor } from "../helpers/accounts";
import { createTestTenant, installDefaultTheme, memberWith, type TestTenant } from "../helpers/content";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, type DAnswer, deposits, miniprogramKey, readyForAudit, steerAudit } from "../helpers/miniprograms";
import { createTestApp } from "../helpers/pickups";
import { call, secretHeaders } from "../helpers/requests";

export type Headers = Record<string, string>;

/** One way to meet a security requirement; `writes` adds what a write needs on top (a CSRF token). */
export interface Credential {
  scheme: string;
  headers: Headers;
  writes?: Headers;
}

/** A known value made anew at each use (a slug that must be unique, say). */
export class Fresh {
  constructor(readonly make: () => unknown) {}
}

export interface Fixture {
  /** A credential for each security requirement of the operation that the fuzzer can meet. */
  credentials: Credential[];
  /** Parameter and body field values by name: ids of real objects the credential may touch. */
  known: Record<string, unknown>;
  /** A valid body by media type, where JSON Schema cannot describe one (an image, a zip). */
  binary: Record<string, Uint8Array>;
}

export interface OperationShape {
  template: string;
  method: string;
  security: Record<string, string[]>[];
  /** Every parameter and body property name the operation's schemas mention. */
  names: Set<string>;
}

/** Which credentials a path's group issues. */
export type Area = "content-api" | "content-admin" | "content-media" | "miniprograms" | "other";

export function areaOf(template: string): Area {
  if (template.startsWith("/admin/api/")) return "content-admin";
  // Public, but named by a real file's address, so a valid request reaches the file.
  if (template.startsWith("/media/")) return "content-media";
  if (template.startsWith("/api/mcp") || template.startsWith("/api/skills")) return "content-api";
  if (template.startsWith("/deposits/") && !template.startsWith("/deposits/codes/")) return "miniprograms";
  return "other";
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
/** A 1×1 PNG: the media upload checks the file's signature against its type. */
const PIXEL = fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");
let themeZip: Uint8Array | undefined;
/** The default theme as a zip (built once): what a valid theme upload sends. */
const defaultThemeZip = () =>
  (themeZip ??= zipSync(Object.fromEntries(Object.entries(env.TEST_DEFAULT_THEME).map(([path, text]) => [path, strToU8(text)]))));

async function expectCreated<T>(what: string, response: Promise<Response>): Promise<T> {
  const res = await response;
  const body = await res.json<{ data: T }>();
  if (res.status >= 300) throw new Error(`the fuzz fixture could not create ${what}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** The owner's admin API, by JWT, for building the fixture's objects. */
function ownerCall(tenant: TestTenant, method: string, path: string, body?: unknown, contentType = "application/json") {
  const raw = body instanceof Uint8Array;
  return call(`/admin/api/tenants/${tenant.tenantId}${path}`, {
    method,
    headers: { Authorization: `Bearer ${tenant.session}`, ...(body === undefined ? {} : { "Content-Type": contentType }) },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
}

/** A console session started the way the console starts one: the cookie, and the token for writes. */
async function consoleSession(jwt: string): Promise<Credential> {
  const res = await call("/admin/api/session", { method: "POST", headers: { Authorization: `Bearer ${jwt}` } });
  const body = await res.json<{ data: { csrfToken: string } }>();
  const cookie = cookieValue(res, "gw_console");
  if (res.status !== 200 || !cookie) throw new Error(`POST /admin/api/session answered ${res.status} without a gw_console cookie`);
  return { scheme: "ConsoleSession", headers: { Cookie: `gw_console=${cookie}` }, writes: { "X-CSRF-Token": body.data.csrfToken } };
}

/** The collection a `{id}` of a content path names: the segment before it. */
function collectionOf(template: string): string | undefined {
  return /\/([a-z]+)\/\{id\}/.exec(template)?.[1];
}

/**
 * Group C: a tenant with one site on the `internal` plan, and, as the operation needs them, a
 * content (published, with a category), a category, a content tag, a tenant key, a media file, a
 * redirect, an ad, a second member or a claimed host name. `renew` makes what a DELETE may have
 * destroyed again; the console session only after `DELETE /admin/api/session`, the one DELETE
 * that ends it; and a whole new tenant and owner after `POST /admin/api/tenants`, since an
 * account may own only a few tenants.
 */
async function contentFixture(shape: OperationShape, area: Area): Promise<Made> {
  const tenant = await createTestTenant({ plan: "internal" });
  const { names, template } = shape;
  const build = async (previous?: Credential[]): Promise<Fixture> => {
    const known: Record<string, unknown> = {
      tenantId: tenant.tenantId,
      siteId: tenant.siteId,
      siteIds: [tenant.siteId],
      translationOf: null,
      parentId: null,
      slug: new Fresh(() => `fuzz-${crypto.randomUUID().slice(0, 8)}`),
      slot: "top",
      language: "en",
      defaultLanguage: "en",
      languages: ["en", "de"],
      timezone: "Europe/Berlin",
      url: "/",
      sourceLang: "en",
      targetLang: "de",
      theme: "default",
      primaryDomain: null,
      aliases: [],
      fromPath: "/fuzzed-old",
      toUrl: "/fuzzed-new",
      link: "https://example.com/landing",
      canonical: "/fuzzed",
      coverImages: "/cover.png",
      seoImage: "/image.png",
    };
    const collection = collectionOf(template);
    const needs = (what: string) =>
      collection === what || (what === "categories" && (names.has("categoryIds") || names.has("categoryId") || names.has("ids")));
    if (needs("categories")) {
      const category = await expectCreated<{ id: number }>(
        "a category",
        ownerCall(tenant, "POST", "/categories", { siteId: tenant.siteId, name: "Fuzz", slug: `fuzz-${crypto.randomUUID().slice(0, 8)}` }),
      );
      Object.assign(known, { categoryId: category.id, categoryIds: [category.id], ids: [category.id], parentId: null });
      if (collection === "categories") known.id = category.id;
    }
    if (collection === "contents") {
      const content = await expectCreated<{ id: number }>(
        "a content",
        ownerCall(tenant, "POST", "/contents", {
          siteId: tenant.siteId,
          title: "Fuzzed story",
          slug: `fuzzed-${crypto.randomUUID().slice(0, 8)}`,
          language: "en",
          bodyMarkdown: "# Fuzzed\n\nText.",
        }),
      );
      // The content API shows only what is published; a second save gives the versions routes two.
      if (area === "content-api") await expectCreated("a publication", ownerCall(tenant, "POST", `/contents/${content.id}/publish`, {}));
      if (template.includes("/versions"))
        await expectCreated("a second version", ownerCall(tenant, "PATCH", `/contents/${content.id}`, { intro: "Saved again" }));
      Object.assign(known, { id: content.id, version: 1 });
    }
    if (collection === "tags")
      known.id = (
        await expectCreated<{ id: number }>(
          "a content tag",
          ownerCall(tenant, "PUT", "/tags", {
            siteId: tenant.siteId,
            type: "menu",
            name: "main",
            definition: { items: [{ label: "Home", link: { url: "/" } }] },
          }),
        )
      ).id;
    if (collection === "keys")
      known.id = (await expectCreated<{ id: number }>("a tenant key", ownerCall(tenant, "POST", "/keys", { name: "fuzz" }))).id;
    if (collection === "media" || names.has("mediaId") || area === "content-media") {
      const media = await expectCreated<{ id: number; url: string }>(
        "a media file",
        call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${tenant.siteId}&filename=pixel.png`, {
          method: "POST",
          headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "image/png" },
          body: PIXEL,
        }),
      );
      known.mediaId = media.id;
      // Its address is /media/{tenantId}/{siteId}/{file}.
      if (area === "content-media") known.file = media.url.split("/").at(-1);
      if (collection === "media") known.id = media.id;
    }
    if (collection === "redirects")
      known.id = (
        await expectCreated<{ id: number }>(
          "a redirect",
          ownerCall(tenant, "PUT", "/redirects", { siteId: tenant.siteId, fromPath: "/old", toUrl: "/new" }),
        )
      ).id;
    if (collection === "ads")
      known.id = (
        await expectCreated<{ id: number }>(
          "an ad",
          ownerCall(tenant, "POST", "/ads", {
            siteId: tenant.siteId,
            kind: "html",
            slot: "top",
            html: "<b>Ad</b>",
            startsAt: "2026-01-01T00:00:00Z",
          }),
        )
      ).id;
    if (template.includes("/themes/{name}")) {
      await installDefaultTheme(tenant.siteId);
      known.name = "default";
      // A deletion needs a theme that is not the site's active one.
      if (shape.method === "delete") {
        for (const [path, text] of Object.entries(env.TEST_DEFAULT_THEME)) await env.THEMES.put(`themes/${tenant.siteId}/spare/${path}`, text);
        known.name = "spare";
      }
    } else if (template.endsWith("/themes")) known.name = "fuzzed";
    // A content tag's name is a slug.
    if (template.endsWith("/tags") && shape.method === "put") known.name = known.slug;
    if (template.endsWith("/media")) known.filename = "pixel.png";
    if (names.has("userId")) known.userId = (await memberWith(tenant, "viewer")).userId;
    if (names.has("invitationId"))
      known.invitationId = (
        await expectCreated<{ id: number }>(
          "an invitation",
          ownerCall(tenant, "POST", "/invitations", { email: `fuzz-${crypto.randomUUID().slice(0, 8)}@example.com`, role: "viewer" }),
        )
      ).id;
    if (template.endsWith("/domains/verify")) {
      // A host the site claims, not yet proved: the fake resolver has no TXT record for it.
      known.host = `fuzz-${crypto.randomUUID().slice(0, 8)}.example.com`;
      await expectCreated("a claimed host name", ownerCall(tenant, "PATCH", `/sites/${tenant.siteId}`, { primaryDomain: known.host }));
    }

    const credentials: Credential[] = previous ?? [];
    for (const requirement of previous ? [] : shape.security) {
      const schemes = Object.keys(requirement);
      if (schemes.length !== 1) continue;
      const scheme = schemes[0]!;
      if (scheme === "TenantKey" && area === "content-api") credentials.push({ scheme, headers: { "X-API-Key": tenant.token } });
      if (scheme === "Bearer" && area === "content-admin") credentials.push({ scheme, headers: { Authorization: `Bearer ${tenant.session}` } });
      if (scheme === "ConsoleSession" && area === "content-admin") credentials.push(await consoleSession(tenant.session));
    }
    return { credentials, known, binary: { "image/png": PIXEL, "application/zip": defaultThemeZip() } };
  };
  const fixture = await build();
  if (template === "/admin/api/tenants" && shape.method === "post")
    return { fixture, renew: async () => (await contentFixture(shape, area)).fixture, renewsAfter: "post" };
  const endsSession = template === "/admin/api/session";
  return { fixture, renew: () => build(endsSession ? undefined : fixture.credentials), renewsAfter: "delete" };
}

/** Where a configuration's icon and licence scan are fetched from (served by `serveAssets`). */
const ASSET = "https://assets.fuzz.example/image.png";

/**
 * The customer's image server at the HTTP boundary, in front of `fakeNetwork()`: D4 fetches the
 * icon and licence it is given. Call after `fakeNetwork()`.
 */
export function serveAssets() {
  const spy = vi.mocked(globalThis.fetch);
  const outside = spy.getMockImplementation();
  spy.mockImplementation(async (input, init) => {
    const url = new Request(input, init).url;
    if (url.startsWith(ASSET)) return new Response(PIXEL, { headers: { "Content-Type": "image/png" } });
    if (!outside) throw new Error("serveAssets() needs fakeNetwork() first");
    return outside(input, init);
  });
}

/** The stage each D write needs, in the order the sandbox reaches them (routes.ts's 409s). */
const STAGES = ["authorized", "name_verified", "profile_updated", "code_committed", "audit_submitted", "audit_passed"] as const;
const STAGE_NEEDED: Record<string, (typeof STAGES)[number]> = {
  "/deposits/wxa/update": "name_verified",
  "/deposits/wxa/codecommit": "profile_updated",
  "/deposits/wxa/submitaudit": "code_committed",
  "/deposits/wxa/tester/infor": "code_committed",
  "/deposits/wxa/tester/bind": "code_committed",
  "/deposits/wxa/auditstate": "audit_submitted",
  "/deposits/wxa/release": "audit_passed",
  "/deposits/wxa/privacy/code": "code_committed",
  "/deposits/wxa/pages": "code_committed",
  "/deposits/wxa/preflight": "code_committed",
  "/deposits/wxa/audit/withdraw": "audit_submitted",
  "/deposits/wxa/audit/speedup": "audit_submitted",
  "/deposits/wxa/release/phased": "audit_passed",
};

function expectSuccess(step: string, answer: DAnswer) {
  if (answer.status !== 200 || !answer.body.success)
    throw new Error(`the fuzz fixture's ${step} answered ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** An authorized configuration taken through the sandbox to `stage`. */
async function miniprogramAt(key: TestKey, stage: (typeof STAGES)[number], tplId: number) {
  const { id, appId } = await authorizedMiniprogram(key, "Fuzz Shop");
  const name = `Fuzz Shop ${id}`;
  const steps: Record<(typeof STAGES)[number], () => Promise<unknown>> = {
    authorized: async () => undefined,
    name_verified: async () => expectSuccess("name check", await deposits("/wxa/nameverify", key, { id, name })),
    profile_updated: async () =>
      expectSuccess(
        "profile update",
        await deposits("/wxa/update", key, { id, name, icon: ASSET, license: ASSET, licenseType: "business", explain: "Fuzzed" }),
      ),
    code_committed: async () => expectSuccess("code commit", await deposits("/wxa/codecommit", key, { id, tplId })),
    audit_submitted: async () => {
      // The sandbox's next audit passes, and at once: auditstate then moves the stage on.
      await readyForAudit(key, id);
      await steerAudit(appId, "pass", 0);
      expectSuccess("audit submission", await deposits("/wxa/submitaudit", key, { id }));
    },
    audit_passed: async () => expectSuccess("audit state", await deposits("/wxa/auditstate", key, { id })),
  };
  for (const step of STAGES.slice(0, STAGES.indexOf(stage) + 1)) await steps[step]();
  return id;
}

/** Group D: a key with `miniprogram:*` and, where the operation names one, a configuration at the stage it needs. */
async function miniprogramFixture(shape: OperationShape): Promise<Fixture> {
  const key = await miniprogramKey();
  const known: Record<string, unknown> = { icon: ASSET, license: ASSET };
  const templates = await deposits<{ Data: { Id: number }[] }>("/minipram/tpls", key);
  const tplId = templates.body.data.Data[0]?.Id;
  if (tplId === undefined) throw new Error("the sandbox has no code templates");
  known.tplId = tplId;
  if (shape.names.has("id")) known.id = await miniprogramAt(key, STAGE_NEEDED[shape.template] ?? "authorized", tplId);
  return { credentials: [{ scheme: "Bearer", headers: { Authorization: `Bearer ${key.token}` } }], known, binary: {} };
}

/** Groups A, P, T, I, O and the scheduler: the credentials the fuzzer always had, made as needed. */
async function otherFixture(shape: OperationShape): Promise<Fixture> {
  const credentials: Credential[] = [];
  for (const requirement of shape.security) {
    const schemes = Object.keys(requirement).sort().join("+");
    if (schemes === "DataKey+DataSecret") credentials.push({ scheme: schemes, headers: secretHeaders(await createTestKey({ role: "admin" })) });
    if (schemes === "Bearer")
      credentials.push({
        scheme: schemes,
        headers: { Authorization: `Bearer ${await sessionFor(await createUser({ role: "admin", plan: "internal" }))}` },
      });
    if (schemes === "PickupAppToken")
      credentials.push({ scheme: schemes, headers: { Authorization: `appToken ${(await createTestApp({ plan: "internal" })).appToken}` } });
  }
  return { credentials, known: {}, binary: {} };
}

/** A fixture, and how to make it again after a request of method `renewsAfter` succeeded. */
export interface Made {
  fixture: Fixture;
  renew: () => Promise<Fixture>;
  renewsAfter: string;
}

/**
 * The fixture of one operation. `renew` is called after a DELETE succeeded (or what else
 * `renewsAfter` names), since it may have destroyed or used up what the next requests name.
 */
export async function fixtureFor(shape: OperationShape): Promise<Made> {
  const area = areaOf(shape.template);
  if (area === "content-admin" || area === "content-api" || area === "content-media") return contentFixture(shape, area);
  const make = area === "miniprograms" ? () => miniprogramFixture(shape) : () => otherFixture(shape);
  return { fixture: await make(), renew: make, renewsAfter: "delete" };
}
