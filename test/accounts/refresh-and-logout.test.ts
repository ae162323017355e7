import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { beginLogin, bearer, completeLogin, cookieValue, createUser, fakeIdentityProvider, sessionFor, uniqueTag } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { call } from "../helpers/requests";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function login(tag = uniqueTag()) {
  const provider = fakeIdentityProvider({ sub: `idp-${tag}`, email: `r-${tag}@example.com`, preferred_username: `r-${tag}` });
  const res = await completeLogin(await beginLogin(provider));
  vi.restoreAllMocks();
  return { refresh: cookieValue(res, "gw_refresh")!, access: new URL(res.headers.get("Location")!).searchParams.get("token")! };
}

const refreshWithBody = (refreshToken: string) =>
  call("/auth/refresh", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ refresh_token: refreshToken }) });

describe("refresh tokens", () => {
  it("rotate: a refresh answers a new access token and a new refresh token", async () => {
    const { refresh } = await login();
    const res = await refreshWithBody(refresh);
    expect(res.status).toBe(200);
    const body = await res.json<{ access_token: string; refresh_token: string; token_type: string; expires_in: number }>();
    expect(body).toMatchObject({ token_type: "bearer", expires_in: 86_400 });
    expect(body.refresh_token).not.toBe(refresh);
    expect(cookieValue(res, "gw_refresh")).toBe(body.refresh_token);
    expect((await call("/api/users/me", { headers: bearer(body.access_token) })).status).toBe(200);
  });

  it("read from the cookie when the body has none", async () => {
    const { refresh } = await login();
    const res = await call("/auth/refresh", { method: "POST", headers: { Cookie: `gw_refresh=${refresh}` } });
    expect(res.status).toBe(200);
  });

  it("revoke the whole family when a used one comes back", async () => {
    const { refresh } = await login();
    const rotated = (await (await refreshWithBody(refresh)).json<{ refresh_token: string }>()).refresh_token;
    const replay = await refreshWithBody(refresh);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ detail: "Invalid authentication credentials" });
    expect((await refreshWithBody(rotated)).status).toBe(401);
  });

  it("let only one of two simultaneous refreshes win, and then revoke the family", async () => {
    const { refresh } = await login();
    const results = await Promise.all([refreshWithBody(refresh), refreshWithBody(refresh)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = await results.find((r) => r.status === 200)!.json<{ refresh_token: string }>();
    expect((await refreshWithBody(winner.refresh_token)).status).toBe(401);
  });

  it("expire after 7 days", async () => {
    const { refresh } = await login();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 7 * 86_400_000 + 1000);
    const res = await refreshWithBody(refresh);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "Token has expired" });
  });

  it.each([
    ["an unknown token", "svc_rt_unknown"],
    ["nothing", undefined],
  ])("refuse %s", async (_, token) => {
    const res = token ? await refreshWithBody(token) : await call("/auth/refresh", { method: "POST" });
    expect(res.status).toBe(401);
  });

  it("past their expiry, go at the family's next rotation and at the user's next login, and no one else's go", async () => {
    const tag = uniqueTag();
    const { refresh, access } = await login(tag);
    const me = await (await call("/api/users/me", { headers: bearer(access) })).json<{ id: number }>();
    const other = await createUser();
    const row = (sql: string, ...values: (string | number)[]) => env.DB.prepare(sql).bind(...values);
    const { family_id: family } = (await row("SELECT family_id FROM refresh_tokens WHERE user_id = ?", me.id).first<{ family_id: string }>())!;
    const expired = (userId: number, familyId: string, hash: string) =>
      row(
        "INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at, created_at, used_at) VALUES (?, ?, ?, '2026-01-08T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z')",
        userId,
        familyId,
        hash,
      );
    await env.DB.batch([
      expired(me.id, family, `rotated-${tag}`),
      expired(me.id, `ended-${tag}`, `ended-${tag}`),
      expired(other.id, `theirs-${tag}`, `theirs-${tag}`),
    ]);
    const left = async () =>
      (
        await row("SELECT token_hash FROM refresh_tokens WHERE token_hash IN (?, ?, ?)", `rotated-${tag}`, `ended-${tag}`, `theirs-${tag}`).all<{
          token_hash: string;
        }>()
      ).results
        .map((r) => r.token_hash)
        .sort();

    expect((await refreshWithBody(refresh)).status).toBe(200);
    expect(await left()).toEqual([`ended-${tag}`, `theirs-${tag}`]);
    await login(tag);
    expect(await left()).toEqual([`theirs-${tag}`]);
  });

  it("stop when the user is deactivated", async () => {
    const { refresh, access } = await login();
    const me = await (await call("/api/users/me", { headers: bearer(access) })).json<{ id: number }>();
    await env.DB.prepare("UPDATE users SET is_active = 0 WHERE id = ?").bind(me.id).run();
    expect((await refreshWithBody(refresh)).status).toBe(401);
  });
});

describe("A3 logout", () => {
  it("revokes the refresh tokens and returns the provider's logout URL", async () => {
    const { refresh, access } = await login();
    const res = await call("/auth/logout", { method: "POST", headers: bearer(access) });
    expect(res.status).toBe(200);
    const { logout_url } = await res.json<{ logout_url: string }>();
    expect(logout_url).toBe("https://idp.test/api/logout?post_logout_redirect_uri=https%3A%2F%2Fapp.test");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("gw_refresh=;"))).toBe(true);
    expect((await refreshWithBody(refresh)).status).toBe(401);
  });

  it("needs a web session: an API key is refused", async () => {
    const key = await createTestKey();
    const res = await call("/auth/logout", { method: "POST", headers: bearer(key.token) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "Invalid authentication credentials" });
  });

  it("needs a header", async () => {
    const res = await call("/auth/logout", { method: "POST" });
    expect(await res.json()).toEqual({ detail: "Authorization header required" });
  });

  it("works for a user without refresh tokens", async () => {
    const user = await createUser();
    expect((await call("/auth/logout", { method: "POST", headers: bearer(await sessionFor(user)) })).status).toBe(200);
  });
});
