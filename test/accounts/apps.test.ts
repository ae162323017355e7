import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountJson, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";

async function jwt() {
  return sessionFor(await createUser());
}

describe("API1, API5 · apps for the pickup API", () => {
  it("creates an app whose token and webhook secret are shown once and stored protected", async () => {
    const token = await jwt();
    const res = await accountJson("POST", "/api/apps", token, { name: "warehouse", hot_api_key: "carrier-key-123" });
    expect(res.status).toBe(201);
    const app = await res.json<{ id: number; app_token: string; webhook_secret: string; masked_token: string; has_hot_api_key: boolean }>();
    expect(app.app_token).toMatch(/^svc_at_[0-9A-Za-z]{40}$/);
    expect(app.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(app.has_hot_api_key).toBe(true);

    const row = JSON.stringify(await env.DB.prepare("SELECT * FROM apps WHERE id = ?").bind(app.id).first());
    for (const secret of [app.app_token, app.webhook_secret, "carrier-key-123"]) expect(row).not.toContain(secret);

    const list = await (await accountJson("GET", "/api/apps", token)).json<{ data: { masked_token: string }[]; total: number }>();
    expect(list.total).toBe(1);
    expect(list.data[0]!.masked_token).toBe(app.masked_token);
    expect(JSON.stringify(list)).not.toContain(app.app_token);
  });

  it("creates an app without a carrier key", async () => {
    const res = await accountJson("POST", "/api/apps", await jwt(), { name: "later" });
    expect(await res.json()).toMatchObject({ has_hot_api_key: false });
  });

  it("revokes an app, and hides other users' apps", async () => {
    const [mine, theirs] = await Promise.all([jwt(), jwt()]);
    const app = await (await accountJson("POST", "/api/apps", theirs, { name: "x" })).json<{ id: number }>();
    expect((await accountJson("DELETE", `/api/apps/${app.id}`, mine)).status).toBe(404);
    expect(await (await accountJson("DELETE", `/api/apps/${app.id}`, theirs)).json()).toEqual({ success: true, message: "App revoked" });
    const list = await (await accountJson("GET", "/api/apps", theirs)).json<{ data: { is_active: boolean }[] }>();
    expect(list.data[0]!.is_active).toBe(false);
  });

  it.each([[{}], [{ name: "" }], [{ name: "x", hot_api_key: "" }], [{ name: "x", webhook_url: "https://x" }]])("answers 422 for %j", async (body) => {
    expect((await accountJson("POST", "/api/apps", await jwt(), body)).status).toBe(422);
  });

  it("mints an app token only for a caller who may write pickups (no escalation through tokens:*)", async () => {
    const tokensOnly = await createTestKey({ scopes: ["tokens:*"] });
    const refused = await accountJson("POST", "/api/apps", tokensOnly.token, { name: "sneaky" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "Insufficient permissions" });
    const count = await env.DB.prepare("SELECT count(*) AS n FROM apps WHERE user_id = ?").bind(tokensOnly.userId).first<{ n: number }>();
    expect(count!.n).toBe(0);

    const pickupWriter = await createTestKey({ scopes: ["tokens:write", "pickup:write"] });
    expect((await accountJson("POST", "/api/apps", pickupWriter.token, { name: "warehouse" })).status).toBe(201);
  });
});
