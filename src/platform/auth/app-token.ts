import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { sha256Hex } from "../crypto";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import type { Principal } from "./principal";
import { apps, users } from "./tables";

const APP_TOKEN = /^appToken\s+(\S+)$/;

/** Group P: `Authorization: appToken <token>`, an app of an active user, looked up by the token's hash. */
export async function authenticateAppToken(c: Context<AppEnv>): Promise<Principal> {
  const header = c.req.header("Authorization");
  if (!header) throw new ApiError(401, "Authorization header required");
  const token = APP_TOKEN.exec(header)?.[1];
  if (!token) throw new ApiError(401, "Authorization must be: appToken <token>");
  const [found] = await c.var.db
    .select({ app: apps, user: users })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.userId))
    .where(eq(apps.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!found || !found.user.isActive) throw new ApiError(401, "Invalid authentication credentials");
  if (!found.app.isActive) throw new ApiError(401, "App token has been revoked");
  return { keyId: null, appId: found.app.id, userId: found.user.id, role: found.user.role, plan: found.user.plan, scopes: [] };
}
