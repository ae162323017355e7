import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSite, sitesRoomOf } from "../../src/content/admin/sites";
import { createTenant } from "../../src/content/admin/tenants";
import { issueTenantKey } from "../../src/content/tenancy/tenant-keys";
import { memberScope } from "../../src/content/tenancy/scope";
import worker from "../../src/index";
import { database } from "../../src/platform/database";
import { createUser, sessionFor, uniqueTag } from "../helpers/accounts";
import { admin, createTestTenant } from "../helpers/content";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };

/** The Worker with settings of the test's own (a deployment's RATE_LIMITS, MAX_TENANTS_PER_USER). */
async function withSettings(request: Request, settings: Record<string, string>) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: await response.json<Envelope<unknown>>() };
}

const newTenant = (session: string, settings: Record<string, string> = {}) =>
  withSettings(
    new Request("https://gateway.test/admin/api/tenants", {
      method: "POST",
      headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Budget Times",
        slug: `budget-${uniqueTag()
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")}`,
      }),
    }),
    settings,
  );

describe("API6 · tenants: one account owns a bounded number", () => {
  it("refuses the sixth tenant of an account by default, in people's words", async () => {
    const session = await sessionFor(await createUser());
    for (let i = 0; i < 5; i++) expect((await newTenant(session)).status).toBe(201);
    const sixth = await newTenant(session);
    expect(sixth.status).toBe(403);
    expect(sixth.body.error!.message).toBe("An account may own at most 5 tenants; ask the operator for more");
  });

  it("follows MAX_TENANTS_PER_USER, and lets no burst of requests past it", async () => {
    const user = await createUser();
    const session = await sessionFor(user);
    const answers = await Promise.all(Array.from({ length: 6 }, () => newTenant(session, { MAX_TENANTS_PER_USER: "2" })));
    expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(2);
    expect(answers.every((a) => a.status === 201 || a.status === 403)).toBe(true);
    const owned = await env.DB.prepare("SELECT COUNT(*) AS n FROM tenants WHERE owner_id = ?").bind(user.id).first<{ n: number }>();
    expect(owned!.n).toBeLessThanOrEqual(2);
    // The tenants it owns are whole: each has its owner as a member.
    const orphans = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM tenants t WHERE owner_id = ? AND NOT EXISTS (SELECT 1 FROM tenant_members m WHERE m.tenant_id = t.id)",
    )
      .bind(user.id)
      .first<{ n: number }>();
    expect(orphans!.n).toBe(0);
  });

  it("answers a bad MAX_TENANTS_PER_USER with a 503 naming it", async () => {
    const session = await sessionFor(await createUser());
    const res = await newTenant(session, { MAX_TENANTS_PER_USER: "lots" });
    expect(res.status).toBe(503);
    expect(res.body.error!.message).toBe("service misconfigured: MAX_TENANTS_PER_USER");
  });
});

describe("API4 · operator-paid budgets count per owning account, not only per tenant", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shares the hourly C5 budget among every tenant of one account", async () => {
    const first = await createTestTenant();
    const db = database(env);
    const second = await createTenant(db, first.ownerId, { name: "Second", slug: `second-${first.tenantId}` });
    const secondSite = await createSite(db, memberScope(second.id), { name: "Second site", slug: `second-site-${first.tenantId}` }, sitesRoomOf(env));
    const secondKey = (await issueTenantKey(db, second.id, first.ownerId, { name: "test", siteIds: null, scopes: [] })).token;
    // The operator's language model, faked at its boundary: the same short article every time.
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({ choices: [{ message: { content: "# Ferries\n\nThe harbour reopened." } }] }),
    );
    const settings = {
      RATE_LIMITS: JSON.stringify({ perHour: { "content-article": 3 } }),
      OPENAI_BASE_URL: "https://llm.example/v1",
      OPENAI_API_KEY: "test-key",
    };
    const article = (tenant: { token: string; siteId: number }) =>
      withSettings(
        new Request("https://gateway.test/api/skills/generate/article", {
          method: "POST",
          headers: { "X-API-Key": tenant.token, "Content-Type": "application/json" },
          body: JSON.stringify({ siteId: tenant.siteId, topic: "ferries" }),
        }),
        settings,
      );
    for (let i = 0; i < 3; i++) expect((await article(first)).status).toBe(201);
    const refused = await article({ token: secondKey, siteId: secondSite.id });
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toMatch(/^The hourly budget of the account that owns this tenant is spent/);
    // Another account's tenant keeps its own budget.
    expect((await article(await createTestTenant())).status).toBe(201);
  });

  it("records the creator as the tenant's owning account", async () => {
    const user = await createUser();
    const created = await admin("POST", "/tenants", await sessionFor(user), { name: "Owned", slug: `owned-${user.id}` });
    const { data } = await created.json<Envelope<{ id: number }>>();
    const row = await env.DB.prepare("SELECT owner_id FROM tenants WHERE id = ?").bind(data.id).first<{ owner_id: number }>();
    expect(row!.owner_id).toBe(user.id);
  });
});
