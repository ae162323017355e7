import { and, eq, gt, isNull, lt, lte, sql } from "drizzle-orm";
import { ACCESS_TOKEN_SECONDS, issueAccessToken } from "../platform/auth/jwt";
import { users, type User } from "../platform/auth/tables";
import { constantTimeEqual, decryptSecret, encryptSecret, randomBase62, sha256Hex, toBase64 } from "../platform/crypto";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { acceptInvitations } from "../content/service";
import { exchangeCode, fetchProfile, providerAnswers, providerEndpoints } from "./identity-provider";
import { loginAttempts, refreshTokens } from "./schema";

export const LOGIN_ATTEMPT_SECONDS = 600;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;
const REFRESH_TOKEN_PREFIX = "svc_rt_";

const isoIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const base64Url = (bytes: ArrayBuffer) =>
  toBase64(bytes)
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/(?<!=)=+$/, "");

/** A1: a random state for the browser's cookie, a PKCE pair, and the provider's authorize URL. */
export async function startLogin(db: Database, env: Bindings): Promise<{ state: string; authorizeUrl: string }> {
  // Locally the login leads to the provider's address, where nothing may run: say how to sign in instead.
  if (env.ENVIRONMENT === "development" && !(await providerAnswers(env)))
    throw new ApiError(
      502,
      `No identity provider answers at ${env.CASDOOR_ENDPOINT} (CASDOOR_ENDPOINT). On a development machine, sign in with a token: ` +
        "npm run -s users:token -- --email you@example.com, then paste it on the console's sign-in page",
    );
  const state = randomBase62(32);
  const codeVerifier = randomBase62(64);
  const challenge = base64Url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(codeVerifier)));
  const now = new Date().toISOString();
  await db.batch([
    db.delete(loginAttempts).where(lt(loginAttempts.expiresAt, now)),
    db.insert(loginAttempts).values({
      stateHash: await sha256Hex(state),
      codeVerifier: await encryptSecret(codeVerifier, env.KEY_ENCRYPTION_KEY),
      expiresAt: isoIn(LOGIN_ATTEMPT_SECONDS),
    }),
  ]);
  const url = new URL((await providerEndpoints(env)).authorization);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: env.CASDOOR_CLIENT_ID,
    redirect_uri: env.OAUTH_REDIRECT_URL,
    scope: "openid profile email",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  return { state, authorizeUrl: url.toString() };
}

export interface IssuedSession {
  user: User;
  accessToken: string;
  refreshToken: string;
}

async function newRefreshToken() {
  const token = REFRESH_TOKEN_PREFIX + randomBase62(40);
  return { token, hash: await sha256Hex(token) };
}

const invalidState = () => new ApiError(400, "Invalid or expired login state");

/**
 * A2: the state must match the browser's cookie and an unused login attempt; then the code is
 * exchanged, the user created or updated, their invitations accepted (group C), and a session issued. A failure changes no user row.
 */
