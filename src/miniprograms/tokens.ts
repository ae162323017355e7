import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { decryptSecret, encryptSecret } from "../platform/crypto";
import { miniprograms, wechatCredentials, type Miniprogram } from "./schema";
import type { Upstream } from "./upstream";
import { callWeChat } from "./wechat/client";

export const VERIFY_TICKET = "component_verify_ticket";
const COMPONENT_TOKEN = "component_access_token";
const authorizerTokenName = (appId: string) => `authorizer_access_token:${appId}`;

/** A token is refreshed this long before it expires, so that no call uses one about to lapse. */
export const REFRESH_MARGIN_MS = 15 * 60_000;
const LEASE_MS = 30_000;
const WAIT_STEP_MS = 250;

export interface TokenContext {
  db: Database;
  env: Bindings;
  upstream: Upstream;
}

const seal = (env: Bindings, value: string) => encryptSecret(value, env.KEY_ENCRYPTION_KEY);
const unseal = (env: Bindings, value: string) => decryptSecret(value, env.KEY_ENCRYPTION_KEY);

/** The ticket WeChat pushes every 10 minutes (push.ts): the component token is made from it. */
export async function storeVerifyTicket(db: Database, env: Bindings, ticket: string) {
  const values = { sealedValue: await seal(env, ticket), updatedAt: new Date().toISOString() };
  await db
    .insert(wechatCredentials)
    .values({ name: VERIFY_TICKET, ...values })
    .onConflictDoUpdate({ target: wechatCredentials.name, set: values });
}

async function readCredential(db: Database, name: string) {
  const [row] = await db.select().from(wechatCredentials).where(eq(wechatCredentials.name, name)).limit(1);
  return row;
}

const fresh = (row: { sealedValue: string | null; expiresAt: string | null } | undefined, now = Date.now()) =>
  Boolean(row?.sealedValue && row.expiresAt && Date.parse(row.expiresAt) - REFRESH_MARGIN_MS > now);

/**
 * The credential `name`, refreshed by `refresh` when it is missing, about to expire or `force`d.
 * One worker at a time refreshes: it takes the row's lease (a conditional upsert); the others wait
 * for its result instead of refreshing too, which for an authorizer would spend the refresh token
 * twice and lose the authorization.
 */
async function leasedCredential(
  ctx: TokenContext,
  name: string,
  refresh: () => Promise<{ value: string; expiresInSeconds: number; alsoWrite?: BatchItem<"sqlite"> }>,
  force = false,
): Promise<string> {
  const { db, env } = ctx;
  const current = await readCredential(db, name);
  if (!force && fresh(current)) return unseal(env, current!.sealedValue!);
  const holder = crypto.randomUUID();
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const [taken] = await db
    .insert(wechatCredentials)
    .values({ name, leaseHolder: holder, leaseUntil })
    .onConflictDoUpdate({
      target: wechatCredentials.name,
      set: { leaseHolder: holder, leaseUntil },
      setWhere: or(isNull(wechatCredentials.leaseUntil), lt(wechatCredentials.leaseUntil, now.toISOString())),
    })
    .returning();
  if (taken?.leaseHolder !== holder) return waitForRefresh(ctx, name, current?.updatedAt);
  try {
    const { value, expiresInSeconds, alsoWrite } = await refresh();
    const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
    const sealed = await seal(env, value);
    const stored = db
      .update(wechatCredentials)
      .set({ sealedValue: sealed, expiresAt, leaseHolder: null, leaseUntil: null, updatedAt: new Date().toISOString() })
      .where(and(eq(wechatCredentials.name, name), eq(wechatCredentials.leaseHolder, holder)));
    // The new token and (for an authorizer) the rotated refresh token are written together. WeChat
    // has spent the old refresh token by now: a D1 blip here must not lose the authorization.
    await againOnFailure(async () => {
      if (alsoWrite) await db.batch([stored, alsoWrite]);
      else await stored;
    });
    return value;
  } catch (error) {
    await db
      .update(wechatCredentials)
      .set({ leaseHolder: null, leaseUntil: null })
      .where(and(eq(wechatCredentials.name, name), eq(wechatCredentials.leaseHolder, holder)));
    throw error;
  }
}

/** Waits before each further try of a write that cannot be redone by asking again (at most 0.35 s in all). */
const AGAIN_AFTER_MS = [50, 300];

