import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createSite, sitesRoomOf } from "../../src/content/admin/sites";
import { drawAds, shownAds } from "../../src/content/sites/ads";
import { memberScope, siteById } from "../../src/content/tenancy/scope";
import { database } from "../../src/platform/database";
import { admin, createTestTenant, PIXEL_PNG, seedContent, type TestTenant } from "../helpers/content";
import { call } from "../helpers/requests";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
const PNG = PIXEL_PNG;

async function uploadImage(tenant: TestTenant, siteId = tenant.siteId): Promise<number> {
  const res = await call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${siteId}&filename=ad.png`, {
    method: "POST",
    headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "image/png" },
    body: PNG,
  });
  expect(res.status).toBe(201);
  return (await res.json<Envelope<{ id: number }>>()).data.id;
}

async function send<T = Record<string, unknown>>(tenant: TestTenant, method: string, path: string, body?: unknown) {
  const res = await admin(method, `/tenants/${tenant.tenantId}${path}`, tenant.session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
}

let mine: TestTenant;
let theirs: TestTenant;
let theirImage: number;
beforeAll(async () => {
  [mine, theirs] = await Promise.all([createTestTenant(), createTestTenant()]);
  theirImage = await uploadImage(theirs);
});

describe("API1 · ads: a media id in a body is the caller's own, whatever the ad's kind", () => {
  const htmlAd = (extra: Record<string, unknown>) => ({
    siteId: mine.siteId,
    kind: "html",
    slot: "top",
    html: "<b>Sale</b>",
    startsAt: "2026-01-01T00:00:00Z",
    ...extra,
  });

  it("refuses an HTML ad created with another tenant's media id", async () => {
    const { status, body } = await send(mine, "POST", "/ads", htmlAd({ mediaId: theirImage }));
    expect(status).toBe(400);
    expect(body.error!.message).toBe(`mediaId: no image ${theirImage} in site ${mine.siteId}: choose one of the site's images`);
  });

  it("refuses an HTML ad patched to another tenant's media id, and never shows that media's address", async () => {
    const created = await send<{ id: number }>(mine, "POST", "/ads", htmlAd({ slot: `html-${Date.now()}` }));
    expect(created.status).toBe(201);
    const patched = await send(mine, "PATCH", `/ads/${created.body.data.id}`, { mediaId: theirImage });
    expect(patched.status).toBe(400);
    // Even a row written before this check cannot reach the other tenant's media from a page.
    await env.DB.prepare("UPDATE ads SET media_id = ? WHERE id = ?").bind(theirImage, created.body.data.id).run();
    const site = (await siteById(database(env), mine.siteId))!;
    const shown = await shownAds(await drawAds(database(env), site, site.defaultLanguage, new Date().toISOString()));
    expect(Object.values(shown).every((ad) => ad.imageUrl === null)).toBe(true);
  });

  it("refuses an image ad with an image of another site of the same tenant", async () => {
    const second = await createSite(database(env), memberScope(mine.tenantId), { name: "Second", slug: `second-${mine.siteId}` }, sitesRoomOf(env));
    const image = await uploadImage(mine, second.id);
    const { status } = await send(mine, "POST", "/ads", {
      siteId: mine.siteId,
      kind: "image",
      slot: "side",
      mediaId: image,
      startsAt: "2026-01-01T00:00:00Z",
    });
    expect(status).toBe(400);
    expect(
      (
        await send(mine, "POST", "/ads", {
          siteId: mine.siteId,
          kind: "image",
          slot: "side",
          mediaId: await uploadImage(mine),
          startsAt: "2026-01-01T00:00:00Z",
        })
      ).status,
    ).toBe(201);
  });
});

describe("API1 · contents: a PATCH makes the same translationOf checks as a POST", () => {
  it("refuses another tenant's content, another site's, and the content itself", async () => {
    const own = await seedContent(mine, { title: "Own story" });
    const foreign = await seedContent(theirs, { title: "Their story" });
    const second = await createSite(database(env), memberScope(mine.tenantId), { name: "Third", slug: `third-${mine.siteId}` }, sitesRoomOf(env));
    const elsewhere = await seedContent({ ...mine, siteId: second.id }, { title: "Elsewhere" });
    const cases: [number, string][] = [
      [foreign, `translationOf: no content with id ${foreign}`],
      [elsewhere, "translationOf: the original is a content of another site"],
      [own, "translationOf: a content cannot be a translation of itself"],
    ];
    for (const [translationOf, message] of cases) {
      const { status, body } = await send(mine, "PATCH", `/contents/${own}`, { translationOf });
      expect(status).toBe(400);
      expect(body.error!.message).toBe(message);
    }
    // A key bound to the site does not see the other tenant's title through C2's translations.
    const detail = await (
      await call(`/api/mcp/contents/${own}`, { headers: { "X-API-Key": mine.token } })
    ).json<
      Envelope<{
        translations: { title: string }[];
      }>
    >();
    expect(JSON.stringify(detail.data)).not.toContain("Their story");
  });

  it("still ties a translation to an original of the same site", async () => {
    const original = await seedContent(mine, { title: "Harbour" });
    const german = await seedContent(mine, { title: "Hafen", language: "de" });
    const { status, body } = await send<{ translationOf: number }>(mine, "PATCH", `/contents/${german}`, { translationOf: original });
    expect(status).toBe(200);
    expect(body.data.translationOf).toBe(original);
  });
});
