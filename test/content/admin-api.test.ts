import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { createUser, sessionFor, uniqueTag } from "../helpers/accounts";
import { admin, createTestTenant, headless, memberWith, seedContent, sitePage, siteSlug, type TestTenant } from "../helpers/content";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };

async function send<T = Record<string, unknown>>(method: string, path: string, session: string, body?: unknown) {
  const res = await admin(method, path, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>(), headers: res.headers };
}

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant();
});

describe("tenants and sites", () => {
  it("creates a tenant whose creator is its owner, and lists the caller's tenants", async () => {
    const session = await sessionFor(await createUser());
    const created = await send("POST", "/tenants", session, { name: "Daily Planet", slug: `planet-${Date.now()}` });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "Daily Planet", role: "owner" });
    const mine = await send<{ id: number }[]>("GET", "/tenants", session);
    expect(mine.body.data.map((t) => t.id)).toEqual([created.body.data.id]);
  });

  it("answers 409 for a taken site slug and 400 naming a bad field", async () => {
    const path = `/tenants/${tenant.tenantId}/sites`;
    const first = await send<{ id: number }>("POST", path, tenant.session, { name: "Blog", slug: `blog-${tenant.tenantId}` });
    expect(first.status).toBe(201);
    const again = await send("POST", path, tenant.session, { name: "Blog again", slug: `blog-${tenant.tenantId}` });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "conflict", message: `The site slug blog-${tenant.tenantId} is already taken` });
    const bad = await send("POST", path, tenant.session, { name: "X", slug: "Not A Slug" });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.message).toBe("The slug must be lower-case letters and digits joined by single dashes, like museum-night");
    const zone = await send("PATCH", `/tenants/${tenant.tenantId}/sites/${first.body.data.id}`, tenant.session, { timezone: "Mars/Olympus" });
    expect(zone.status).toBe(400);
    expect(zone.body.error!.message).toBe("Mars/Olympus is not a time zone we know: choose one such as Europe/Berlin or America/New_York");
  });
});