export async function finishLogin(
  db: Database,
  env: Bindings,
  input: { code: string; state: string; cookieState: string | undefined },
): Promise<IssuedSession> {
  if (!input.cookieState || !constantTimeEqual(input.cookieState, input.state)) throw invalidState();
  const [attempt] = await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.stateHash, await sha256Hex(input.state)), gt(loginAttempts.expiresAt, new Date().toISOString())))
    .returning();
  if (!attempt) throw invalidState();

  const endpoints = await providerEndpoints(env);
  const accessToken = await exchangeCode(env, endpoints, input.code, await decryptSecret(attempt.codeVerifier, env.KEY_ENCRYPTION_KEY));
  const profile = await fetchProfile(endpoints, accessToken);

  const [existing] = await db.select().from(users).where(eq(users.casdoorId, profile.sub)).limit(1);
  if (existing && !existing.isActive) throw new ApiError(403, "Account is deactivated");
  const admins = env.ADMIN_EMAILS.split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const role = admins.includes(profile.email.toLowerCase()) ? "admin" : (existing?.role ?? "user");

  const refresh = await newRefreshToken();
  const now = new Date().toISOString();
  const [[user]] = await db.batch([
    db
      .insert(users)
      .values({ casdoorId: profile.sub, username: profile.username, email: profile.email, fullName: profile.fullName, role })
      .onConflictDoUpdate({
        target: users.casdoorId,
        set: { username: profile.username, email: profile.email, fullName: profile.fullName, role, updatedAt: now },
      })
      .returning(),
    // The user's refresh tokens past their expiry go: each login and each rotation adds one.
    db
      .delete(refreshTokens)
      .where(and(eq(refreshTokens.userId, sql`(SELECT id FROM users WHERE casdoor_id = ${profile.sub})`), lte(refreshTokens.expiresAt, now))),
    db.insert(refreshTokens).values({
      userId: sql`(SELECT id FROM users WHERE casdoor_id = ${profile.sub})`,
      familyId: crypto.randomUUID(),
      tokenHash: refresh.hash,
      createdAt: now,
      expiresAt: isoIn(REFRESH_TOKEN_SECONDS),
    }),
  ]);
  // Someone invited to a tenant by this address joins it now, their first sign-in or a later one.
  if (profile.emailVerified) await acceptInvitations(db, user!);
  return { user: user!, accessToken: await issueAccessToken(env, profile.sub), refreshToken: refresh.token };
}

export interface RefreshedSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/**
 * Rotation: the token is marked used and its successor issued in one transaction. A token that
 * was already used (or revoked) means it leaked: the whole family is revoked.
 */
export async function refreshSession(db: Database, env: Bindings, presented: string): Promise<RefreshedSession> {
  const invalid = new ApiError(401, "Invalid authentication credentials");
  const [current] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(presented)))
    .limit(1);
  if (!current) throw invalid;
  const now = new Date().toISOString();
  const revokeFamily = () =>
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.familyId, current.familyId), isNull(refreshTokens.revokedAt)));
  if (current.usedAt || current.revokedAt) {
    await revokeFamily();
    throw invalid;
  }
  if (current.expiresAt <= now) throw new ApiError(401, "Token has expired");

  const [user] = await db.select().from(users).where(eq(users.id, current.userId)).limit(1);
  if (!user?.isActive) throw invalid;

  const next = await newRefreshToken();
  const unused = and(eq(refreshTokens.id, current.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt));
  const [, marked] = await db.batch([
    db.insert(refreshTokens).select(
      db
        // Drizzle's INSERT … SELECT takes every column, in the table's order.
        .select({
          id: sql<number>`NULL`.as("id"),
          userId: refreshTokens.userId,
          familyId: refreshTokens.familyId,
          tokenHash: sql<string>`${next.hash}`.as("token_hash"),
          expiresAt: sql<string>`${isoIn(REFRESH_TOKEN_SECONDS)}`.as("expires_at"),
          createdAt: sql<string>`${now}`.as("created_at"),
          usedAt: sql<string | null>`NULL`.as("used_at"),
          revokedAt: sql<string | null>`NULL`.as("revoked_at"),
        })
        .from(refreshTokens)
        .where(unused),
    ),
    db.update(refreshTokens).set({ usedAt: now }).where(unused).returning({ id: refreshTokens.id }),
    // The family's tokens past their expiry go (a used one that comes back after that is refused as unknown, not as a replay).
    db.delete(refreshTokens).where(and(eq(refreshTokens.familyId, current.familyId), lte(refreshTokens.expiresAt, now))),
  ]);
  // Another request rotated this token a moment ago: one of the two is a replay.
  if (marked.length === 0) {
    await revokeFamily();
    throw invalid;
  }
  return { accessToken: await issueAccessToken(env, user.casdoorId), refreshToken: next.token, expiresIn: ACCESS_TOKEN_SECONDS };
}

/** A3: every refresh token of the user is revoked; the provider's logout URL comes back. */
export async function logout(db: Database, env: Bindings, userId: number): Promise<string> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  const url = new URL((await providerEndpoints(env)).endSession);
  url.searchParams.set("post_logout_redirect_uri", new URL(env.FRONTEND_CALLBACK_URL).origin);
  return url.toString();
}
