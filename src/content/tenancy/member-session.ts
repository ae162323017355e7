import { and, desc, eq, gt, lte, notInArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { authenticateBearer, userPrincipal } from "../../platform/auth/bearer";
import { ACCESS_TOKEN_SECONDS } from "../../platform/auth/jwt";
import type { Principal } from "../../platform/auth/principal";
import { users } from "../../platform/auth/tables";
import { constantTimeEqual, hmacSha256Hex, randomBase62, sha256Hex } from "../../platform/crypto";
import type { AppEnv } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { settingsOf } from "../../platform/settings";
import { contentSettings } from "../settings";
import { consoleSessions } from "../schema";

/**
 * The console's session: a random id in an HttpOnly cookie, sent only to the admin paths, stored
 * as its SHA-256 in D1. Logging out deletes the row, so the cookie's value is worth nothing after
 * it; it never was a JWT, so it is no bearer credential anywhere else.
 */
export const SESSION_COOKIE = "gw_console";
/** Admin API requests a person may make in a minute per tenant unless CONSOLE_REQUESTS_PER_MINUTE says otherwise. */
export const DEFAULT_CONSOLE_REQUESTS_PER_MINUTE = 600;
const COOKIE_PATH = "/admin";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** A session id: 40 base62 characters (238 bits). */
const SESSION_ID = /^[A-Za-z0-9]{40}$/;

/** The CSRF token of a session: bound to its cookie, so one session's token is useless to another. */
export const csrfTokenFor = (c: Context<AppEnv>, session: string) => hmacSha256Hex(c.env.JWT_SECRET, `csrf:${session}`);

/** The user of a live session id, or a 401: unknown, ended, expired, or its user deactivated. */
async function sessionUser(c: Context<AppEnv>, session: string): Promise<Principal> {
  if (!SESSION_ID.test(session)) throw new ApiError(401, "Invalid authentication credentials");
  const [row] = await c
    .get("db")
    .select({ user: users })
    .from(consoleSessions)
    .innerJoin(users, eq(users.id, consoleSessions.userId))
    .where(and(eq(consoleSessions.idHash, await sha256Hex(session)), gt(consoleSessions.expiresAt, new Date().toISOString())))
    .limit(1);
  return userPrincipal(row?.user);
}

/**
 * A tenant member: `Authorization: Bearer <JWT>` (no ambient credential, so no CSRF token), or the
 * console's cookie, in which case a write must carry the session's `X-CSRF-Token`.
 */
export async function authenticateMember(c: Context<AppEnv>): Promise<Principal> {
  return withPersonLimit(c, await memberOf(c));
}

async function memberOf(c: Context<AppEnv>): Promise<Principal> {
  if (c.req.header("Authorization")) return authenticateBearer(c, { keys: false });
  const session = getCookie(c, SESSION_COOKIE);
  if (!session) throw new ApiError(401, "Authorization header required");
  const principal = await sessionUser(c, session);
  if (!SAFE_METHODS.has(c.req.method)) {
    const given = c.req.header("X-CSRF-Token") ?? "";
    if (!constantTimeEqual(given, await csrfTokenFor(c, session)))
      throw new ApiError(403, "A write with the console's session cookie needs its X-CSRF-Token");
  }
  return principal;
}

/** The tenant an admin path names (`/admin/api/tenants/7/…`), for counting a person's requests per tenant. */
const TENANT_IN_PATH = /^\/admin\/api\/tenants\/(\d{1,12})(?:\/|$)/;

/**
 * A person at the console is limited as a person, not by the plan of their API keys: a full page
 * load makes 5–8 calls and brisk clicking some 3 a second, so the default of 600 a minute per
 * member and tenant never stops a human and still bounds a script holding a session.
 */
function withPersonLimit(c: Context<AppEnv>, principal: Principal): Principal {
  const tenant = TENANT_IN_PATH.exec(c.req.path)?.[1] ?? "none";
  const perMinute = settingsOf(c.env, contentSettings).CONSOLE_REQUESTS_PER_MINUTE ?? DEFAULT_CONSOLE_REQUESTS_PER_MINUTE;
  return { ...principal, personLimit: { subject: `member:${principal.userId}:tenant:${tenant}`, perMinute } };
}

/** A person's console sessions at once (browsers and devices): a new one past them ends the oldest. */
export const SESSIONS_PER_PERSON = 50;

/**
 * Starts a console session for the caller of the JWT in Authorization: a new id in the cookie, its
 * hash in D1 for 24 hours, and the CSRF token to send with writes. The user's expired sessions go,
 * and so do the oldest past `SESSIONS_PER_PERSON`, so that starting sessions in a loop piles up no rows.
 */
export async function startSession(c: Context<AppEnv>): Promise<string> {
  if (!/^Bearer\s+\S+$/i.test(c.req.header("Authorization") ?? ""))
    throw new ApiError(400, "A console session starts from the JWT in Authorization: Bearer");
  const userId = c.get("principal").userId;
  const session = randomBase62(40);
  const now = new Date();
  const db = c.get("db");
  await db.batch([
    db.delete(consoleSessions).where(and(eq(consoleSessions.userId, userId), lte(consoleSessions.expiresAt, now.toISOString()))),
    db
      .insert(consoleSessions)
      .values({ idHash: await sha256Hex(session), userId, expiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString() }),
    db.delete(consoleSessions).where(
      and(
        eq(consoleSessions.userId, userId),
        notInArray(
          consoleSessions.idHash,
          db
            .select({ idHash: consoleSessions.idHash })
            .from(consoleSessions)
            .where(eq(consoleSessions.userId, userId))
            // Started in the same millisecond: the later row is the newer.
            .orderBy(desc(consoleSessions.createdAt), desc(sql`rowid`))
            .limit(SESSIONS_PER_PERSON),
        ),
      ),
    ),
  ]);
  setCookie(c, SESSION_COOKIE, session, {
    httpOnly: true,
    sameSite: "Lax",
    // Plain http only where development asks for it (localhost).
    secure: c.env.ENVIRONMENT !== "development",
    path: COOKIE_PATH,
    maxAge: ACCESS_TOKEN_SECONDS,
  });
  return csrfTokenFor(c, session);
}

/** The CSRF token of the session the request carries (the console reads it again after a reload). */
export async function currentCsrfToken(c: Context<AppEnv>): Promise<string | null> {
  const session = getCookie(c, SESSION_COOKIE);
  return session ? csrfTokenFor(c, session) : null;
}

/** Ends the session the cookie names (its row deleted: the value is dead everywhere) and clears the cookie. */
export async function endSession(c: Context<AppEnv>) {
  const session = getCookie(c, SESSION_COOKIE);
  if (session && SESSION_ID.test(session))
    await c
      .get("db")
      .delete(consoleSessions)
      .where(eq(consoleSessions.idHash, await sha256Hex(session)));
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, secure: c.env.ENVIRONMENT !== "development" });
}
