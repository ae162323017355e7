import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, createUser, uniqueTag } from "../helpers/accounts";
import { createTestTenant, seedContent, type TestTenant } from "../helpers/content";
import { expectRetryLater, Faults, forEachFault } from "../helpers/faults";

const UNAVAILABLE = { success: false, error: { code: "unavailable", message: "The service is temporarily unavailable; retry in a few seconds" } };

let tenant: TestTenant;
let categoryId: number;
beforeAll(async () => {
  tenant = await createTestTenant();
  categoryId = (await env.DB.prepare("INSERT INTO categories (tenant_id, site_id, name, slug) VALUES (?, ?, 'News', 'news') RETURNING id")
    .bind(tenant.tenantId, tenant.siteId)
    .first<{ id: number }>())!.id;
  // The session and site known to this isolate before the loops: each run then makes the same calls.
  await new Faults().fetch(`/admin/api/tenants/${tenant.tenantId}/members`, { headers: bearer(tenant.session) });
});

const rows = async (sql: string, ...values: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...values)
      .all()
  ).results;

interface Write {
  method: string;
  path: string;
  body?: unknown;
  /** What the write changes, read straight from D1 (no ids or clocks, so two runs compare equal). */
  stored: () => Promise<unknown>;
}

/**
 * A tenant admin write at each failing call: answered, or a 503 in C's envelope with nothing
 * stored; a retry without faults then stores exactly what a write that never failed stores.
 */
async function allOrNothing(prepare: () => Promise<Write>): Promise<string[]> {
  const send = (faults: Faults, write: Write) =>
    faults.fetch(`/admin/api/tenants/${tenant.tenantId}${write.path}`, {
      method: write.method,
      headers: { ...bearer(tenant.session), "Content-Type": "application/json" },
      body: write.body === undefined ? undefined : JSON.stringify(write.body),
    });
  const untroubled = await prepare();
  const first = await send(new Faults(), untroubled);
  expect(first.ok, await first.text()).toBe(true);
  const expected = await untroubled.stored();
  return forEachFault(async (faults) => {
    const write = await prepare();
    const before = await write.stored();
    const res = await send(faults, write);
    if (!res.ok) {
      expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
      expect(await write.stored(), `after ${faults.failed}`).toEqual(before);
      expect((await send(new Faults(), write)).ok).toBe(true);
    }
    expect(await write.stored(), `after ${faults.failed}`).toEqual(expected);
  });
}

/** A content's stored state: its fields, versions, categories and the audit lines about it. */
const contentState = async (where: string, value: unknown) => ({
  content: await rows(`SELECT title like 'Story %' AS seeded, status, version FROM contents WHERE ${where}`, value),
  versions: await rows(
    `SELECT v.version, v.title like 'Story %' AS seeded FROM content_versions v JOIN contents c ON c.id = v.content_id WHERE c.${where}`,
    value,
  ),
  categories: await rows(
    `SELECT cc.category_id = ? AS ours FROM content_categories cc JOIN contents c ON c.id = cc.content_id WHERE c.${where}`,
    categoryId,
    value,
  ),
  audit: await rows(`SELECT a.action FROM audit_log a JOIN contents c ON c.id = a.content_id WHERE c.${where} ORDER BY a.id`, value),
});

describe("C admin writes while D1 or KV fails", () => {
  it("creates a content with its first version and categories, all or nothing", async () => {
    const failed = await allOrNothing(async () => {
      const slug = `story-${uniqueTag()}`;
      return {
        method: "POST",
        path: "/contents",
        body: { siteId: tenant.siteId, title: "A story", slug, language: "en", bodyMarkdown: "# Hello", categoryIds: [categoryId] },
        stored: () => contentState("slug = ?", slug),
      };
    });
    expect(failed.length).toBeGreaterThan(1);
  });

  it("saves a content's new text and categories as one new version, all or nothing", async () => {
    await allOrNothing(async () => {
      const id = await seedContent(tenant, { publishAt: null });
      return {
        method: "PATCH",
        path: `/contents/${id}`,
        body: { title: "Renamed", categoryIds: [categoryId] },
        stored: () => contentState("id = ?", id),
      };
    });
  });

  it("publishes now and schedules for later with its audit line, all or nothing", async () => {
    for (const body of [{}, { publishAt: new Date(Date.now() + 86_400_000).toISOString() }]) {
      await allOrNothing(async () => {
        const id = await seedContent(tenant, { publishAt: null });
        return { method: "POST", path: `/contents/${id}/publish`, body, stored: () => contentState("id = ?", id) };
      });
    }
  });

  it("creates and renames a category, all or nothing", async () => {
    await allOrNothing(async () => {
      const slug = `cat-${uniqueTag()}`;
      return {
        method: "POST",
        path: "/categories",
        body: { siteId: tenant.siteId, name: "Museums", slug },
        stored: () => rows("SELECT name FROM categories WHERE slug = ?", slug),
      };
    });
    await allOrNothing(async () => {
      const slug = `cat-${uniqueTag()}`;
      const { id } = (await env.DB.prepare("INSERT INTO categories (tenant_id, site_id, name, slug) VALUES (?, ?, 'Old', ?) RETURNING id")
        .bind(tenant.tenantId, tenant.siteId, slug)
        .first<{ id: number }>())!;
      return {
        method: "PATCH",
        path: `/categories/${id}`,
        body: { name: "New" },
        stored: () => rows("SELECT name, slug = ? AS same FROM categories WHERE id = ?", slug, id),
      };
    });
  });

  it("creates a menu, all or nothing", async () => {
    await allOrNothing(async () => {
      const name = `menu-${uniqueTag()}`;
      return {
        method: "PUT",
        path: "/tags",
        body: { siteId: tenant.siteId, type: "menu", name, definition: { items: [{ label: "Culture", link: { category: categoryId } }] } },
        stored: () => rows("SELECT type, definition FROM content_tags WHERE site_id = ? AND name = ?", tenant.siteId, name),
      };
    });
  });

  it("adds and removes a member, all or nothing", async () => {
    await allOrNothing(async () => {
      const user = await createUser();
      return {
        method: "PUT",
        path: "/members",
        body: { email: user.email, role: "editor" },
        stored: () => rows("SELECT role FROM tenant_members WHERE tenant_id = ? AND user_id = ?", tenant.tenantId, user.id),
      };
    });
    await allOrNothing(async () => {
      const user = await createUser();
      await env.DB.prepare("INSERT INTO tenant_members (tenant_id, user_id, role) VALUES (?, ?, 'viewer')").bind(tenant.tenantId, user.id).run();
      return {
        method: "DELETE",
        path: `/members/${user.id}`,
        stored: () => rows("SELECT role FROM tenant_members WHERE tenant_id = ? AND user_id = ?", tenant.tenantId, user.id),
      };
    });
  });
});