describe("contents through their life", () => {
  it("creates a draft, saves versions, restores one, publishes, unpublishes and deletes, with an audit trail", async () => {
    const base = `/tenants/${tenant.tenantId}/contents`;
    const created = await send<{ id: number; status: string; version: number; bodyHtml: string }>("POST", base, tenant.session, {
      siteId: tenant.siteId,
      title: "First words",
      slug: "first-words",
      language: "en",
      bodyMarkdown: "Hello *world*",
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: "draft", version: 1, bodyHtml: "<p>Hello <em>world</em></p>\n" });
    const id = created.body.data.id;

    const saved = await send("PATCH", `${base}/${id}`, tenant.session, { bodyMarkdown: "Hello **again**" });
    expect(saved.body.data).toMatchObject({ version: 2, bodyHtml: "<p>Hello <strong>again</strong></p>\n" });
    const versions = await send<{ version: number }[]>("GET", `${base}/${id}/versions`, tenant.session);
    expect(versions.body.data.map((v) => v.version)).toEqual([2, 1]);
    const restored = await send("POST", `${base}/${id}/versions/1/restore`, tenant.session);
    expect(restored.body.data).toMatchObject({ version: 3, bodyMarkdown: "Hello *world*" });

    const published = await send("POST", `${base}/${id}/publish`, tenant.session, {});
    expect(published.body.data).toMatchObject({ status: "published" });
    expect((await headless(`/api/mcp/contents/${id}`, tenant.token)).status).toBe(200);
    const scheduled = await send("POST", `${base}/${id}/publish`, tenant.session, { publishAt: "2099-01-01T00:00:00Z" });
    expect(scheduled.body.data).toMatchObject({ status: "scheduled", publishAt: "2099-01-01T00:00:00.000Z" });
    expect((await send("POST", `${base}/${id}/unpublish`, tenant.session)).body.data).toMatchObject({ status: "draft", publishAt: null });
    expect((await send("DELETE", `${base}/${id}`, tenant.session)).body.data).toEqual({ deleted: true, purgeAt: expect.any(String) });
    expect((await send("GET", `${base}/${id}`, tenant.session)).status).toBe(404);

    const audit = await send<{ action: string; subject: string; userId: number }[]>("GET", `/tenants/${tenant.tenantId}/audit`, tenant.session);
    // The draft's save is not in the log; its restore is, with the version it brought back.
    expect(audit.body.data.slice(0, 5).map((a) => a.action)).toEqual(["delete", "unpublish", "schedule", "publish", "restore-version"]);
    expect(audit.body.data[0]).toMatchObject({ userId: tenant.ownerId, subject: `content ${id} (First words)` });
    expect(audit.body.data[4]).toMatchObject({ userId: tenant.ownerId, subject: `content ${id} (First words) to version 1` });
  });

  it("refuses a body over 200,000 characters before rendering it, and categories of another site", async () => {
    const base = `/tenants/${tenant.tenantId}/contents`;
    const big = await send("POST", base, tenant.session, {
      siteId: tenant.siteId,
      title: "Big",
      slug: "big",
      language: "en",
      bodyMarkdown: "x".repeat(200_001),
    });
    expect(big.status).toBe(400);
    expect(big.body.error!.message).toBe("Body markdown must be at most 200000 characters");
    const other = await createTestTenant();
    const foreign = await send<{ id: number }>("POST", `/tenants/${other.tenantId}/categories`, other.session, {
      siteId: other.siteId,
      name: "Theirs",
      slug: "theirs",
    });
    const mixed = await send("POST", base, tenant.session, {
      siteId: tenant.siteId,
      title: "Mixed",
      slug: "mixed",
      language: "en",
      categoryIds: [foreign.body.data.id],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error!.message).toBe(`categoryIds: no category ${foreign.body.data.id} in site ${tenant.siteId}`);
  });

  it("lists the contents filed under a category, which keep it from being deleted, and keeps a renamed category's old addresses", async () => {
    const own = await createTestTenant();
    const base = `/tenants/${own.tenantId}/categories`;
    await send("PATCH", `/tenants/${own.tenantId}/sites/${own.siteId}`, own.session, { languages: ["en", "de"] });
    const ferries = await send<{ id: number }>("POST", base, own.session, { siteId: own.siteId, name: "Boats & Ferries", slug: "boats-ferries" });
    const other = await send<{ id: number }>("POST", base, own.session, { siteId: own.siteId, name: "Trains", slug: "trains" });
    const filed = await seedContent(own, { title: `Night ferry ${uniqueTag()}`, categoryIds: [ferries.body.data.id] });
    await seedContent(own, { title: `Night train ${uniqueTag()}`, categoryIds: [other.body.data.id] });
    await seedContent(own, { title: `Unfiled ${uniqueTag()}` });

    const refused = await send("DELETE", `${base}/${ferries.body.data.id}`, own.session);
    expect([refused.status, refused.body.error!.message]).toEqual([409, "A content is filed under the category: file it under another one first"]);
    const listed = await send<{ items: { id: number }[]; total: number }>(
      "GET",
      `/tenants/${own.tenantId}/contents?siteId=${own.siteId}&categoryId=${ferries.body.data.id}`,
      own.session,
    );
    expect([listed.body.data.items.map((item) => item.id), listed.body.data.total]).toEqual([[filed], 1]);
    // Another tenant's category names none of its contents; a bad id is a 400.
    const intruder = await createTestTenant();
    const foreign = await send<{ total: number }>(
      "GET",
      `/tenants/${intruder.tenantId}/contents?categoryId=${ferries.body.data.id}`,
      intruder.session,
    );
    expect(foreign.body.data.total).toBe(0);
    expect((await send("GET", `/tenants/${own.tenantId}/contents?categoryId=abc`, own.session)).status).toBe(400);

    // A new slug: the old address of its page leads to the new one, in each of the site's languages.
    expect((await send("PATCH", `${base}/${ferries.body.data.id}`, own.session, { slug: "ferries" })).status).toBe(200);
    const slug = await siteSlug(own.siteId);
    for (const [from, to] of [
      ["/c/boats-ferries", "/c/ferries"],
      ["/de/c/boats-ferries", "/de/c/ferries"],
    ]) {
      const moved = await sitePage(slug, from, { redirect: "manual" });
      expect([moved.status, moved.headers.get("Location")], from).toEqual([301, to]);
    }
    // A rename that keeps the slug makes no redirect.
    expect((await send("PATCH", `${base}/${other.body.data.id}`, own.session, { name: "Railways" })).status).toBe(200);
    const redirects = await send<{ fromPath: string }[]>("GET", `/tenants/${own.tenantId}/sites/${own.siteId}/redirects`, own.session);
    expect(redirects.body.data.map((r) => r.fromPath).sort()).toEqual(["/c/boats-ferries", "/de/c/boats-ferries"]);
  });

  it("keeps a category with children or contents, and refuses a cycle", async () => {
    const base = `/tenants/${tenant.tenantId}/categories`;
    const parent = await send<{ id: number }>("POST", base, tenant.session, { siteId: tenant.siteId, name: "World", slug: "world" });
    const child = await send<{ id: number }>("POST", base, tenant.session, {
      siteId: tenant.siteId,
      parentId: parent.body.data.id,
      name: "Europe",
      slug: "europe",
    });
    const blocked = await send("DELETE", `${base}/${parent.body.data.id}`, tenant.session);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error!.message).toBe("The category has a subcategory: move or delete it first");
    const cycle = await send("PATCH", `${base}/${parent.body.data.id}`, tenant.session, { parentId: child.body.data.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error!.message).toBe("parentId: a category cannot be placed below itself or one of its own subcategories");
    expect((await send("DELETE", `${base}/${child.body.data.id}`, tenant.session)).status).toBe(200);
  });
});

describe("roles", () => {
  it("lets a viewer read but not write", async () => {
    const viewer = await memberWith(tenant, "viewer");
    expect((await send("GET", `/tenants/${tenant.tenantId}/contents`, viewer.session)).status).toBe(200);
    const write = await send("POST", `/tenants/${tenant.tenantId}/contents`, viewer.session, {
      siteId: tenant.siteId,
      title: "No",
      slug: "no",
      language: "en",
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toEqual({ code: "forbidden", message: "This needs the author role; you are a viewer" });
  });

  it("lets an author write their own drafts only, and not publish", async () => {
    const author = await memberWith(tenant, "author");
    const base = `/tenants/${tenant.tenantId}/contents`;
    const own = await send<{ id: number }>("POST", base, author.session, {
      siteId: tenant.siteId,
      title: "Mine",
      slug: `mine-${author.userId}`,
      language: "en",
    });
    expect(own.status).toBe(201);
    expect((await send("PATCH", `${base}/${own.body.data.id}`, author.session, { title: "Mine, edited" })).status).toBe(200);
    expect((await send("POST", `${base}/${own.body.data.id}/publish`, author.session, {})).status).toBe(403);
    const others = await send<{ id: number }>("POST", base, tenant.session, {
      siteId: tenant.siteId,
      title: "Owner's",
      slug: `owners-${author.userId}`,
      language: "en",
    });
    const refused = await send("PATCH", `${base}/${others.body.data.id}`, author.session, { title: "Taken over" });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.message).toBe("An author may change only their own drafts");
  });

  it("lets an editor publish but not manage keys or members; the owner does", async () => {
    const editor = await memberWith(tenant, "editor");
    const draft = await send<{ id: number }>("POST", `/tenants/${tenant.tenantId}/contents`, tenant.session, {
      siteId: tenant.siteId,
      title: "For the editor",
      slug: `for-editor-${editor.userId}`,
      language: "en",
    });
    expect((await send("POST", `/tenants/${tenant.tenantId}/contents/${draft.body.data.id}/publish`, editor.session, {})).status).toBe(200);
    expect((await send("GET", `/tenants/${tenant.tenantId}/keys`, editor.session)).status).toBe(403);
    expect((await send("PUT", `/tenants/${tenant.tenantId}/members`, editor.session, { email: "x@example.com", role: "viewer" })).status).toBe(403);
  });
});

describe("reads and the remaining writes", () => {
  it("lists and changes sites, lists categories and contents by status, and puts, lists and deletes content tags", async () => {
    const base = `/tenants/${tenant.tenantId}`;
    const sites = await send<{ id: number }[]>("GET", `${base}/sites`, tenant.session);
    expect(sites.body.data.map((s) => s.id)).toContain(tenant.siteId);
    const renamed = await send("PATCH", `${base}/sites/${tenant.siteId}`, tenant.session, {
      name: "Renamed",
      seoDescription: "News of the city",
      aliases: [`alias-${tenant.siteId}.example.com`],
    });
    expect(renamed.body.data).toMatchObject({ name: "Renamed", seoDescription: "News of the city", aliases: [`alias-${tenant.siteId}.example.com`] });

    await send("POST", `${base}/categories`, tenant.session, { siteId: tenant.siteId, name: "Listed", slug: "listed" });
    const cats = await send<{ slug: string }[]>("GET", `${base}/sites/${tenant.siteId}/categories`, tenant.session);
    expect(cats.body.data.map((c) => c.slug)).toContain("listed");

    const draft = await send<{ id: number }>("POST", `${base}/contents`, tenant.session, {
      siteId: tenant.siteId,
      title: "Status filter",
      slug: "status-filter",
      language: "en",
    });
    const drafts = await send<{ items: { id: number; status: string }[] }>(
      "GET",
      `${base}/contents?status=draft&siteId=${tenant.siteId}&size=100`,
      tenant.session,
    );
    expect(drafts.body.data.items.map((i) => i.id)).toContain(draft.body.data.id);
    expect(drafts.body.data.items.every((i) => i.status === "draft")).toBe(true);
    expect((await send("GET", `${base}/contents?status=gone`, tenant.session)).status).toBe(400);

    const tag = await send<{ id: number }>("PUT", `${base}/tags`, tenant.session, {
      siteId: tenant.siteId,
      type: "taxonomy",
      name: "topics",
      definition: { tags: ["city", "sport"] },
    });
    expect(tag.body.data).toMatchObject({ type: "taxonomy", name: "topics", definition: { tags: ["city", "sport"] } });
    const tags = await send<{ name: string }[]>("GET", `${base}/sites/${tenant.siteId}/tags`, tenant.session);
    expect(tags.body.data.map((t) => t.name)).toContain("topics");
    const deep = await send("PUT", `${base}/tags`, tenant.session, {
      siteId: tenant.siteId,
      type: "menu",
      name: "too-deep",
      definition: {
        items: [
          {
            label: "a",
            link: { url: "/" },
            children: [{ label: "b", link: { url: "/" }, children: [{ label: "c", link: { url: "/" }, children: [] }] }],
          },
        ],
      },
    });
    expect(deep.status).toBe(400);
    // An item whose target was never chosen (the console's picker left empty) says so at its link.
    for (const [link, field, message] of [
      [{ category: 0 }, "category", "Choose the category this item leads to"],
      [{ content: 0 }, "content", "Choose the content this item leads to"],
      [{ tag: "" }, "tag", "Choose the tag this item leads to"],
    ] as const) {
      const unchosen = await send("PUT", `${base}/tags`, tenant.session, {
        siteId: tenant.siteId,
        type: "menu",
        name: "unchosen",
        definition: {
          items: [
            { label: "Home", link: { url: "/" } },
            { label: "Food", link },
          ],
        },
      });
      expect(unchosen.status).toBe(400);
      expect(unchosen.body.error!.fields).toEqual([{ field: `body.definition.items.1.link.${field}`, message }]);
    }
    expect((await send("DELETE", `${base}/tags/${tag.body.data.id}`, tenant.session)).status).toBe(200);
    expect((await send("DELETE", `${base}/tags/${tag.body.data.id}`, tenant.session)).status).toBe(404);
  });
});

describe("members", () => {
  it("adds a user who has logged in, changes their role, and lists the members", async () => {
    const user = await createUser({ email: `member-${Date.now()}@example.com` });
    const added = await send("PUT", `/tenants/${tenant.tenantId}/members`, tenant.session, { email: user.email, role: "author" });
    expect(added.body.data).toEqual({ userId: user.id, email: user.email, role: "author" });
    await send("PUT", `/tenants/${tenant.tenantId}/members`, tenant.session, { email: user.email, role: "editor" });
    const members = await send<{ userId: number; role: string }[]>("GET", `/tenants/${tenant.tenantId}/members`, tenant.session);
    expect(members.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: tenant.ownerId, role: "owner" }),
        expect.objectContaining({ userId: user.id, role: "editor" }),
      ]),
    );
    const unknown = await send("PUT", `/tenants/${tenant.tenantId}/members`, tenant.session, {
      email: "never-logged-in@example.com",
      role: "viewer",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error!.message).toBe("No user with email never-logged-in@example.com: they log in once first");
  });
});

