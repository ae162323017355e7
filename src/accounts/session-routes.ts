import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { createRouter } from "../platform/openapi";
import { clientAddress } from "../platform/ip-ranges";
import { consumeRateLimit } from "../platform/rate-limit";
import { defineRoutes, Prebuilt } from "../platform/route";
import { ACCOUNT_ENVELOPE } from "./envelope";
import { sessionSchema } from "./schema";
import { finishLogin, LOGIN_ATTEMPT_SECONDS, logout, REFRESH_TOKEN_SECONDS, refreshSession, startLogin } from "./sessions";

const STATE_COOKIE = "gw_login_state";
const REFRESH_COOKIE = "gw_refresh";
const cookieOptions = { httpOnly: true, secure: true, sameSite: "Lax", path: "/auth" } as const;

/** A1 is anonymous and stores a login attempt per call: this many a minute from one address. */
export const LOGINS_PER_ADDRESS_PER_MINUTE = 30;

const MALFORMED = "Malformed parameters: `detail` lists the fields";

function setRefreshCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, REFRESH_COOKIE, token, { ...cookieOptions, maxAge: REFRESH_TOKEN_SECONDS });
}

/** A1–A3 and the refresh: public but for the logout, each route documenting its own errors. */
export function sessionRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, ACCOUNT_ENVELOPE, { tags: ["A · Accounts and keys"], errors: [] });

  route({
    method: "get",
    path: "/auth/login",
    summary: "A1 · Start a browser login at the identity provider",
    description: "Sets an HttpOnly cookie binding the OAuth `state` to this browser; PKCE S256.",
    data: z.never(),
    answer: "Redirect to the identity provider",
    status: 302,
    errors: [429, 502],
    errorTexts: { 429: `More than ${LOGINS_PER_ADDRESS_PER_MINUTE} logins a minute from this address; see Retry-After` },
    handle: async (c) => {
      const address = clientAddress(c.req.header("CF-Connecting-IP")) ?? "unknown";
      const limit = await consumeRateLimit(c.env.KV, (work) => c.executionCtx.waitUntil(work), `login:${address}`, [
        { name: "minute", seconds: 60, limit: LOGINS_PER_ADDRESS_PER_MINUTE },
      ]);
      for (const [name, value] of Object.entries(limit.headers)) c.header(name, value);
      if (!limit.allowed) throw new ApiError(429, `Too many logins from this address; retry after ${limit.headers["Retry-After"]} s`);
      const { state, authorizeUrl } = await startLogin(c.get("db"), c.env);
      setCookie(c, STATE_COOKIE, state, { ...cookieOptions, maxAge: LOGIN_ATTEMPT_SECONDS });
      return new Prebuilt<never>(c.redirect(authorizeUrl, 302));
    },
  });

  route({
    method: "get",
    path: "/auth/callback",
    summary: "A2 · The provider's redirect back: issue the service's JWT",
    request: {
      query: z.object({
        code: z.string().max(2048).optional(),
        state: z.string().max(256).optional(),
        error: z.string().max(256).optional(),
      }),
    },
    data: z.never(),
    answer: "Redirect to the front end with token, user_id, username and email; the refresh token is an HttpOnly cookie",
    status: 302,
    errors: [400, 403, 422, 502],
    errorTexts: {
      400: "Login cancelled, missing code, or a state that does not match this browser's",
      403: "The account is deactivated",
      422: MALFORMED,
      502: "The provider is unreachable or returned an incomplete profile",
    },
    handle: async (c) => {
      const { code, state, error } = c.req.valid("query");
      if (error) throw new ApiError(400, `Login was not completed at the identity provider: ${error}`);
      if (!code || !state) throw new ApiError(400, "code and state are required");
      const cookieState = getCookie(c, STATE_COOKIE);
      deleteCookie(c, STATE_COOKIE, cookieOptions);
      const session = await finishLogin(c.get("db"), c.env, { code, state, cookieState });
      setRefreshCookie(c, session.refreshToken);
      const target = new URL(c.env.FRONTEND_CALLBACK_URL);
      target.searchParams.set("token", session.accessToken);
      target.searchParams.set("user_id", String(session.user.id));
      target.searchParams.set("username", session.user.username);
      target.searchParams.set("email", session.user.email);
      return new Prebuilt<never>(c.redirect(target.toString(), 302));
    },
  });

  route({
    method: "post",
    path: "/auth/refresh",
    summary: "Rotate the refresh token and get a new access token",
    description: "The refresh token comes from the `gw_refresh` cookie or the body. A used token presented again revokes its whole family.",
    request: {
      body: { required: false, content: { "application/json": { schema: z.object({ refresh_token: z.string().max(200).optional() }) } } },
    },
    data: sessionSchema,
    answer: "A new session",
    errors: [400, 401, 415, 422],
    errorTexts: { 401: "Missing, unknown, expired, revoked or reused refresh token", 422: MALFORMED },
    handle: async (c) => {
      const fromBody = c.req.header("Content-Type")?.includes("application/json") ? c.req.valid("json").refresh_token : undefined;
      const presented = fromBody ?? getCookie(c, REFRESH_COOKIE);
      if (!presented) throw new ApiError(401, "Refresh token required");
      const session = await refreshSession(c.get("db"), c.env, presented);
      setRefreshCookie(c, session.refreshToken);
      return { access_token: session.accessToken, token_type: "bearer" as const, expires_in: session.expiresIn, refresh_token: session.refreshToken };
    },
  });

  route({
    method: "post",
    path: "/auth/logout",
    summary: "A3 · End the session: revoke refresh tokens, return the provider's logout URL",
    security: [{ Bearer: [] }],
    data: z.object({
      logout_url: z.string().openapi({ example: "https://login.example.com/api/logout?post_logout_redirect_uri=https%3A%2F%2Fapp.example.com" }),
    }),
    answer: "Where to send the browser",
    errors: [401],
    errorTexts: { 401: "No valid session" },
    handle: async (c) => {
      const logoutUrl = await logout(c.get("db"), c.env, c.get("principal").userId);
      deleteCookie(c, REFRESH_COOKIE, cookieOptions);
      return { logout_url: logoutUrl };
    },
  });

  return router;
}
