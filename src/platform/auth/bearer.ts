import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { database } from "../database";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { API_KEY_PREFIX, assertUsableKey, findKeyByToken, keyPrincipal } from "./api-keys";
import { verifyAccessToken } from "./jwt";
import type { Principal } from "./principal";
import { type User, users } from "./tables";

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * `Authorization: Bearer …`: a value starting with `svc_sk_` is an API key, anything else the
 * service's JWT. A JWT counts only while its user exists and is active.
 */
export async function authenticateBearer(c: Context<AppEnv>, accept: { keys: boolean }): Promise<Principal> {
  const header = c.req.header("Authorization");
  if (!header) throw new ApiError(401, "Authorization header required");
  const token = BEARER.exec(header)?.[1];
  if (!token) throw new ApiError(401, "Invalid authentication credentials");

  if (token.startsWith(API_KEY_PREFIX)) {
    if (!accept.keys) throw new ApiError(401, "Invalid authentication credentials");
    const found = await findKeyByToken(c.get("db"), token, database(c.env));
    assertUsableKey(found);
    return keyPrincipal(c, found);
  }

  return sessionPrincipal(c, token);
}

/** The user of the service's JWT, wherever it came from (the header, or a console's cookie). */
export async function sessionPrincipal(c: Context<AppEnv>, token: string): Promise<Principal> {
  const subject = await verifyAccessToken(c.env, token);
  const [user] = await c.get("db").select().from(users).where(eq(users.casdoorId, subject)).limit(1);
  return userPrincipal(user);
}

/** The principal of a user's own session (a JWT, or a console session that names the user): active users only. */
export function userPrincipal(user: User | undefined): Principal {
  if (!user?.isActive) throw new ApiError(401, "Invalid authentication credentials");
  return { keyId: null, userId: user.id, role: user.role, plan: user.plan, scopes: [] };
}
