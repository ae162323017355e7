import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestTenant, headless, installDefaultTheme, seedContent, sitePage, type TestTenant } from "../helpers/content";

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = (await env.DB.prepare("SELECT slug FROM sites WHERE id = ?").bind(tenant.siteId).first<{ slug: string }>())!.slug;
  await seedContent(tenant, { title: "Already out" });
  await installDefaultTheme(tenant.siteId);
});
afterEach(() => vi.useRealTimers());

describe("cached answers and scheduled contents", () => {
  it("lists a scheduled content on the cached home page and in C1 at its time, not minutes later", async () => {
    const at = new Date(Date.now() + 5 * 60_000);
    await seedContent(tenant, { title: "Night trains return", publishAt: at.toISOString() });
    // Both answers are cached before the time comes, without the scheduled content.
    for (let i = 0; i < 2; i++) {
      expect(await (await sitePage(slug, "/")).text()).not.toContain("Night trains return");
      expect(await (await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token)).text()).not.toContain("Night trains return");
    }
    expect((await sitePage(slug, "/")).headers.get("X-Cache")).toBe("HIT");
    // One second past its time, with nothing else changed on the site (and past the isolate's site cache).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(at.getTime() + 11_000);
    const home = await sitePage(slug, "/");
    expect(await home.text()).toContain("Night trains return");
    expect(home.headers.get("X-Cache")).toBe("MISS");
    expect(await (await headless(`/api/mcp/contents?siteId=${tenant.siteId}`, tenant.token)).text()).toContain("Night trains return");
    // And the new answer is cached in turn.
    expect((await sitePage(slug, "/")).headers.get("X-Cache")).toBe("HIT");
  });

  it("gives pages an ETag and answers 304 to a reader who has the page", async () => {
    const first = await sitePage(slug, "/already-out");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"v\d+s\d+t[0-9a-f]+-[0-9a-f]{16}"$/);
    expect(first.headers.get("Cache-Control")).toBe("public, max-age=60, stale-while-revalidate=300");
    const again = await sitePage(slug, "/already-out", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});
