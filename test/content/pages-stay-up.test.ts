import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCategory } from "../../src/content/admin/categories";
import { putContentTag } from "../../src/content/admin/tags";
import { database } from "../../src/platform/database";
import { admin, createTestTenant, installDefaultTheme, ownerScope, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";

let tenant: TestTenant;
let slug: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  slug = await siteSlug(tenant.siteId);
  await seedContent(tenant, { title: "Harbour reopens", tags: ["%", "ports"] });
  // The default theme, reading a posts tag on every page as a theme may.
  const base = env.TEST_DEFAULT_THEME["layouts/base.html.j2"]!.replace(
    "</body>",
    "<aside>{% for post in tags.latest %}{{ post.title }}{% endfor %}</aside></body>",
  );
  await installDefaultTheme(tenant.siteId, { ...env.TEST_DEFAULT_THEME, "layouts/base.html.j2": base });
});

describe("API8 · tenant pages: a reader's odd address is a page or a 404, never a 500", () => {
  it.each(["/tag/%25", "/tag/%E0%A4%A", "/tag/%", "/tag/%FF%FE", "/c/%25", "/%25/%25"])("answers %s without a 500", async (path) => {
    const res = await sitePage(slug, path);
    expect([200, 404]).toContain(res.status);
  });

  it("finds a tag named % at /tag/%25", async () => {
    const res = await sitePage(slug, "/tag/%25");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Harbour reopens");
  });
});

describe("API8 · tenant pages: a stale content tag never takes the site down", () => {
  it("shows the site when a posts tag names a category deleted behind its back", async () => {
    const db = database(env);
    const scope = ownerScope(tenant);
    const gone = await createCategory(db, scope, { siteId: tenant.siteId, name: "Gone", slug: "gone" });
    await putContentTag(db, scope, {
      siteId: tenant.siteId,
      type: "posts",
      name: "latest",
      definition: { categories: [gone.id], order: "newest", limit: 5 },
    });
    // A row of before this check: the category removed without asking.
    await env.DB.prepare("DELETE FROM categories WHERE id = ?").bind(gone.id).run();
    await env.DB.prepare("UPDATE sites SET content_version = content_version + 1 WHERE id = ?").bind(tenant.siteId).run();
    const res = await sitePage(slug, "/harbour-reopens?after-delete");
    expect(res.status).toBe(200);
  });

  it("refuses to delete a category that a taxonomy or posts tag names, saying which", async () => {
    const db = database(env);
    const scope = ownerScope(tenant);
    const kept = await createCategory(db, scope, { siteId: tenant.siteId, name: "Kept", slug: "kept" });
    await putContentTag(db, scope, { siteId: tenant.siteId, type: "taxonomy", name: "sections", definition: { categories: [kept.id] } });
    const res = await admin("DELETE", `/tenants/${tenant.tenantId}/categories/${kept.id}`, tenant.session);
    expect(res.status).toBe(409);
    expect((await res.json<{ error: { message: string } }>()).error.message).toBe("The content tags sections name the category; change them first");
  });
});

describe("API8 · admin answers: links only to http(s) and the site's paths, nothing cached", () => {
  it.each([["canonical"], ["coverImages"]])("refuses javascript:, data: and protocol-relative addresses in %s", async (field) => {
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "//evil.example/x",
      " https://x.example",
    ]) {
      const res = await admin("POST", `/tenants/${tenant.tenantId}/contents`, tenant.session, {
        siteId: tenant.siteId,
        title: "Link",
        slug: `link-${Date.now()}`,
        language: "en",
        [field]: bad,
      });
      expect(res.status).toBe(400);
      expect((await res.json<{ error: { message: string } }>()).error.message).toContain(
        "must be an http(s) URL or a path of the site starting with /",
      );
    }
    const good = await admin("POST", `/tenants/${tenant.tenantId}/contents`, tenant.session, {
      siteId: tenant.siteId,
      title: "Link",
      slug: `link-ok-${field.toLowerCase()}`,
      language: "en",
      [field]: "/media/1/1/a.png",
    });
    expect(good.status).toBe(201);
  });

  it("marks the CSRF token's answers and every admin answer no-store", async () => {
    const started = await admin("POST", "/session", tenant.session);
    expect(started.headers.get("Cache-Control")).toBe("no-store");
    const cookie = /gw_console=[^;]+/.exec(started.headers.get("Set-Cookie")!)![0];
    const { call } = await import("../helpers/requests");
    expect((await call("/admin/api/session", { headers: { Cookie: cookie } })).headers.get("Cache-Control")).toBe("no-store");
    expect((await admin("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session)).headers.get("Cache-Control")).toBe("no-store");
  });
});
