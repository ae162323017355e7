import { createExecutionContext, env } from "cloudflare:test";
import { decodeJwt } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { providerEndpoints } from "../../src/accounts/identity-provider";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { beginLogin, completeLogin, cookieValue, createUser, fakeIdentityProvider, uniqueTag, userRow } from "../helpers/accounts";
import { call, freezeClockEarlyInMinute } from "../helpers/requests";

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const userCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>())!.n;

function profile(overrides: Record<string, string> = {}) {
  const tag = uniqueTag();
  return { sub: `idp-${tag}`, email: `person-${tag}@example.com`, preferred_username: `person-${tag}`, name: "Ada Lovelace", ...overrides };
}

async function expectDetail(res: Response, status: number, detail: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ detail });
}

describe("A1 login", () => {
  it("redirects to the provider with state and a PKCE S256 challenge, and binds the state to the browser", async () => {
    const provider = fakeIdentityProvider(profile());
    const start = await beginLogin(provider);
    expect(start.location.origin + start.location.pathname).toBe("https://idp.test/login/oauth/authorize");
    expect(Object.fromEntries(start.location.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "edge-gateway",
      redirect_uri: "https://gateway.test/auth/callback",
      code_challenge_method: "S256",
    });
    expect(start.state).toMatch(/^[0-9A-Za-z]{32}$/);
    const res = await call("/auth/login", { redirect: "manual" });
    expect(res.headers.get("Set-Cookie")).toMatch(/^gw_login_state=\w+; Max-Age=600; Path=\/auth; HttpOnly; Secure; SameSite=Lax$/);
  });

  it("stores at most 30 logins a minute from one address, then answers 429 with Retry-After", async () => {
    const address = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const login = (from: string) => call("/auth/login", { redirect: "manual", headers: { "CF-Connecting-IP": from } });
    const attempts = async () => (await env.DB.prepare("SELECT count(*) AS n FROM login_attempts").first<{ n: number }>())!.n;
    freezeClockEarlyInMinute();
    for (let i = 0; i < 30; i++) expect((await login(address)).status).toBe(302);
    const before = await attempts();
    const refused = await login(address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ detail: expect.stringMatching(/^Too many logins from this address; retry after \d+ s$/) });
    expect(await attempts()).toBe(before);
    expect((await login("198.51.100.20")).status).toBe(302);
    // A header that is not an address is not used as a counter's name.
    expect((await login("x".repeat(2000))).status).toBe(302);
  });
});

describe("A1 on a development machine", () => {
  const app = createApp(GROUPS, FALLBACK_SURFACES);
  const login = () =>
    app.request("https://gateway.test/auth/login", { redirect: "manual" }, { ...env, ENVIRONMENT: "development" }, createExecutionContext());

  it("says how to sign in with a token when no identity provider answers at its address", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection refused"));
    await expectDetail(
      await login(),
      502,
      "No identity provider answers at https://idp.test (CASDOOR_ENDPOINT). On a development machine, sign in with a token: " +
        "npm run -s users:token -- --email you@example.com, then paste it on the console's sign-in page",
    );
  });

  it("goes to the provider when one answers", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 404 }));
    const res = await login();
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^https:\/\/idp\.test\/login\/oauth\/authorize\?/);
  });
});

describe("A2 callback", () => {
  it("creates the user, issues a 24 h JWT and a refresh cookie, and redirects to the front end", async () => {
    const person = profile();
    const provider = fakeIdentityProvider(person);
    const res = await completeLogin(await beginLogin(provider));
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get("Location")!);
    expect(target.origin + target.pathname).toBe("https://app.test/auth/callback");
    expect(target.searchParams.get("username")).toBe(person.preferred_username);
    expect(target.searchParams.get("email")).toBe(person.email);

    const claims = decodeJwt(target.searchParams.get("token")!);
    expect(claims).toMatchObject({ sub: person.sub, iss: "edge-gateway", aud: "edge-gateway-api" });
    expect(claims.exp! - claims.iat!).toBe(86_400);

    const user = await userRow(Number(target.searchParams.get("user_id")));
    expect(user).toMatchObject({ casdoorId: person.sub, email: person.email, fullName: "Ada Lovelace", role: "user", isActive: true });
    expect(cookieValue(res, "gw_refresh")).toMatch(/^svc_rt_/);
    expect(res.headers.getSetCookie().find((c) => c.startsWith("gw_refresh="))).toContain("HttpOnly; Secure; SameSite=Lax");
  });

  it("updates the name and email of a returning user, keyed on casdoor_id", async () => {
    const person = profile();
    const provider = fakeIdentityProvider(person);
    const first = new URL((await completeLogin(await beginLogin(provider))).headers.get("Location")!);
    provider.profile = { ...person, email: `new-${person.email}`, name: "Ada King" };
    const second = new URL((await completeLogin(await beginLogin(provider))).headers.get("Location")!);
    expect(second.searchParams.get("user_id")).toBe(first.searchParams.get("user_id"));
    expect(await userRow(Number(second.searchParams.get("user_id")))).toMatchObject({ email: `new-${person.email}`, fullName: "Ada King" });
  });

  it("makes a user listed in ADMIN_EMAILS an admin", async () => {
    const provider = fakeIdentityProvider(profile({ email: "root@example.com" }));
    const target = new URL((await completeLogin(await beginLogin(provider))).headers.get("Location")!);
    expect((await userRow(Number(target.searchParams.get("user_id"))))?.role).toBe("admin");
  });

  it("sends the PKCE verifier and the client secret to the token endpoint", async () => {
    const provider = fakeIdentityProvider(profile());
    await completeLogin(await beginLogin(provider));
    const tokenRequest = provider.requests.find((r) => r.url.endsWith("/api/login/oauth/access_token"))!;
    const form = new URLSearchParams(tokenRequest.body);
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("code_verifier")).toMatch(/^[0-9A-Za-z]{64}$/);
    expect(form.get("redirect_uri")).toBe("https://gateway.test/auth/callback");
  });
});

