import { z } from "zod";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";

export interface ProviderEndpoints {
  authorization: string;
  token: string;
  userinfo: string;
  endSession: string;
}

export interface Profile {
  sub: string;
  username: string;
  email: string;
  fullName: string | null;
  /** Whether the provider says it verified the address (OIDC's `email_verified`): only then may the address accept invitations. */
  emailVerified: boolean;
}

type ProviderSettings = Pick<Bindings, "CASDOOR_ENDPOINT" | "CASDOOR_CLIENT_ID" | "CASDOOR_CLIENT_SECRET" | "OIDC_DISCOVERY" | "OAUTH_REDIRECT_URL">;

const REQUEST_TIMEOUT_MS = 10_000;

const unavailable = () => new ApiError(502, "The identity provider is unavailable");

async function callProvider(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch {
    throw unavailable();
  }
}

/** Whether anything answers at the provider's address: a development machine often has none running. */
export async function providerAnswers(env: Pick<Bindings, "CASDOOR_ENDPOINT">): Promise<boolean> {
  try {
    await fetch(env.CASDOOR_ENDPOINT, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

const discoverySchema = z.object({
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  end_session_endpoint: z.url().optional(),
});

const discovered = new Map<string, ProviderEndpoints>();

/** Casdoor's endpoints, or those the provider publishes when discovery is switched on. */
export async function providerEndpoints(env: ProviderSettings): Promise<ProviderEndpoints> {
  const base = env.CASDOOR_ENDPOINT.replace(/(?<!\/)\/+$/, "");
  if (env.OIDC_DISCOVERY !== "true") {
    return {
      authorization: `${base}/login/oauth/authorize`,
      token: `${base}/api/login/oauth/access_token`,
      userinfo: `${base}/api/userinfo`,
      endSession: `${base}/api/logout`,
    };
  }
  const cached = discovered.get(base);
  if (cached) return cached;
  const res = await callProvider(`${base}/.well-known/openid-configuration`);
  const parsed = res.ok ? discoverySchema.safeParse(await res.json().catch(() => null)) : undefined;
  if (!parsed?.success) throw unavailable();
  const endpoints = {
    authorization: parsed.data.authorization_endpoint,
    token: parsed.data.token_endpoint,
    userinfo: parsed.data.userinfo_endpoint,
    endSession: parsed.data.end_session_endpoint ?? `${base}/api/logout`,
  };
  discovered.set(base, endpoints);
  return endpoints;
}

const tokenResponseSchema = z.object({ access_token: z.string().min(1) });

/** The authorization code (with its PKCE verifier) for the provider's access token. */
export async function exchangeCode(env: ProviderSettings, endpoints: ProviderEndpoints, code: string, codeVerifier: string) {
  const res = await callProvider(endpoints.token, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: env.OAUTH_REDIRECT_URL,
      client_id: env.CASDOOR_CLIENT_ID,
      client_secret: env.CASDOOR_CLIENT_SECRET,
      code_verifier: codeVerifier,
    }),
  });
  if (res.status >= 500) throw unavailable();
  const body = tokenResponseSchema.safeParse(await res.json().catch(() => null));
  // Casdoor answers a refused code with 200 and an `error` field, others with 400: both lack a token.
  if (!res.ok || !body.success) throw new ApiError(400, "The identity provider refused the authorization code");
  return body.data.access_token;
}

const userinfoSchema = z.object({
  sub: z.string().min(1),
  email: z.email(),
  preferred_username: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  email_verified: z.boolean().optional(),
});

export async function fetchProfile(endpoints: ProviderEndpoints, accessToken: string): Promise<Profile> {
  const res = await callProvider(endpoints.userinfo, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
  });
  if (!res.ok) throw unavailable();
  const info = userinfoSchema.safeParse(await res.json().catch(() => null));
  const username = info.success ? (info.data.preferred_username ?? info.data.name) : undefined;
  if (!info.success || !username) throw new ApiError(502, "The identity provider returned an incomplete profile");
  return { sub: info.data.sub, username, email: info.data.email, fullName: info.data.name ?? null, emailVerified: info.data.email_verified === true };
}
