import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import { issueAccessToken } from "../../src/platform/auth/jwt";
import { type Plan, type Role, type User, users } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { call } from "./requests";

let serial = 0;
export const uniqueTag = () => `${Date.now()}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

export async function createUser(options: { role?: Role; email?: string; plan?: Plan } = {}): Promise<User> {
  const tag = uniqueTag();
  const [user] = await database(env)
    .insert(users)
    .values({
      username: `user-${tag}`,
      email: options.email ?? `user-${tag}@example.com`,
      casdoorId: `casdoor-${tag}`,
      role: options.role ?? "user",
      plan: options.plan ?? "free",
    })
    .returning();
  return user!;
}

export const sessionFor = (user: Pick<User, "casdoorId">) => issueAccessToken(env, user.casdoorId);

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function userRow(id: number) {
  const [user] = await database(env).select().from(users).where(eq(users.id, id));
  return user;
}

export function accountJson(method: string, path: string, token: string, body?: unknown) {
  return call(path, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface ProviderProfile {
  sub: string;
  email?: string;
  preferred_username?: string;
  name?: string;
  email_verified?: boolean;
}

export interface FakeProvider {
  /** The PKCE challenge of the login in progress, from A1's redirect. */
  challenge?: string;
  tokenStatus: number;
  tokenBody?: unknown;
  userinfoStatus: number;
  profile: ProviderProfile;
  down: boolean;
  requests: { url: string; body: string }[];
}

const base64Url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/**
 * Casdoor at the HTTP boundary: the token endpoint accepts the code "good-code" only with the
 * PKCE verifier that matches the challenge of the login; userinfo returns the profile.
 */
export function fakeIdentityProvider(profile: ProviderProfile): FakeProvider {
  const provider: FakeProvider = { tokenStatus: 200, userinfoStatus: 200, profile, down: false, requests: [] };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    provider.requests.push({ url: request.url, body: await request.clone().text() });
    if (provider.down) throw new TypeError("fetch failed");
    const url = new URL(request.url);
    if (url.pathname === "/api/login/oauth/access_token") {
      const form = new URLSearchParams(await request.text());
      const verifier = form.get("code_verifier") ?? "";
      const digest = base64Url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
      const accepted = form.get("code") === "good-code" && digest === provider.challenge && form.get("client_secret") === "test-only-client-secret";
      if (provider.tokenStatus !== 200) return Response.json(provider.tokenBody ?? { error: "server_error" }, { status: provider.tokenStatus });
      if (!accepted) return Response.json({ error: "invalid_grant" }, { status: 400 });
      return Response.json(provider.tokenBody ?? { access_token: "provider-access-token", token_type: "Bearer" });
    }
    if (url.pathname === "/api/userinfo") {
      if (request.headers.get("Authorization") !== "Bearer provider-access-token") return new Response("no", { status: 401 });
      return Response.json(provider.profile, { status: provider.userinfoStatus });
    }
    return new Response("not found", { status: 404 });
  });
  return provider;
}

export interface LoginStart {
  state: string;
  cookie: string;
  location: URL;
}

export async function beginLogin(provider: FakeProvider): Promise<LoginStart> {
  const res = await call("/auth/login", { redirect: "manual" });
  const location = new URL(res.headers.get("Location")!);
  provider.challenge = location.searchParams.get("code_challenge") ?? undefined;
  const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
  return { state: location.searchParams.get("state")!, cookie, location };
}

export function completeLogin(start: LoginStart, query: Record<string, string> = {}, cookie = start.cookie) {
  const params = new URLSearchParams({ code: "good-code", state: start.state, ...query });
  return call(`/auth/callback?${params.toString()}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
}

export function cookieValue(res: Response, name: string): string | undefined {
  const header = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return header?.split(";")[0]!.slice(name.length + 1);
}