describe("tenant keys", () => {
  it("shows a new key's token once, lists it masked, and a revoked key stops at once", async () => {
    const created = await send<{ id: number; token: string; maskedToken: string }>("POST", `/tenants/${tenant.tenantId}/keys`, tenant.session, {
      name: "site",
      scopes: ["content:read"],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    expect(created.body.data.token).toMatch(/^svc_tk_[0-9A-Za-z]{40}$/);
    expect(created.body.data).not.toHaveProperty("tokenHash");
    const listed = await send<Record<string, unknown>[]>("GET", `/tenants/${tenant.tenantId}/keys`, tenant.session);
    const entry = listed.body.data.find((k) => k.id === created.body.data.id)!;
    expect(entry.maskedToken).toMatch(/^svc_tk_.{4}\*{8}.{4}$/);
    expect(JSON.stringify(listed.body.data)).not.toContain(created.body.data.token);
    const { results } = await env.DB.prepare("SELECT token_hash FROM tenant_keys WHERE id = ?")
      .bind(created.body.data.id)
      .all<{ token_hash: string }>();
    expect(results[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    expect((await headless(`/api/mcp/site/info?siteId=${tenant.siteId}`, created.body.data.token)).status).toBe(200);
    expect((await send("DELETE", `/tenants/${tenant.tenantId}/keys/${created.body.data.id}`, tenant.session)).status).toBe(200);
    expect((await headless(`/api/mcp/site/info?siteId=${tenant.siteId}`, created.body.data.token)).status).toBe(401);
  });

  it("binds a key only to sites of its tenant", async () => {
    const other = await createTestTenant();
    const res = await send("POST", `/tenants/${tenant.tenantId}/keys`, tenant.session, { name: "x", siteIds: [other.siteId] });
    expect(res.status).toBe(400);
    expect(res.body.error!.message).toBe(`siteIds: no site ${other.siteId} in this tenant`);
  });
});

/** Every admin route, walked with another tenant's ids: a member of tenant B never reaches A's rows. */
describe("cross-tenant walk", () => {
  const adminRoutes = [
    ...new Map(
      createApp(GROUPS, FALLBACK_SURFACES)
        .routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/admin/api/tenants/:tenantId"))
        .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
    ).values(),
  ];
  /** A body each write route accepts, so that the walk reaches the tenant check and not the validator. */
  const bodyFor = (method: string, path: string, siteId: number): unknown => {
    if (method === "GET" || method === "DELETE") return undefined;
    if (path.endsWith("/members") || path.endsWith("/invitations")) return { email: "nobody@example.com", role: "viewer" };
    if (path.endsWith("/sites/:siteId")) return { name: "Renamed" };
    if (path.endsWith("/sites")) return { name: "x", slug: `walk-${Date.now()}` };
    if (path.endsWith("/categories/order")) return { parentId: null, ids: [1] };
    if (path.endsWith("/categories")) return { siteId, name: "x", slug: "x" };
    if (path.endsWith("/categories/:id")) return { name: "x" };
    if (path.endsWith("/contents")) return { siteId, title: "x", slug: "x", language: "en" };
    if (path.endsWith("/contents/:id")) return { title: "x" };
    if (path.endsWith("/publish")) return {};
    if (path.endsWith("/tags")) return { siteId, type: "menu", name: "x", definition: { items: [] } };
    if (path.endsWith("/keys")) return { name: "x", siteIds: [siteId] };
    if (path.endsWith("/redirects")) return { siteId, fromPath: "/old", toUrl: "/new" };
    if (path.endsWith("/ads")) return { siteId, kind: "html", slot: "top", html: "<b>x</b>", startsAt: "2026-01-01T00:00:00Z" };
    if (path.endsWith("/ads/:id")) return { weight: 2 };
    if (path.endsWith("/media/:id")) return { altText: "x" };
    if (path.endsWith("/domains/verify")) return { host: "walk.example.com" };
    return undefined;
  };
  it("covers the admin routes", () => {
    expect(adminRoutes.length).toBeGreaterThan(20);
  });

  it.each(adminRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s answers 404 for another tenant's ids", async (_name, route) => {
    const victim = tenant;
    const intruder = await createTestTenant();
    const fill = (tenantId: number) =>
      route.path
        .replace(":tenantId", String(tenantId))
        .replace(/:siteId/, String(victim.siteId))
        .replace(/:id/, "1")
        .replace(/:invitationId/, "1")
        .replace(/:version/, "1")
        .replace(/:userId/, String(victim.ownerId))
        .replace("/admin/api", "")
        .replace(/:name/, "default")
        .replace(/\/media$/, route.method === "POST" ? `/media?siteId=${victim.siteId}&filename=x.png` : "/media")
        .replace(/\/themes$/, route.method === "POST" ? "/themes?name=walk" : "/themes");
    const body = bodyFor(route.method, route.path, victim.siteId);
    // The victim's tenant in the path: the intruder is no member of it.
    const direct = await send(route.method, fill(victim.tenantId), intruder.session, body);
    expect(direct.status, `${route.method} ${fill(victim.tenantId)}`).toBe(404);
    expect(direct.body.success).toBe(false);
    // The intruder's own tenant with the victim's site: never the victim's row.
    const sideways = await send(route.method, fill(intruder.tenantId), intruder.session, body);
    expect(JSON.stringify(sideways.body)).not.toMatch(new RegExp(`"tenantId":${victim.tenantId}[,}]`));
    const fields = (body ?? {}) as { siteId?: number; siteIds?: number[] };
    const namesVictimsSite = route.path.includes(":siteId") || fields.siteId === victim.siteId || Boolean(fields.siteIds?.includes(victim.siteId));
    if (namesVictimsSite) expect([404, 400], `${route.method} ${fill(intruder.tenantId)}`).toContain(sideways.status);
  });
});

describe("what the console needs beyond the resources", () => {
  // Each test makes a tenant of its own: the shared one has spent its plan's requests a minute by now.
  it("lists every failing field of a body, so that a form shows each beside its field", async () => {
    const own = await createTestTenant();
    const res = await send("POST", `/tenants/${own.tenantId}/contents`, own.session, {
      siteId: own.siteId,
      title: "",
      slug: "Bad Slug",
      language: "en",
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "invalid_request",
      message: "Title must not be empty",
      fields: [
        { field: "body.title", message: "Title must not be empty" },
        { field: "body.slug", message: "The slug must be lower-case letters and digits joined by single dashes, like museum-night" },
      ],
    });
  });

  it("gives one saved version with its text, for a diff; 404 for a version that was never saved", async () => {
    const own = await createTestTenant();
    const base = `/tenants/${own.tenantId}/contents`;
    const created = await send<{ id: number }>("POST", base, own.session, {
      siteId: own.siteId,
      title: "Diffed",
      slug: `diffed-${Date.now()}`,
      language: "en",
      bodyMarkdown: "one\ntwo",
    });
    const id = created.body.data.id;
    await send("PATCH", `${base}/${id}`, own.session, { bodyMarkdown: "one\nthree" });
    const first = await send("GET", `${base}/${id}/versions/1`, own.session);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ version: 1, title: "Diffed", intro: "", bodyMarkdown: "one\ntwo", savedBy: own.ownerId });
    expect((await send("GET", `${base}/${id}/versions/2`, own.session)).body.data).toMatchObject({ version: 2, bodyMarkdown: "one\nthree" });
    const missing = await send("GET", `${base}/${id}/versions/9`, own.session);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: "not_found", message: `Content ${id} has no version 9` });
  });

  it("orders one parent's subcategories in a batch, and refuses a list that leaves one out or adds a stranger", async () => {
    const own = await createTestTenant();
    const base = `/tenants/${own.tenantId}`;
    const make = async (name: string, parentId: number | null = null) =>
      (await send<{ id: number }>("POST", `${base}/categories`, own.session, { siteId: own.siteId, name, slug: `${name}-${Date.now()}`, parentId }))
        .body.data.id;
    const parent = await make("ordered");
    const [a, b, c] = [await make("a", parent), await make("b", parent), await make("c", parent)];
    const path = `${base}/sites/${own.siteId}/categories/order`;
    const ordered = await send<{ id: number; parentId: number | null; position: number }[]>("PUT", path, own.session, {
      parentId: parent,
      ids: [c, a, b],
    });
    expect(ordered.status).toBe(200);
    expect(ordered.body.data.filter((cat) => cat.parentId === parent).map((cat) => [cat.id, cat.position])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ]);
    for (const ids of [
      [c, a],
      [c, a, b, b],
      [c, a, b, parent],
    ]) {
      const refused = await send("PUT", path, own.session, { parentId: parent, ids });
      expect(refused.status, JSON.stringify(ids)).toBe(400);
      expect(refused.body.error!.message).toBe(`ids: must list each of the 3 categories under category ${parent} once`);
    }
    const viewer = await memberWith(own, "viewer");
    expect((await send("PUT", path, viewer.session, { parentId: parent, ids: [a, b, c] })).status).toBe(403);
  });

  it("previews what templates read for a content tag: a menu's URLs, a posts query's published contents", async () => {
    const own = await createTestTenant();
    const base = `/tenants/${own.tenantId}`;
    const slug = `previewed-${Date.now()}`;
    const post = await send<{ id: number }>("POST", `${base}/contents`, own.session, {
      siteId: own.siteId,
      title: "Previewed",
      slug,
      language: "en",
      tags: ["preview"],
    });
    await send("POST", `${base}/contents/${post.body.data.id}/publish`, own.session, {});
    const menu = await send<{ id: number }>("PUT", `${base}/tags`, own.session, {
      siteId: own.siteId,
      type: "menu",
      name: "preview-menu",
      definition: {
        items: [
          { label: "Post", link: { content: post.body.data.id } },
          { label: "Away", link: { url: "https://example.com/" } },
        ],
      },
    });
    const menuPreview = await send("GET", `${base}/tags/${menu.body.data.id}/preview`, own.session);
    expect(menuPreview.body.data).toEqual([
      { label: "Post", url: `/${slug}`, children: [] },
      { label: "Away", url: "https://example.com/", children: [] },
    ]);
    const posts = await send<{ id: number }>("PUT", `${base}/tags`, own.session, {
      siteId: own.siteId,
      type: "posts",
      name: "preview-posts",
      definition: { tags: ["preview"], limit: 5 },
    });
    const postsPreview = await send<{ title: string; url: string }[]>("GET", `${base}/tags/${posts.body.data.id}/preview`, own.session);
    expect(postsPreview.body.data.map((p) => [p.title, p.url])).toEqual([["Previewed", `/${slug}`]]);
    expect((await send("GET", `${base}/tags/999999/preview`, own.session)).status).toBe(404);
  });
});

