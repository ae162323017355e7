import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, installDefaultTheme, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  await installDefaultTheme(tenant.siteId);
  slug = await siteSlug(tenant.siteId);
});

const patch = (id: number, body: Record<string, unknown>) => admin("PATCH", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session, body);
const redirectsOf = async () =>
  (
    await (
      await admin("GET", `/tenants/${tenant.tenantId}/sites/${tenant.siteId}/redirects`, tenant.session)
    ).json<{
      data: { fromPath: string; toUrl: string; status: number }[];
    }>()
  ).data;
const followed = (path: string) => sitePage(slug, path, { redirect: "manual" });

describe("a published content given another address", () => {
  it("leaves its old address redirecting to the new one, without chains, and takes it back when it moves back", async () => {
    const id = await seedContent(tenant, { title: "Harbour festival" });
    expect((await patch(id, { slug: "harbour-festival-2026" })).status).toBe(200);
    const old = await followed("/harbour-festival");
    expect(old.status).toBe(301);
    expect(old.headers.get("Location")).toBe("/harbour-festival-2026");
    expect((await followed("/harbour-festival-2026")).status).toBe(200);

    // Moved again: the first address leads straight to the newest, not through the second.
    expect((await patch(id, { slug: "festival" })).status).toBe(200);
    expect((await followed("/harbour-festival")).headers.get("Location")).toBe("/festival");
    expect((await followed("/harbour-festival-2026")).headers.get("Location")).toBe("/festival");

    // Back to its first address: the page answers there again, and no redirect hides it.
    expect((await patch(id, { slug: "harbour-festival" })).status).toBe(200);
    expect((await followed("/harbour-festival")).status).toBe(200);
    expect(await redirectsOf()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fromPath: "/festival", toUrl: "/harbour-festival", status: 301 }),
        expect.objectContaining({ fromPath: "/harbour-festival-2026", toUrl: "/harbour-festival", status: 301 }),
      ]),
    );
    expect((await redirectsOf()).map((r) => r.fromPath)).not.toContain("/harbour-festival");
  });

  it("redirects to its address in its new language", async () => {
    const id = await seedContent(tenant, { title: "Ferry timetable" });
    expect((await patch(id, { language: "de" })).status).toBe(200);
    expect((await followed("/ferry-timetable")).headers.get("Location")).toBe("/de/ferry-timetable");
  });

  it("makes no redirect for a draft or a content scheduled for later, whose address nobody has yet", async () => {
    const draft = await seedContent(tenant, { title: "Quiet draft", publishAt: null });
    const later = await seedContent(tenant, { title: "Later story", publishAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await patch(draft, { slug: "quiet-draft-2" })).status).toBe(200);
    expect((await patch(later, { slug: "later-story-2" })).status).toBe(200);
    const from = (await redirectsOf()).map((r) => r.fromPath);
    expect(from).not.toContain("/quiet-draft");
    expect(from).not.toContain("/later-story");
  });
});
