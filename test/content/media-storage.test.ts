import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Storage } from "../../src/content/admin/answers";
import { createSite, sitesRoomOf } from "../../src/content/admin/sites";
import { memberScope } from "../../src/content/tenancy/scope";
import { database } from "../../src/platform/database";
import { uniqueTag } from "../helpers/accounts";
import { createTestTenant, memberWith, PIXEL_PNG, type TestTenant } from "../helpers/content";
import { callWorker } from "../helpers/requests";

/**
 * API4 · a tenant's media take bounded room (MEDIA_BYTES_PER_TENANT): anyone may sign up and
 * upload, and every byte is stored in R2 at the operator's cost.
 */

type Envelope<T> = { success: boolean; data: T; error?: { message: string } };
const MB = 1024 * 1024;
const QUOTA = 5 * MB;

/** A whole PNG (a pixel) followed by padding that browsers ignore: a file of exactly `bytes` bytes, cheap to make. */
function fileOf(bytes: number): Uint8Array {
  const file = new Uint8Array(bytes);
  file.set(PIXEL_PNG);
  return file;
}

async function upload(
  tenant: TestTenant,
  bytes: number,
  settings: Record<string, string> = { MEDIA_BYTES_PER_TENANT: String(QUOTA) },
  siteId = tenant.siteId,
) {
  const res = await callWorker(
    `/admin/api/tenants/${tenant.tenantId}/media?siteId=${siteId}&filename=file-${bytes}.png`,
    { method: "POST", headers: { Authorization: `Bearer ${tenant.session}`, "Content-Type": "image/png" }, body: fileOf(bytes) },
    { ...env, ...settings },
  );
  return { status: res.status, body: await res.json<Envelope<{ id: number; size: number }>>() };
}

const storageOf = async (tenantId: number, session: string, settings: Record<string, string> = {}) => {
  const res = await callWorker(
    `/admin/api/tenants/${tenantId}/storage`,
    { headers: { Authorization: `Bearer ${session}` } },
    { ...env, ...settings },
  );
  return { status: res.status, body: await res.json<Envelope<Storage>>() };
};

/** What the tenant holds: rows, R2 objects, and notes of uploads without a row. */
async function held(tenant: TestTenant) {
  const rows = await env.DB.prepare("SELECT key, size FROM media WHERE tenant_id = ?").bind(tenant.tenantId).all<{ key: string; size: number }>();
  const objects = await env.MEDIA.list({ prefix: `${tenant.tenantId}/` });
  const notes = await env.DB.prepare("SELECT count(*) AS n FROM media_uploads WHERE key LIKE ?").bind(`${tenant.tenantId}/%`).first<{ n: number }>();
  return {
    keys: rows.results.map((row) => row.key).sort(),
    bytes: rows.results.reduce((sum, row) => sum + row.size, 0),
    objects: objects.objects.map((object) => object.key).sort(),
    notes: notes!.n,
  };
}

let tenant: TestTenant;
beforeEach(async () => {
  tenant = await createTestTenant();
});

