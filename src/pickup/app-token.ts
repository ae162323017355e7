import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { Principal } from "../platform/auth/principal";
import { users } from "../platform/auth/tables";
import { sha256Hex } from "../platform/crypto";
import type { AppEnv } from "../platform/env";
import { ApiError } from "../platform/errors";
import { apps } from "./schema";

declare module "../platform/auth/principal" {
  interface Principal {
    /** Set for an app token (group P). */
    appId?: number;
    /** Whether that app has its carrier key (the hot API key) configured: P1 refuses a submission without it. */
    appHasHotApiKey?: boolean;
  }
}

const APP_TOKEN = /^appToken\s+(\S+)$/;

/** The pickup API's credential, `Authorization: appToken <token>`, an app of an active user, looked up by the token's hash. */
export async function authenticateAppToken(c: Context<AppEnv>): Promise<Principal> {
  const header = c.req.header("Authorization");
  if (!header) throw new ApiError(401, "Authorization header required");
  const token = APP_TOKEN.exec(header)?.[1];
  if (!token) throw new ApiError(401, "Authorization must be: appToken <token>");
  const [found] = await c
    .get("db")
    .select({ app: apps, user: users })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.userId))
    .where(eq(apps.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!found || !found.user.isActive) throw new ApiError(401, "Invalid authentication credentials");
  if (!found.app.isActive) throw new ApiError(401, "App token has been revoked");
  return {
    keyId: null,
    appId: found.app.id,
    appHasHotApiKey: found.app.encryptedHotApiKey !== null && found.app.encryptedHotApiKey !== "",
    credential: `app:${found.app.id}`,
    userId: found.user.id,
    role: found.user.role,
    plan: found.user.plan,
    scopes: [],
  };
}
