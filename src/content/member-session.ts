import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { authenticateBearer, sessionPrincipal } from "../platform/auth/bearer";
import { ACCESS_TOKEN_SECONDS } from "../platform/auth/jwt";
import type { Principal } from "../platform/auth/principal";
import { constantTimeEqual, hmacSha256Hex } from "../platform/crypto";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";

/** The console's session: the service's JWT in an HttpOnly cookie, sent only to the admin paths. */
export const SESSION_COOKIE = "gw_console";
const COOKIE_PATH = "/admin";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The CSRF token of a session: bound to its cookie, so one session's token is useless to another. */
export const csrfTokenFor = (c: Context<AppEnv>, session: string) => hmacSha256Hex(c.env.JWT_SECRET, `csrf:${session}`);

/**
 * A tenant member: `Authorization: Bearer <JWT>` (no ambient credential, so no CSRF token), or the
 * console's cookie, in which case a write must carry the session's `X-CSRF-Token`.
 */
export async function authenticateMember(c: Context<AppEnv>): Promise<Principal> {
  if (c.req.header("Authorization")) return authenticateBearer(c, { keys: false });
  const session = getCookie(c, SESSION_COOKIE);
  if (!session) throw new ApiError(401, "Authorization header required");
  const principal = await sessionPrincipal(c, session);
  if (!SAFE_METHODS.has(c.req.method)) {
    const given = c.req.header("X-CSRF-Token") ?? "";
    if (!constantTimeEqual(given, await csrfTokenFor(c, session))) throw new ApiError(403, "A write with the console's session cookie needs its X-CSRF-Token");
  }
  return principal;
}

/** Starts a console session from the JWT the caller sent: the cookie, and the CSRF token to send with writes. */
export async function startSession(c: Context<AppEnv>): Promise<string> {
  const token = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!token) throw new ApiError(400, "A console session starts from the JWT in Authorization: Bearer");
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    // Plain http only where development asks for it (localhost).
    secure: c.env.ENVIRONMENT !== "development",
    path: COOKIE_PATH,
    maxAge: ACCESS_TOKEN_SECONDS,
  });
  return csrfTokenFor(c, token);
}

/** The CSRF token of the session the request carries (the console reads it again after a reload). */
export async function currentCsrfToken(c: Context<AppEnv>): Promise<string | null> {
  const session = getCookie(c, SESSION_COOKIE);
  return session ? csrfTokenFor(c, session) : null;
}

export function endSession(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, secure: c.env.ENVIRONMENT !== "development" });
}