async function againOnFailure(write: () => Promise<void>): Promise<void> {
  for (const wait of AGAIN_AFTER_MS) {
    try {
      return await write();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return write();
}

/** Another worker holds the lease: its fresh value, once written (at most the lease's length). */
async function waitForRefresh(ctx: TokenContext, name: string, seenUpdatedAt: string | undefined): Promise<string> {
  for (let waited = 0; waited < LEASE_MS; waited += WAIT_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    const row = await readCredential(ctx.db, name);
    if (row?.leaseHolder) continue;
    if (row?.sealedValue && row.updatedAt !== seenUpdatedAt) return unseal(ctx.env, row.sealedValue);
    break;
  }
  throw new ApiError(503, `Another worker's refresh of WeChat's ${name.split(":")[0]} did not complete: try again`);
}

/** The component_access_token (2 h), from the app secret and the latest verify ticket. */
export function componentAccessToken(ctx: TokenContext, force = false): Promise<string> {
  return leasedCredential(
    ctx,
    COMPONENT_TOKEN,
    async () => {
      const ticketRow = await readCredential(ctx.db, VERIFY_TICKET);
      if (!ticketRow?.sealedValue) {
        throw new ApiError(
          503,
          "WeChat has not pushed a component_verify_ticket yet (it does every 10 minutes to /wechat/component/events): no WeChat call can be made before it",
        );
      }
      const { component } = ctx.upstream;
      const answer = await callWeChat<{ component_access_token: string; expires_in: number }>(
        ctx.upstream.transport,
        "/cgi-bin/component/api_component_token",
        {},
        {
          component_appid: component.appId,
          component_appsecret: component.secret,
          component_verify_ticket: await unseal(ctx.env, ticketRow.sealedValue),
        },
      );
      return { value: answer.component_access_token, expiresInSeconds: answer.expires_in };
    },
    force,
  );
}

/**
 * An authorizer's access token, refreshed with its refresh token, which WeChat may rotate: the new
 * refresh token is stored with the new access token, under the same lease.
 */
export function authorizerAccessToken(ctx: TokenContext, miniprogram: Miniprogram, force = false): Promise<string> {
  const appId = miniprogram.authorizerAppId;
  if (!appId || !miniprogram.authorizerRefreshToken)
    throw new ApiError(409, `Mini-program ${miniprogram.id} is not authorized: its owner must authorize the platform first`);
  return leasedCredential(
    ctx,
    authorizerTokenName(appId),
    async () => {
      const componentToken = await componentAccessToken(ctx);
      // Read again under the lease: another worker may have rotated it since.
      const [row] = await ctx.db
        .select({ sealed: miniprograms.authorizerRefreshToken })
        .from(miniprograms)
        .where(eq(miniprograms.id, miniprogram.id))
        .limit(1);
      const answer = await callWeChat<{ authorizer_access_token: string; expires_in: number; authorizer_refresh_token: string }>(
        ctx.upstream.transport,
        "/cgi-bin/component/api_authorizer_token",
        { component_access_token: componentToken },
        { component_appid: ctx.upstream.component.appId, authorizer_appid: appId, authorizer_refresh_token: await unseal(ctx.env, row!.sealed!) },
      );
      const rotated = await seal(ctx.env, answer.authorizer_refresh_token);
      return {
        value: answer.authorizer_access_token,
        expiresInSeconds: answer.expires_in,
        alsoWrite: ctx.db.update(miniprograms).set({ authorizerRefreshToken: rotated }).where(eq(miniprograms.id, miniprogram.id)),
      };
    },
    force,
  );
}

/** Seals a credential for storage (AES-GCM under KEY_ENCRYPTION_KEY). */
export const sealCredential = seal;

/**
 * The write of an authorization's access token (api_query_auth), already sealed, for the caller's
 * batch: a query builder, not run here.
 */
export const authorizerTokenWrite = (db: Database, appId: string, sealedToken: string, expiresInSeconds: number) => {
  const values = {
    sealedValue: sealedToken,
    expiresAt: new Date(Date.now() + expiresInSeconds * 1000).toISOString(),
    updatedAt: new Date().toISOString(),
  };
  return db
    .insert(wechatCredentials)
    .values({ name: authorizerTokenName(appId), ...values })
    .onConflictDoUpdate({ target: wechatCredentials.name, set: values });
};

/** Forgets an authorizer's access token (unauthorized, or refused by WeChat). */
export const forgetAuthorizerToken = (db: Database, appId: string) =>
  db.delete(wechatCredentials).where(eq(wechatCredentials.name, authorizerTokenName(appId)));

/** The credentials that expire within the margin, for the scheduled refresh. */
export async function credentialsDue(db: Database): Promise<{ component: boolean; authorizers: Miniprogram[] }> {
  const rows = await db.select().from(wechatCredentials);
  const now = Date.now();
  const component = !fresh(
    rows.find((r) => r.name === COMPONENT_TOKEN),
    now + REFRESH_MARGIN_MS,
  );
  const dueApps = new Set(
    rows.filter((r) => r.name.startsWith("authorizer_access_token:") && !fresh(r, now + REFRESH_MARGIN_MS)).map((r) => r.name.split(":")[1]!),
  );
  const authorized = await db.select().from(miniprograms).where(isNotNull(miniprograms.authorizerRefreshToken));
  const authorizers = authorized.filter(
    (m) => m.authorizerAppId && (dueApps.has(m.authorizerAppId) || !rows.some((r) => r.name === authorizerTokenName(m.authorizerAppId!))),
  );
  return { component, authorizers };
}
