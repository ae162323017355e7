import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bearer, createUser, sessionFor, uniqueTag } from "../helpers/accounts";
import { createTestTenant } from "../helpers/content";
import { miniprogramKey, ORIGIN } from "../helpers/miniprograms";
import { call } from "../helpers/requests";

/** A JSON POST with an Idempotency-Key. */
function post(path: string, headers: Record<string, string>, body: unknown, key: string) {
  return call(path, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(body),
  });
}

const rowsOf = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

describe("Idempotency-Key on A: a new API key", () => {
  it("creates the key once: a retry gets the first answer, token included, and no second key exists", async () => {
    const user = await createUser();
    const auth = bearer(await sessionFor(user));
    const key = crypto.randomUUID();
    const first = await post("/api/tokens", auth, { name: "nightly" }, key);
    expect(first.status).toBe(201);
    const again = await post("/api/tokens", auth, { name: "nightly" }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(1);
  });

  it("keeps the kept answer sealed: the new key's secret is not in the table in clear", async () => {
    const user = await createUser();
    const key = crypto.randomUUID();
    const created = await (await post("/api/tokens", bearer(await sessionFor(user)), { name: "sealed" }, key)).json<{ secret: string }>();
    const kept = await env.DB.prepare("SELECT body FROM idempotent_requests WHERE key = ?").bind(key).first<{ body: string }>();
    expect(kept!.body).not.toContain(created.secret);
  });

  it("refuses the same key with another body (422) and says why, and creates nothing", async () => {
    const user = await createUser();
    const auth = bearer(await sessionFor(user));
    const key = crypto.randomUUID();
    expect((await post("/api/tokens", auth, { name: "first" }, key)).status).toBe(201);
    const other = await post("/api/tokens", auth, { name: "second" }, key);
    expect(other.status).toBe(422);
    expect(JSON.stringify(await other.json())).toContain("This Idempotency-Key was used with another request");
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(1);
  });

  it("answers 409 while the first request with the key still runs, and takes over a claim abandoned for minutes", async () => {
    const user = await createUser();
    const auth = bearer(await sessionFor(user));
    const key = crypto.randomUUID();
    expect((await post("/api/tokens", auth, { name: "slow" }, key)).status).toBe(201);
    // The claim as a first request still running leaves it: no answer yet.
    await env.DB.prepare("UPDATE idempotent_requests SET status = NULL, body = NULL, created_at = ? WHERE key = ?").bind(Date.now(), key).run();
    const running = await post("/api/tokens", auth, { name: "slow" }, key);
    expect(running.status).toBe(409);
    expect(JSON.stringify(await running.json())).toContain("still running");
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(1);

    await env.DB.prepare("UPDATE idempotent_requests SET created_at = ? WHERE key = ?")
      .bind(Date.now() - 3 * 60_000, key)
      .run();
    // Its isolate went away minutes ago: the retry does the work.
    expect((await post("/api/tokens", auth, { name: "slow" }, key)).status).toBe(201);
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(2);
  });

  it("does the work again after 24 hours, and a key is the caller's own: another user's same key creates theirs", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const key = crypto.randomUUID();
    expect((await post("/api/tokens", bearer(await sessionFor(alice)), { name: "shared" }, key)).status).toBe(201);
    const bobs = await post("/api/tokens", bearer(await sessionFor(bob)), { name: "shared" }, key);
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", bob.id)).toBe(1);

    await env.DB.prepare("UPDATE idempotent_requests SET created_at = ? WHERE scope = ? AND key = ?")
      .bind(Date.now() - 25 * 3600_000, `u${alice.id}::`, key)
      .run();
    const later = await post("/api/tokens", bearer(await sessionFor(alice)), { name: "shared" }, key);
    expect(later.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await rowsOf("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", alice.id)).toBe(2);
  });

  it("does not keep a refusal: a retry of a request that failed validation inside the work is decided anew", async () => {
    const user = await createUser();
    const auth = bearer(await sessionFor(user));
    const key = crypto.randomUUID();
    const refused = await post("/api/tokens", auth, { name: "x", scopes: ["no-such:scope"] }, key);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM idempotent_requests WHERE key = ?").bind(key).first("n")).toBe(0);
  });

  it.each([
    ["an empty key", ""],
    ["a key of 256 characters", "k".repeat(256)],
    ["a key with a space", "two words"],
  ])("refuses %s in words", async (_, key) => {
    const user = await createUser();
    const res = await post("/api/tokens", bearer(await sessionFor(user)), { name: "bad key" }, key);
    // Group A's answer to an invalid request.
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("Idempotency-Key must be 1 to 255 visible ASCII characters");
  });

  it("is documented on the POST writes of A, C, D and P, and not on the data queries", async () => {
    const doc = await (await call("/openapi.json")).json<{ paths: Record<string, Record<string, { parameters?: { name: string }[] }>> }>();
    const takesKey = (path: string, method = "post") =>
      (doc.paths[path]?.[method]?.parameters ?? []).some((p) => p.name.toLowerCase() === "idempotency-key");
    expect(takesKey("/api/tokens")).toBe(true);
    expect(takesKey("/api/v1/carrier/pickup/submit")).toBe(true);
    expect(takesKey("/admin/api/tenants/{tenantId}/contents")).toBe(true);
    expect(takesKey("/deposits/minipram/create")).toBe(true);
    expect(takesKey("/api/tokens", "get")).toBe(false);
  });
});

describe("Idempotency-Key on C and D", () => {
  it("creates a content once for a retried admin create", async () => {
    const tenant = await createTestTenant();
    const slug = `once-${uniqueTag()}`;
    const body = { siteId: tenant.siteId, title: "Once", slug, language: "en", bodyMarkdown: "Once." };
    const key = crypto.randomUUID();
    const path = `/admin/api/tenants/${tenant.tenantId}/contents`;
    const first = await post(path, bearer(tenant.session), body, key);
    expect(first.status).toBeLessThan(300);
    const again = await post(path, bearer(tenant.session), body, key);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await rowsOf("SELECT count(*) AS n FROM contents WHERE slug = ?", slug)).toBe(1);
  });

  it("refuses an upload with a key: only JSON requests take one", async () => {
    const tenant = await createTestTenant();
    const res = await call(`/admin/api/tenants/${tenant.tenantId}/media?siteId=${tenant.siteId}&filename=a.png`, {
      method: "POST",
      headers: { ...bearer(tenant.session), "Content-Type": "image/png", "Idempotency-Key": crypto.randomUUID() },
      body: new Uint8Array([137, 80, 78, 71]),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Idempotency-Key is accepted on JSON requests only");
  });

  it("registers a mini-program once for a retried create", async () => {
    const key = await miniprogramKey();
    const name = `Once ${uniqueTag().slice(-12)}`;
    const idempotencyKey = crypto.randomUUID();
    const create = () =>
      SELF.fetch(`${ORIGIN}/deposits/minipram/create`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key.token}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify({ name }),
      });
    const first = await create();
    const again = await create();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await rowsOf("SELECT count(*) AS n FROM miniprograms WHERE name = ?", name)).toBe(1);
  });
});