describe("API4 · a tenant's media take bounded room", () => {
  it("refuses the file that would pass MEDIA_BYTES_PER_TENANT with 409, in people's words, and stores nothing of it", async () => {
    expect((await upload(tenant, 2 * MB)).status).toBe(201);
    expect((await upload(tenant, 2 * MB)).status).toBe(201);
    const refused = await upload(tenant, 2 * MB);
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe(
      "file-2097152.png would take the tenant's media past its 5 MB (4 MB are used): delete files it no longer needs, or ask the operator for more room",
    );
    const after = await held(tenant);
    expect(after.bytes).toBe(4 * MB);
    expect(after.objects).toEqual(after.keys);
    expect(after.notes).toBe(0);
    // What fits still goes in: the quota is on bytes, not on files.
    expect((await upload(tenant, MB)).status).toBe(201);
    expect((await upload(tenant, MB)).status).toBe(409);
  });

  it("counts the files of every site of the tenant, and none of another tenant's", async () => {
    const second = await createSite(
      database(env),
      memberScope(tenant.tenantId),
      { name: "Second", slug: `second-${uniqueTag().toLowerCase()}` },
      sitesRoomOf(env),
    );
    expect((await upload(tenant, 3 * MB)).status).toBe(201);
    expect((await upload(tenant, 3 * MB, undefined, second.id)).status).toBe(409);
    expect((await upload(tenant, 2 * MB, undefined, second.id)).status).toBe(201);
    const other = await createTestTenant();
    expect((await upload(other, 4 * MB)).status).toBe(201);
  });

  it("keeps at most 5,000 files a site, so that its list stays a size one answer carries", async () => {
    // 4,999 files of a byte each, written as rows: uploading them one by one would take minutes.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
       INSERT INTO media (tenant_id, site_id, key, filename, content_type, size, uploaded_by)
       SELECT ?1, ?2, ?1 || '/' || ?2 || '/bulk' || i || '.png', 'bulk.png', 'image/png', 1, ?3 FROM n`,
    )
      .bind(tenant.tenantId, tenant.siteId, tenant.ownerId)
      .run();
    expect((await upload(tenant, 1000)).status).toBe(201);
    const refused = await upload(tenant, 1000);
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe("A site keeps at most 5,000 files in its media: delete files it no longer needs first");
    // Another site of the tenant has room of its own.
    const second = await createSite(
      database(env),
      memberScope(tenant.tenantId),
      { name: "Second", slug: `second-${uniqueTag().toLowerCase()}` },
      sitesRoomOf(env),
    );
    expect((await upload(tenant, 1000, undefined, second.id)).status).toBe(201);
  });

  it("makes room again when a file is deleted", async () => {
    const first = await upload(tenant, 3 * MB);
    expect((await upload(tenant, 3 * MB)).status).toBe(409);
    const deleted = await callWorker(`/admin/api/tenants/${tenant.tenantId}/media/${first.body.data.id}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${tenant.session}` },
    });
    expect(deleted.status).toBe(200);
    expect((await upload(tenant, 3 * MB)).status).toBe(201);
  });

  it("lets no burst of uploads past it, and leaves no object of a refused one behind", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(tenant, 2 * MB)));
    const stored = answers.filter((answer) => answer.status === 201);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(stored.length).toBeLessThanOrEqual(2);
    expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
    const after = await held(tenant);
    expect(after.bytes).toBeLessThanOrEqual(QUOTA);
    expect(after.keys).toHaveLength(stored.length);
    expect(after.objects).toEqual(after.keys);
    expect(after.notes).toBe(0);
  });

  it("tells a member what the media take and how much they may, 1 GB unless the operator says otherwise", async () => {
    await upload(tenant, 2 * MB, {});
    expect(await storageOf(tenant.tenantId, tenant.session)).toEqual({
      status: 200,
      body: {
        success: true,
        data: {
          media: { usedBytes: 2 * MB, quotaBytes: 1024 * MB },
          themes: { usedBytes: 0, quotaBytes: 200 * MB },
          text: { usedBytes: 0, quotaBytes: 100 * MB },
        },
      },
    });
    const viewer = await memberWith(tenant, "viewer");
    expect((await storageOf(tenant.tenantId, viewer.session, { MEDIA_BYTES_PER_TENANT: String(QUOTA) })).body.data.media).toEqual({
      usedBytes: 2 * MB,
      quotaBytes: QUOTA,
    });
    const other = await createTestTenant();
    expect((await storageOf(tenant.tenantId, other.session)).status).toBe(404);
  });

  it("answers a MEDIA_BYTES_PER_TENANT below the largest file with a 503 naming it", async () => {
    const res = await upload(tenant, MB, { MEDIA_BYTES_PER_TENANT: String(MB) });
    expect(res.status).toBe(503);
    expect(res.body.error!.message).toBe("service misconfigured: MEDIA_BYTES_PER_TENANT");
  });
});
