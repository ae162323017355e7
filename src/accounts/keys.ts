import type { z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import { forgetCachedKeys, insertApiKey, newKeyCredentials, type IssuedApiKey } from "../platform/auth/api-keys";
import type { Principal } from "../platform/auth/principal";
import { scopeAllows } from "../platform/auth/scopes";
import { apiKeys, keyUsageDaily, type ApiKey, type Plan } from "../platform/auth/tables";
import type { Database } from "../platform/database";
import { accountRoomFull, measureAccountRows, withinAccountRoom } from "../platform/account-rooms";
import { ApiError } from "../platform/errors";
import { auditEvent, auditEventWhere } from "./audit";
import { accountAuditEvents, type keyCreateSchema, type keyRollSchema } from "./schema";

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

/** Keys an account keeps, revoked ones included: they stay listed (who made them, when last used), and nothing deletes them. */
export const KEYS_PER_ACCOUNT = 1_000;

async function activeKeyCount(db: Database, userId: number): Promise<number> {
  const [active] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.isActive, true)));
  return active?.n ?? 0;
}

const keyLimitReached = (plan: Plan, allowed: number) => `Key limit reached: the ${plan} plan allows ${allowed} active keys; revoke one first`;

/**
 * Creates the key and its `key.created` event in one batch, which counts the account's keys after
 * its insert: keys created at the same moment cannot pass the plan's allowance or the account's bound together.
 */
