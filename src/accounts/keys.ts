import type { z } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import { forgetCachedKeys, issueApiKey, type IssuedApiKey } from "../platform/auth/api-keys";
import type { Principal } from "../platform/auth/principal";
import { scopeAllows } from "../platform/auth/scopes";
import { apiKeys, type ApiKey, type Plan } from "../platform/auth/tables";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import type { keyCreateSchema } from "./schema";

/** A4's body, as its schema parsed it. */
export type KeyInput = z.output<typeof keyCreateSchema>;

/**
 * A key may not create a key that can do more than itself: a scoped key gives out only scopes
 * it holds, and never full access.
 */
function assertNoEscalation(caller: Principal, requested: string[]) {
  if (caller.scopes.length === 0) return;
  const escalates = requested.length === 0 || requested.some((scope) => scope === "*" || !scopeAllows(caller.scopes, scope as `${string}:${string}`));
  if (escalates) throw new ApiError(403, "Insufficient permissions");
}

/** Active keys a user may hold, by plan; rate limits count per user, this bounds what there is to revoke. */
export const ACTIVE_KEYS_PER_PLAN: Record<Plan, number | null> = { free: 5, basic: 20, enterprise: 100, internal: null };

async function assertKeyAllowance(db: Database, caller: Principal) {
  const allowed = ACTIVE_KEYS_PER_PLAN[caller.plan];
  if (allowed === null) return;
  const [active] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, caller.userId), eq(apiKeys.isActive, true)));
  if ((active?.n ?? 0) >= allowed) {
    throw new ApiError(409, `Key limit reached: the ${caller.plan} plan allows ${allowed} active keys; revoke one first`);
  }
}

export async function createKey(db: Database, encryptionKey: string, caller: Principal, input: KeyInput): Promise<IssuedApiKey> {
  const scopes = input.scopes ?? [];
  assertNoEscalation(caller, scopes);
  await assertKeyAllowance(db, caller);
  return issueApiKey(db, encryptionKey, {
    userId: caller.userId,
    name: input.name,
    description: input.description ?? null,
    scopes,
    expiresAt: input.expires_at ?? null,
  });
}

export const listKeys = (db: Database, userId: number) => db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.id));

/** Another user's key is "not found", so ids cannot be probed. */
export async function ownKey(db: Database, userId: number, id: number): Promise<ApiKey> {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .limit(1);
  if (!key) throw new ApiError(404, "Not found");
  return key;
}

/** Revoking is immediate in this isolate and within 10 s in the others (the key cache, docs/consistency.md). Revoking twice is harmless. */
export async function revokeKey(db: Database, userId: number, id: number): Promise<void> {
  await ownKey(db, userId, id);
  await db.update(apiKeys).set({ isActive: false }).where(eq(apiKeys.id, id));
  forgetCachedKeys({ keyId: id });
}
