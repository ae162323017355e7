import { and, desc, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { API_KEY_PREFIX, KEY_CACHE_MS, maskToken } from "../../platform/auth/api-keys";
import type { Principal } from "../../platform/auth/principal";
import { randomBase62, sha256Hex } from "../../platform/crypto";
import { database, type Database } from "../../platform/database";
import type { AppEnv } from "../../platform/env";
import { ApiError } from "../../platform/errors";
import { IsolateCache } from "../../platform/isolate-cache";
import { audit, auditIf } from "../audit-entries";
import { tenantKeys, tenants, type Tenant, type TenantKey } from "../schema";
import { measureRows, withinRooms } from "./rooms";
import { memberScope } from "./scope";

/** What a tenant key's principal carries: the tenant it acts for and the sites it is bound to (null: all). */
export interface KeyTenant {
  id: number;
  siteIds: number[] | null;
}

declare module "../../platform/auth/principal" {
  interface Principal {
    /** Set for a tenant key (group C). */
    tenant?: KeyTenant;
  }
}

export const TENANT_KEY_PREFIX = "svc_tk_";
const TENANT_KEY = /^svc_tk_[0-9A-Za-z]{40}$/;

export interface NewTenantKey {
  name: string;
  siteIds: number[] | null;
  scopes: string[];
}

/** A new key, within the tenant's bound on keys: the token is returned once and stored only as its SHA-256. */
export async function issueTenantKey(db: Database, tenantId: number, createdBy: number, input: NewTenantKey) {
  const token = `${TENANT_KEY_PREFIX}${randomBase62(40)}`;
  const tokenHash = await sha256Hex(token);
  const [[key]] = await withinRooms(() =>
    db.batch([
      db
        .insert(tenantKeys)
        .values({
          tenantId,
          createdBy,
          name: input.name,
          siteIds: input.siteIds,
          scopes: input.scopes,
          tokenHash,
          maskedToken: maskToken(token, TENANT_KEY_PREFIX),
        })
        .returning(),
      audit(db, memberScope(tenantId), createdBy, "create-key", input.name),
      measureRows(db, tenantId, "keys"),
    ]),
  );
  return { key: key!, token };
}

export const listTenantKeys = (db: Database, tenantId: number) =>
  db.select().from(tenantKeys).where(eq(tenantKeys.tenantId, tenantId)).orderBy(desc(tenantKeys.id));

/** Revokes a key of the tenant; the audit log says who, once (revoking a revoked key records nothing). */
export async function revokeTenantKey(db: Database, tenantId: number, keyId: number, revokedBy: number): Promise<TenantKey | undefined> {
  const ofTenant = and(eq(tenantKeys.id, keyId), eq(tenantKeys.tenantId, tenantId));
  const [, [key]] = await db.batch([
    auditIf(
      db,
      memberScope(tenantId),
      revokedBy,
      sql`'revoke-key'`,
      sql`(SELECT ${tenantKeys.name} FROM ${tenantKeys} WHERE ${ofTenant})`,
      sql`EXISTS (SELECT 1 FROM ${tenantKeys} WHERE ${ofTenant} AND ${tenantKeys.isActive} = 1)`,
    ),
    db.update(tenantKeys).set({ isActive: false }).where(ofTenant).returning(),
  ]);
  forgetCachedTenantKeys({ keyId });
  return key;
}

/** The key and tenant of a token, by its hash; undefined for a token no key has. */
/** Tenant keys found lately, per isolate, as group A's keys are (the same 10 s bound after a revocation elsewhere). */
const verifiedTenantKeys = new IsolateCache<{ key: TenantKey; tenant: Tenant }>(1000, KEY_CACHE_MS);

export const forgetCachedTenantKeys = (which: { keyId?: number; tenantId?: number }) =>
  verifiedTenantKeys.forget(({ key, tenant }) => key.id === which.keyId || tenant.id === which.tenantId);

export async function findTenantKey(db: Database, token: string, primary?: Database) {
  if (!TENANT_KEY.test(token)) return undefined;
  const hash = await sha256Hex(token);
  const cached = verifiedTenantKeys.get(hash);
  if (cached) return cached;
  const lookup = (from: Database) =>
    from
      .select({ key: tenantKeys, tenant: tenants })
      .from(tenantKeys)
      .innerJoin(tenants, eq(tenants.id, tenantKeys.tenantId))
      .where(eq(tenantKeys.tokenHash, hash))
      .limit(1);
  // As group A's keys: a key just made is asked of the primary before it is refused.
  let [found] = await lookup(db);
  if (!found && primary) [found] = await lookup(primary);
  if (found) verifiedTenantKeys.set(hash, found);
  return found;
}

const BEARER_TENANT_KEY = /^Bearer\s+(svc_tk_\S*)$/i;

/**
 * Group C's credential: `X-API-Key: svc_tk_…` (or `Authorization: Bearer svc_tk_…`, as MCP clients send
 * a key), an active key of an active tenant, found by its hash. The principal carries the tenant and
 * the key's sites; the user is the key's creator.
 */
export async function authenticateTenantKey(c: Context<AppEnv>): Promise<Principal> {
  const token = c.req.header("X-API-Key") ?? BEARER_TENANT_KEY.exec(c.req.header("Authorization") ?? "")?.[1];
  if (!token) throw new ApiError(401, "X-API-Key header required (or Authorization: Bearer with the tenant key)");
  const found = await findTenantKey(c.get("db"), token, database(c.env));
  if (!found && token.startsWith(API_KEY_PREFIX))
    throw new ApiError(
      401,
      `A data-service key (${API_KEY_PREFIX}…) is not a tenant key: the content API takes a tenant's key (${TENANT_KEY_PREFIX}…), made under API keys in the console`,
    );
  if (!found || !found.tenant.isActive) throw new ApiError(401, "Invalid authentication credentials");
  if (!found.key.isActive) throw new ApiError(401, "API key has been revoked");
  const owner = found.tenant.ownerId;
  return {
    keyId: found.key.id,
    userId: found.key.createdBy,
    role: "user",
    plan: found.tenant.plan,
    scopes: found.key.scopes,
    tenant: { id: found.tenant.id, siteIds: found.key.siteIds },
    limitSubject: `tenant:${found.tenant.id}`,
    ...(owner && {
      payingAccount: { id: owner, spent: "The hourly budget of the account that owns this tenant is spent (shared by all its tenants)" },
    }),
  };
}
