import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ENTRIES_KEPT, pruneAuditLogs } from "../../src/content/admin/audit";
import { logger } from "../../src/platform/logging";
import { admin, createTestTenant, memberWith, seedContent, type TestTenant } from "../helpers/content";

type Envelope<T> = { success: boolean; data: T; error?: { message: string } };
interface Entry {
  action: string;
  subject: string;
  contentId: number | null;
  at: string;
  who: { email: string; fullName: string | null } | null;
  content: { id: number; title: string; siteId: number } | null;
}
const auditOf = async (tenant: TestTenant, session = tenant.session) => {
  const res = await admin("GET", `/tenants/${tenant.tenantId}/audit`, session);
  return { status: res.status, body: await res.json<Envelope<Entry[]>>() };
};

let tenant: TestTenant;
let ownerEmail: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  const members = await (
    await admin("GET", `/tenants/${tenant.tenantId}/members`, tenant.session)
  ).json<Envelope<{ userId: number; email: string }[]>>();
  ownerEmail = members.data.find((m) => m.userId === tenant.ownerId)!.email;
});

describe("the audit log says who did what to which content", () => {
  it("names the member and the content (its title now, for a link) of a publication", async () => {
    const content = { id: await seedContent(tenant, { title: "Museum night at the harbour", publishAt: null }) };
    expect((await admin("POST", `/tenants/${tenant.tenantId}/contents/${content.id}/publish`, tenant.session, {})).status).toBe(200);
    const [entry] = (await auditOf(tenant)).body.data;
    expect(entry).toMatchObject({
      action: "publish",
      contentId: content.id,
      who: { email: ownerEmail },
      content: { id: content.id, title: "Museum night at the harbour", siteId: tenant.siteId },
    });
    expect(entry!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("keeps the title of a content moved to the trash in the subject, and no link to it", async () => {
    const content = { id: await seedContent(tenant, { title: "Gone tomorrow" }) };
    expect((await admin("DELETE", `/tenants/${tenant.tenantId}/contents/${content.id}`, tenant.session)).status).toBe(200);
    const entries = (await auditOf(tenant)).body.data.filter((e) => e.contentId === content.id);
    expect(entries[0]).toMatchObject({ action: "delete", subject: `content ${content.id} (Gone tomorrow)`, content: null });
  });

  it("records invitations and role changes by whom", async () => {
    const email = `audit-${Date.now()}@example.com`;
    await admin("POST", `/tenants/${tenant.tenantId}/invitations`, tenant.session, { email, role: "author" });
    const [entry] = (await auditOf(tenant)).body.data;
    expect(entry).toMatchObject({ action: "invite", subject: `${email} as author`, who: { email: ownerEmail }, content: null });
  });

  it("records an API key made and revoked, by its name, once however often it is revoked", async () => {
    const made = await admin("POST", `/tenants/${tenant.tenantId}/keys`, tenant.session, { name: "Front end" });
    const { id } = (await made.json<Envelope<{ id: number }>>()).data;
    for (let i = 0; i < 2; i++) expect((await admin("DELETE", `/tenants/${tenant.tenantId}/keys/${id}`, tenant.session)).status).toBe(200);
    const entries = (await auditOf(tenant)).body.data.filter((e) => e.subject === "Front end");
    expect(entries.map(({ action, who }) => ({ action, who }))).toEqual([
      { action: "revoke-key", who: { email: ownerEmail, fullName: null } },
      { action: "create-key", who: { email: ownerEmail, fullName: null } },
    ]);
  });

  it("records a redirect made and deleted, by its paths", async () => {
    const made = await admin("PUT", `/tenants/${tenant.tenantId}/redirects`, tenant.session, {
      siteId: tenant.siteId,
      fromPath: "/sale",
      toUrl: "/winter-market",
    });
    const { id } = (await made.json<Envelope<{ id: number }>>()).data;
    expect((await admin("DELETE", `/tenants/${tenant.tenantId}/redirects/${id}`, tenant.session)).status).toBe(200);
    const newest = (await auditOf(tenant)).body.data.slice(0, 2);
    expect(newest.map(({ action, subject }) => ({ action, subject }))).toEqual([
      { action: "delete-redirect", subject: "/sale → /winter-market" },
      { action: "put-redirect", subject: "/sale → /winter-market (301)" },
    ]);
  });

  it("records a change to a published content, and not the saves of a draft", async () => {
    const live = await seedContent(tenant, { title: "Harbour open" });
    const draft = await seedContent(tenant, { title: "Harbour plans", publishAt: null });
    for (const [id, title] of [
      [draft, "Harbour plans, revised"],
      [live, "Harbour open again"],
    ] as const)
      expect((await admin("PATCH", `/tenants/${tenant.tenantId}/contents/${id}`, tenant.session, { title })).status).toBe(200);
    const entries = (await auditOf(tenant)).body.data;
    expect(entries[0]).toMatchObject({ action: "update", contentId: live, content: { title: "Harbour open again" }, who: { email: ownerEmail } });
    expect(entries.filter((e) => e.contentId === draft)).toEqual([]);
  });

  it("records a category made, renamed and deleted, by its name", async () => {
    const made = await admin("POST", `/tenants/${tenant.tenantId}/categories`, tenant.session, {
      siteId: tenant.siteId,
      name: "Harbour",
      slug: "harbour",
    });
    const { id } = (await made.json<Envelope<{ id: number }>>()).data;
    expect((await admin("PATCH", `/tenants/${tenant.tenantId}/categories/${id}`, tenant.session, { name: "Port" })).status).toBe(200);
    expect((await admin("DELETE", `/tenants/${tenant.tenantId}/categories/${id}`, tenant.session)).status).toBe(200);
    const newest = (await auditOf(tenant)).body.data.slice(0, 3);
    expect(newest.map(({ action, subject, who }) => ({ action, subject, email: who?.email }))).toEqual([
      { action: "delete-category", subject: "Port", email: ownerEmail },
      { action: "change-category", subject: "Port", email: ownerEmail },
      { action: "create-category", subject: "Harbour", email: ownerEmail },
    ]);
  });

  it("records an ad made, changed and deleted, by its name and slot, or its id where it has no name", async () => {
    const made = await admin("POST", `/tenants/${tenant.tenantId}/ads`, tenant.session, {
      siteId: tenant.siteId,
      kind: "html",
      slot: "sidebar",
      html: "<b>Sale</b>",
      startsAt: "2026-01-01T00:00:00Z",
      name: "Winter sale",
    });
    const { id } = (await made.json<Envelope<{ id: number }>>()).data;
    expect((await admin("PATCH", `/tenants/${tenant.tenantId}/ads/${id}`, tenant.session, { name: null })).status).toBe(200);
    expect((await admin("DELETE", `/tenants/${tenant.tenantId}/ads/${id}`, tenant.session)).status).toBe(200);
    const newest = (await auditOf(tenant)).body.data.slice(0, 3);
    expect(newest.map(({ action, subject, who }) => ({ action, subject, email: who?.email }))).toEqual([
      { action: "delete-ad", subject: `ad #${id} (sidebar)`, email: ownerEmail },
      { action: "change-ad", subject: `ad #${id} (sidebar)`, email: ownerEmail },
      { action: "create-ad", subject: "Winter sale (sidebar)", email: ownerEmail },
    ]);
  });

  it("records a menu saved and deleted, by its kind and name", async () => {
    const menu = { siteId: tenant.siteId, type: "menu", name: "footer", definition: { items: [{ label: "Home", link: { url: "/" } }] } };
    const saved = await admin("PUT", `/tenants/${tenant.tenantId}/tags`, tenant.session, menu);
    const { id } = (await saved.json<Envelope<{ id: number }>>()).data;
    expect((await admin("DELETE", `/tenants/${tenant.tenantId}/tags/${id}`, tenant.session)).status).toBe(200);
    const newest = (await auditOf(tenant)).body.data.slice(0, 2);
    expect(newest.map(({ action, subject }) => ({ action, subject }))).toEqual([
      { action: "delete-tag", subject: "menu footer" },
      { action: "put-tag", subject: "menu footer" },
    ]);
  });

  it("records which site settings a save changed, and nothing for a save that changes none", async () => {
    const site = `/tenants/${tenant.tenantId}/sites/${tenant.siteId}`;
    const before = (await auditOf(tenant)).body.data.length;
    // As the Settings screen saves: every field, most of them as they were.
    const all = { name: "Harbour Gazette", seoDescription: "News from the harbour", languages: ["en", "de"], defaultLanguage: "en", timezone: "UTC" };
    expect((await admin("PATCH", site, tenant.session, { ...all, primaryDomain: "harbour-gazette.example.com" })).status).toBe(200);
    const [entry] = (await auditOf(tenant)).body.data;
    expect(entry).toMatchObject({ action: "change-site", subject: "Harbour Gazette: name, description, domains", who: { email: ownerEmail } });
    expect((await admin("PATCH", site, tenant.session, { ...all, primaryDomain: "harbour-gazette.example.com" })).status).toBe(200);
    expect((await auditOf(tenant)).body.data.length).toBe(before + 1);
  });

  it("shows a tenant only its own entries, and no viewer or author any", async () => {
    const other = await createTestTenant();
    await seedContent(other, { title: "Other tenant's story" });
    const ours = (await auditOf(tenant)).body.data;
    expect(ours.some((e) => e.content?.title === "Other tenant's story")).toBe(false);
    expect((await admin("GET", `/tenants/${tenant.tenantId}/audit`, other.session)).status).toBe(404);
    for (const role of ["viewer", "author"] as const) expect((await auditOf(tenant, (await memberWith(tenant, role)).session)).status).toBe(403);
  });

  it("keeps each tenant's newest 10,000 entries: the daily upkeep deletes the older ones, and no other tenant's", async () => {
    const flooded = await createTestTenant();
    const other = await createTestTenant();
    // A tenant that wrote 3 more than are kept, in one statement, oldest first.
    await env.DB.prepare(
      `INSERT INTO audit_log (tenant_id, user_id, action, subject)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3) SELECT ?1, ?2, 'test', 'entry ' || i FROM n`,
    )
      .bind(flooded.tenantId, flooded.ownerId, AUDIT_ENTRIES_KEPT + 3)
      .run();
    await admin("POST", `/tenants/${other.tenantId}/keys`, other.session, { name: "Kept" });
    const { pruned } = await pruneAuditLogs(env, logger({ test: "audit" }));
    expect(pruned).toBeGreaterThanOrEqual(3);
    const left = await env.DB.prepare("SELECT count(*) AS n, min(id) AS oldest FROM audit_log WHERE tenant_id = ?")
      .bind(flooded.tenantId)
      .first<{ n: number; oldest: number }>();
    expect(left!.n).toBe(AUDIT_ENTRIES_KEPT);
    const oldest = await env.DB.prepare("SELECT subject FROM audit_log WHERE id = ?").bind(left!.oldest).first<{ subject: string }>();
    expect(oldest!.subject).toBe("entry 4");
    // The other tenant's two (its first key, made with it, and this one) stay.
    expect((await auditOf(other)).body.data.map((e) => e.subject)).toEqual(["Kept", "test"]);
    // A second run finds nothing more to delete.
    expect((await pruneAuditLogs(env, logger({ test: "audit" }))).pruned).toBe(0);
  });
});
