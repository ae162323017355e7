import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { miniprograms } from "../../src/miniprograms/schema";
import { authorizerAccessToken, componentAccessToken, credentialsDue } from "../../src/miniprograms/tokens";
import { database } from "../../src/platform/database";
import { decryptSecret } from "../../src/platform/crypto";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, miniprogramContext, miniprogramKey } from "../helpers/miniprograms";

const credential = (name: string) =>
  env.DB.prepare("SELECT sealed_value, expires_at, lease_holder FROM wechat_credentials WHERE name = ?")
    .bind(name)
    .first<{ sealed_value: string; expires_at: string; lease_holder: string | null }>();
const expire = (name: string) =>
  env.DB.prepare("UPDATE wechat_credentials SET expires_at = ? WHERE name = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), name)
    .run();
const configuration = async (id: string) =>
  (
    await database(env)
      .select()
      .from(miniprograms)
      .where(eq(miniprograms.id, Number(id)))
  )[0]!;

let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
});

describe("WeChat's tokens", () => {
  it("keeps the component token sealed, reuses it while fresh, and refreshes it once expired", async () => {
    const ctx = miniprogramContext();
    const first = await componentAccessToken(ctx);
    const stored = await credential("component_access_token");
    expect(stored!.sealed_value).not.toContain(first);
    expect(await decryptSecret(stored!.sealed_value, env.KEY_ENCRYPTION_KEY)).toBe(first);
    expect(await componentAccessToken(ctx)).toBe(first);
    await expire("component_access_token");
    expect((await credentialsDue(ctx.db)).component).toBe(true);
    await new Promise((r) => setTimeout(r, 1100)); // the sandbox's tokens carry their expiry in seconds
    const second = await componentAccessToken(ctx);
    expect(second).not.toBe(first);
    expect(Date.parse((await credential("component_access_token"))!.expires_at)).toBeGreaterThan(Date.now() + 3600_000);
  });

  it("rotates an authorizer's refresh token with its access token, under the lease", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Rotating Shop");
    const before = await configuration(id);
    await expire(`authorizer_access_token:${appId}`);
    const token = await authorizerAccessToken(miniprogramContext(), before);
    expect(token).toMatch(/^sbx\.authorizer\./);
    const after = await configuration(id);
    expect(await decryptSecret(after.authorizerRefreshToken!, env.KEY_ENCRYPTION_KEY)).not.toBe(
      await decryptSecret(before.authorizerRefreshToken!, env.KEY_ENCRYPTION_KEY),
    );
    expect((await credential(`authorizer_access_token:${appId}`))!.lease_holder).toBeNull();
  });

  it("refreshes once when workers race: the others wait for its token instead of spending the refresh token again", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Racing Shop");
    const mp = await configuration(id);
    await expire(`authorizer_access_token:${appId}`);
    // Five workers at once. The sandbox refuses a spent refresh token (61023), as WeChat does:
    // a second refresh would fail, and lose the authorization.
    const tokens = await Promise.all(Array.from({ length: 5 }, () => authorizerAccessToken(miniprogramContext(), mp)));
    expect(new Set(tokens).size).toBe(1);
    const rotations = await env.DB.prepare("SELECT refresh_token FROM wechat_sandbox_apps WHERE app_id = ?")
      .bind(appId)
      .first<{ refresh_token: string }>();
    expect(await decryptSecret((await configuration(id)).authorizerRefreshToken!, env.KEY_ENCRYPTION_KEY)).toBe(rotations!.refresh_token);
  });

  it("takes over a lease its holder let lapse", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Lapsed Shop");
    await env.DB.prepare("UPDATE wechat_credentials SET lease_holder = 'crashed-worker', lease_until = ?, expires_at = ? WHERE name = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), new Date(Date.now() - 1000).toISOString(), `authorizer_access_token:${appId}`)
      .run();
    expect(await authorizerAccessToken(miniprogramContext(), await configuration(id))).toMatch(/^sbx\.authorizer\./);
    expect((await credential(`authorizer_access_token:${appId}`))!.lease_holder).toBeNull();
  });

  it("says why no call can be made before WeChat's first verify ticket", async () => {
    const ctx = miniprogramContext();
    const saved = await env.DB.prepare("SELECT * FROM wechat_credentials WHERE name IN ('component_verify_ticket', 'component_access_token')").all();
    await env.DB.prepare("DELETE FROM wechat_credentials WHERE name IN ('component_verify_ticket', 'component_access_token')").run();
    try {
      await expect(componentAccessToken(ctx)).rejects.toThrow(/has not pushed a component_verify_ticket yet/);
    } finally {
      for (const row of saved.results) {
        await env.DB.prepare(
          "INSERT OR REPLACE INTO wechat_credentials (name, sealed_value, expires_at, lease_holder, lease_until, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        )
          .bind(row.name, row.sealed_value, row.expires_at, row.lease_holder, row.lease_until, row.updated_at)
          .run();
      }
    }
  });
});