describe("A2 failures change no user row", () => {
  it.each([
    ["the provider reports an error", { error: "access_denied" }, 400, "Login was not completed at the identity provider: access_denied"],
    ["the code is missing", { code: "" }, 400, "code and state are required"],
    ["the state differs from the cookie's", { state: "x".repeat(32) }, 400, "Invalid or expired login state"],
    ["the provider refuses the code", { code: "stolen-code" }, 400, "The identity provider refused the authorization code"],
  ])("when %s", async (_, query, status, detail) => {
    const provider = fakeIdentityProvider(profile());
    const start = await beginLogin(provider);
    const before = await userCount();
    await expectDetail(await completeLogin(start, query), status, detail);
    expect(await userCount()).toBe(before);
  });

  it("when the browser has no state cookie", async () => {
    const provider = fakeIdentityProvider(profile());
    const before = await userCount();
    await expectDetail(await completeLogin(await beginLogin(provider), {}, ""), 400, "Invalid or expired login state");
    expect(await userCount()).toBe(before);
  });

  it("when the state is used a second time", async () => {
    const provider = fakeIdentityProvider(profile());
    const start = await beginLogin(provider);
    expect((await completeLogin(start)).status).toBe(302);
    await expectDetail(await completeLogin(start), 400, "Invalid or expired login state");
  });

  it("when the login attempt has expired", async () => {
    const provider = fakeIdentityProvider(profile());
    const start = await beginLogin(provider);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 601_000);
    try {
      await expectDetail(await completeLogin(start), 400, "Invalid or expired login state");
    } finally {
      vi.useRealTimers();
    }
  });

  it("when the provider is down", async () => {
    const provider = fakeIdentityProvider(profile());
    const start = await beginLogin(provider);
    provider.down = true;
    const before = await userCount();
    await expectDetail(await completeLogin(start), 502, "The identity provider is unavailable");
    expect(await userCount()).toBe(before);
  });

  it("when the token endpoint fails with 500", async () => {
    const provider = fakeIdentityProvider(profile());
    provider.tokenStatus = 503;
    await expectDetail(await completeLogin(await beginLogin(provider)), 502, "The identity provider is unavailable");
  });

  it("when Casdoor answers 200 with an error instead of a token", async () => {
    const provider = fakeIdentityProvider(profile());
    provider.tokenBody = { error: "invalid_grant", error_description: "expired" };
    await expectDetail(await completeLogin(await beginLogin(provider)), 400, "The identity provider refused the authorization code");
  });

  it.each([
    ["no email", { email: undefined }],
    ["an invalid email", { email: "not-an-email" }],
    ["no username", { preferred_username: undefined, name: undefined }],
  ])("when the profile has %s", async (_, overrides) => {
    const provider = fakeIdentityProvider({ ...profile(), ...overrides });
    const before = await userCount();
    await expectDetail(await completeLogin(await beginLogin(provider)), 502, "The identity provider returned an incomplete profile");
    expect(await userCount()).toBe(before);
  });

  it("when the account is deactivated", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET is_active = 0 WHERE id = ?").bind(user.id).run();
    const provider = fakeIdentityProvider({ sub: user.casdoorId, email: "changed@example.com", preferred_username: "changed" });
    await expectDetail(await completeLogin(await beginLogin(provider)), 403, "Account is deactivated");
    expect((await userRow(user.id))?.email).toBe(user.email);
  });
});

describe("OIDC discovery", () => {
  it("reads the endpoints from the provider's openid-configuration", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      Response.json({
        authorization_endpoint: "https://sso.example/authorize",
        token_endpoint: "https://sso.example/token",
        userinfo_endpoint: "https://sso.example/userinfo",
        end_session_endpoint: "https://sso.example/logout",
      }),
    );
    const endpoints = await providerEndpoints({ ...env, CASDOOR_ENDPOINT: "https://sso.example", OIDC_DISCOVERY: "true" });
    expect(endpoints).toEqual({
      authorization: "https://sso.example/authorize",
      token: "https://sso.example/token",
      userinfo: "https://sso.example/userinfo",
      endSession: "https://sso.example/logout",
    });
    expect(spy.mock.calls[0]![0]).toBe("https://sso.example/.well-known/openid-configuration");
  });

  it("treats a broken openid-configuration as the provider being unavailable", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ issuer: "x" }));
    await expect(providerEndpoints({ ...env, CASDOOR_ENDPOINT: "https://broken.example", OIDC_DISCOVERY: "true" })).rejects.toMatchObject({
      status: 502,
    });
  });
});