describe("the contents list's search", () => {
  it("finds the words in a title, in any case, % and _ as letters, and refuses empty or overlong words", async () => {
    const tenant = await createTestTenant();
    for (const title of ["Harbour reopens", "Old HARBOUR walls", "Market day", "Rents up 100% in_town"]) await seedContent(tenant, { title });
    const titles = async (q: string) => {
      const res = await admin("GET", `/tenants/${tenant.tenantId}/contents?siteId=${tenant.siteId}&q=${encodeURIComponent(q)}`, tenant.session);
      expect(res.status, q).toBe(200);
      return (await res.json<{ data: { items: { title: string }[] } }>()).data.items.map((c) => c.title).sort();
    };
    expect(await titles("harbour")).toEqual(["Harbour reopens", "Old HARBOUR walls"]);
    expect(await titles("%")).toEqual(["Rents up 100% in_town"]);
    expect(await titles("_")).toEqual(["Rents up 100% in_town"]);
    expect(await titles("ferry")).toEqual([]);
    for (const q of ["", "x".repeat(101)]) {
      const res = await admin("GET", `/tenants/${tenant.tenantId}/contents?q=${q}`, tenant.session);
      expect(res.status).toBe(400);
      expect((await res.json<{ error: { message: string } }>()).error.message).toMatch(/q must (not be empty|be at most 100 characters)/);
    }
  });
});