export async function createKey(db: Database, encryptionKey: string, caller: Principal, input: KeyInput): Promise<IssuedApiKey> {
  const scopes = input.scopes ?? [];
  assertNoEscalation(caller, scopes);
  const allowed = ACTIVE_KEYS_PER_PLAN[caller.plan];
  // Asked first too, so that a caller at the allowance is told without a key being made and rolled back.
  if (allowed !== null && (await activeKeyCount(db, caller.userId)) >= allowed) throw new ApiError(409, keyLimitReached(caller.plan, allowed));
  const { token, secret, stored } = await newKeyCredentials(encryptionKey);
  const fields = {
    userId: caller.userId,
    name: input.name,
    description: input.description ?? null,
    scopes,
    expiresAt: input.expires_at ?? null,
    allowedIps: input.allowed_ips ?? null,
  };
  const [[key]] = await withinAccountRoom(
    () =>
      db.batch([
        insertApiKey(db, fields, stored),
        auditEvent(db, {
          userId: caller.userId,
          action: "key.created",
          actor: caller,
          keyId: sql`(SELECT id FROM api_keys WHERE token_hash = ${stored.tokenHash})`,
          detail: { name: input.name, scopes, expires_at: fields.expiresAt, allowed_ips: fields.allowedIps },
        }),
        measureAccountRows(db, caller.userId, "api_keys", { table: apiKeys, owner: apiKeys.userId }, KEYS_PER_ACCOUNT),
        measureAccountRows(
          db,
          caller.userId,
          "active_api_keys",
          { table: apiKeys, owner: apiKeys.userId, only: eq(apiKeys.isActive, true) },
          allowed ?? Number.MAX_SAFE_INTEGER,
        ),
      ]),
    async () =>
      allowed !== null && (await activeKeyCount(db, caller.userId)) >= allowed
        ? keyLimitReached(caller.plan, allowed)
        : accountRoomFull(KEYS_PER_ACCOUNT, "API keys, revoked ones included"),
  );
  return { key: key!, token, secret };
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

/**
 * Revoking is immediate in this isolate and within 10 s in the others (the key cache, docs/consistency.md). Revoking twice is harmless,
 * and records one event: the event is written only while the key is still active, in the batch that revokes it.
 */
export async function revokeKey(db: Database, caller: Principal, id: number): Promise<void> {
  await ownKey(db, caller.userId, id);
  await db.batch([
    auditEventWhere(
      db,
      { action: "key.revoked", actor: caller, userId: sql`user_id`, keyId: sql`id`, detail: sql`json_object('name', name)` },
      sql`FROM ${apiKeys} WHERE id = ${id} AND is_active = 1`,
    ),
    db.update(apiKeys).set({ isActive: false }).where(eq(apiKeys.id, id)),
  ]);
  forgetCachedKeys({ keyId: id });
}

/** The overlap a roll leaves the replaced token when the caller names none (its bounds: keyRollSchema). */
const ROLL_OVERLAP_DEFAULT_SECONDS = 86_400;

export interface RolledKey extends IssuedApiKey {
  /** When the replaced token and secret stop. */
  previousValidUntil: string;
}

/**
 * A new token and secret for the key; the replaced pair keeps working until the overlap ends, then
 * stops (a roll during an overlap stops the pair before it at once). The event is written only if
 * this batch's update took (it finds the new token's hash). The overlap is at least a minute, longer
 * than the verified-key cache keeps a row, so that no isolate accepts the old pair past its end.
 */
export async function rollKey(
  db: Database,
  encryptionKey: string,
  caller: Principal,
  id: number,
  input: z.output<typeof keyRollSchema>,
): Promise<RolledKey> {
  const key = await ownKey(db, caller.userId, id);
  assertNoEscalation(caller, key.scopes);
  if (!key.isActive) throw new ApiError(409, "A revoked key cannot be rolled; create a new key");
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) throw new ApiError(409, "An expired key cannot be rolled; create a new key");
  const overlap = input.overlap_seconds ?? ROLL_OVERLAP_DEFAULT_SECONDS;
  const previousValidUntil = new Date(Math.min(Date.now() + overlap * 1000, key.expiresAt ? Date.parse(key.expiresAt) : Infinity)).toISOString();
  const { token, secret, stored } = await newKeyCredentials(encryptionKey);
  const [rolled] = await db.batch([
    db
      .update(apiKeys)
      .set({
        previousTokenHash: sql`${apiKeys.tokenHash}`,
        previousEncryptedSecret: sql`${apiKeys.encryptedSecret}`,
        previousValidUntil,
        ...stored,
      })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, caller.userId), eq(apiKeys.isActive, true)))
      .returning(),
    auditEventWhere(
      db,
      {
        action: "key.rolled",
        actor: caller,
        userId: sql`user_id`,
        keyId: sql`id`,
        detail: sql`json_object('name', name, 'previous_valid_until', ${previousValidUntil})`,
      },
      sql`FROM ${apiKeys} WHERE id = ${id} AND token_hash = ${stored.tokenHash}`,
    ),
  ]);
  forgetCachedKeys({ keyId: id });
  if (!rolled[0]) throw new ApiError(409, "A revoked key cannot be rolled; create a new key");
  return { key: rolled[0], token, secret, previousValidUntil };
}

/** How far back a key's usage is kept and answered. */
export const USAGE_DAYS = 90;

/** A key's requests by day, group and status over the last `days` days (today included), newest day first. */
export async function keyUsage(db: Database, userId: number, id: number, days: number) {
  await ownKey(db, userId, id);
  const since = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .select()
    .from(keyUsageDaily)
    .where(and(eq(keyUsageDaily.keyId, id), gte(keyUsageDaily.day, since)))
    .orderBy(desc(keyUsageDaily.day), asc(keyUsageDaily.routeGroup), asc(keyUsageDaily.status));
  return { since, rows };
}

/**
 * Upkeep: a `key.expired` event for each key whose expiry passed in the last week (the partial
 * unique index makes a second run write nothing), and usage older than 90 days deleted.
 */
export async function keyUpkeep(db: Database) {
  const now = new Date(Date.now());
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const oldestKept = new Date(now.getTime() - (USAGE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  await db.batch([
    db
      .insert(accountAuditEvents)
      .select(
        sql`SELECT NULL, user_id, 'key.expired', NULL, NULL, id, json_object('name', name), expires_at
          FROM ${apiKeys} WHERE expires_at > ${weekAgo} AND expires_at <= ${now.toISOString()}`,
      )
      .onConflictDoNothing(),
    db.delete(keyUsageDaily).where(lt(keyUsageDaily.day, oldestKept)),
  ]);
}
