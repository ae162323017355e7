import { eq } from "drizzle-orm";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { NONCE_TTL_SECONDS, SIGNATURE_WINDOW_MS } from "../platform/auth/signature";
import { miniprograms, AUDIT_STATES } from "./schema";
import { applyAuditResult, completeAuthorization, revokeAuthorization, stepRecord } from "./service";
import { storeVerifyTicket, type TokenContext } from "./tokens";
import type { ComponentCredentials } from "./upstream";
import { decryptMessage, MessageCryptoError, messageSignature, querySignature, signatureMatches, xmlFields } from "./wechat/message-crypto";

/**
 * WeChat's pushes to the platform: the component's (verify tickets, authorizations) and the
 * mini-programs' events (audit results). Each is checked before anything changes: first its query
 * (timestamp within 300 s, `signature` over token, timestamp and nonce, the nonce not used), then
 * its body (`msg_signature` with the ciphertext; decryption; the app id inside). A push is taken
 * once: a lost one is made up by the next ticket, the owner's redirect, or the audit poll. These
 * receivers are the one way events come in: the sandbox's pushes reach them signed, as WeChat's do.
 */

export interface PushQuery {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  msg_signature?: string;
}

/** WeChat's pushes are a few kilobytes; the receivers take no more than this. */
export const PUSH_BODY_BYTES = 64 * 1024;
const TIMESTAMP = /^\d{1,12}$/;

/** Pushes this isolate took, until their timestamp and nonce could no longer be replayed; bounded. */
const seenPushes = new Map<string, number>();
const SEEN_PUSHES_MAX = 20_000;
const seenHere = (key: string) => (seenPushes.get(key) ?? 0) > Date.now();
function rememberPush(key: string) {
  seenPushes.set(key, Date.now() + NONCE_TTL_SECONDS * 1000);
  if (seenPushes.size <= SEEN_PUSHES_MAX) return;
  const now = Date.now();
  for (const [old, until] of seenPushes) if (until <= now || seenPushes.size > SEEN_PUSHES_MAX) seenPushes.delete(old);
}

/** Checks and opens a push: its fields, or a 4xx that changes nothing. */
async function openPush(env: Bindings, component: ComponentCredentials, query: PushQuery, body: string) {
  const { timestamp, nonce, signature, msg_signature: messageSigned } = query;
  const missing = "A push needs timestamp, nonce, signature and msg_signature in its query, and an Encrypt element";
  if (!timestamp || !nonce || !signature || !messageSigned) throw new ApiError(400, missing);
  if (!TIMESTAMP.test(timestamp) || Math.abs(Date.now() - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS)
    throw new ApiError(401, "The push's timestamp is more than 300 seconds away from the server's time");
  if (!signatureMatches(await querySignature(component.messageToken, timestamp, nonce), signature))
    throw new ApiError(401, "The push's signature does not match");
  const pushKey = `wechat-push:${timestamp}:${nonce}`;
  // Read while the body is checked; only a push whose msg_signature matches records its nonce.
  const usedElsewhere = seenHere(pushKey) ? Promise.resolve("here") : env.KV.get(pushKey);
  usedElsewhere.catch(() => undefined);
  const encrypted = xmlFields(body).Encrypt;
  if (!encrypted) throw new ApiError(400, missing);
  if (!signatureMatches(await messageSignature(component.messageToken, timestamp, nonce, encrypted), messageSigned))
    throw new ApiError(401, "The push's msg_signature does not match");
  // Checked again after the wait, with nothing awaited before it is remembered: of two at once, one passes.
  if ((await usedElsewhere) !== null || seenHere(pushKey))
    throw new ApiError(401, "This push was received before (its timestamp and nonce were used)");
  rememberPush(pushKey);
  await env.KV.put(pushKey, "1", { expirationTtl: NONCE_TTL_SECONDS });
  try {
    return xmlFields(await decryptMessage(encrypted, component.appId, component.encodingAesKey));
  } catch (error) {
    if (error instanceof MessageCryptoError) throw new ApiError(401, `The push could not be opened: ${error.message}`);
    throw error;
  }
}

/** The component's pushes: verify tickets and authorization changes. */
export async function receiveComponentPush(ctx: TokenContext, query: PushQuery, body: string) {
  const { db, env } = ctx;
  const event = await openPush(env, ctx.upstream.component, query, body);
  switch (event.InfoType) {
    case "component_verify_ticket":
      if (!event.ComponentVerifyTicket) throw new ApiError(400, "The ticket push has no ComponentVerifyTicket");
      await storeVerifyTicket(db, env, event.ComponentVerifyTicket);
      return;
    case "authorized":
    case "updateauthorized":
      if (!event.AuthorizationCode) throw new ApiError(400, "The authorization push has no AuthorizationCode");
      if (!event.PreAuthCode) return;
      await completeAuthorization(ctx, { preAuthCode: event.PreAuthCode }, event.AuthorizationCode, `push:${event.InfoType}`).catch(
        (error: unknown) => {
          // The owner's redirect may have come first and used the code; the push then has nothing to add.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        },
      );
      return;
    case "unauthorized":
      if (event.AuthorizerAppid) await revokeAuthorization(db, event.AuthorizerAppid, { InfoType: event.InfoType, CreateTime: event.CreateTime });
      return;
    default:
      // Other InfoTypes (e.g. notify_third_fasteregister) are acknowledged and left alone.
      return;
  }
}

/** A mini-program's events (sent to /wechat/miniprogram/events/<appid>): audit results, and the name, category and privacy audits. */
export async function receiveMiniprogramPush(ctx: TokenContext, appId: string, query: PushQuery, body: string) {
  const { db, env } = ctx;
  const event = await openPush(env, ctx.upstream.component, query, body);
  const [mp] = await db.select().from(miniprograms).where(eq(miniprograms.authorizerAppId, appId)).limit(1);
  if (!mp || event.MsgType !== "event") return;
  const screenshots = (event.ScreenShot ?? "").split("|").filter(Boolean);
  switch (event.Event) {
    case "weapp_audit_success":
      await applyAuditResult(db, mp, { status: AUDIT_STATES.passed }, "push");
      return;
    case "weapp_audit_fail":
      await applyAuditResult(db, mp, { status: AUDIT_STATES.rejected, reason: event.Reason ?? "", screenshots }, "push");
      return;
    case "weapp_audit_delay":
      await applyAuditResult(db, mp, { status: AUDIT_STATES.delayed, reason: event.Reason ?? "" }, "push");
      return;
    // The name, category and privacy-interface audits end in a push: each is a step (preflight reads the name's).
    case "wxa_nickname_audit":
      await stepRecord(db, mp.id, "name_audit", null, { source: "push" }, event);
      return;
    case "wxa_category_audit":
      await stepRecord(db, mp.id, "category_audit", null, { source: "push" }, event);
      return;
    case "wxa_privacy_apply":
      await stepRecord(db, mp.id, "privacy_apply", null, { source: "push" }, event);
      return;
    default:
      await stepRecord(db, mp.id, `event:${event.Event ?? "unknown"}`, null, null, event);
  }
}
