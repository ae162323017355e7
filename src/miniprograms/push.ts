import { eq } from "drizzle-orm";
import type { Database } from "../platform/database";
import { database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { ApiError } from "../platform/errors";
import { randomBase62 } from "../platform/crypto";
import { miniprograms, AUDIT_STATES } from "./schema";
import { applyAuditResult, completeAuthorization, revokeAuthorization, stepRecord } from "./service";
import { storeVerifyTicket } from "./tokens";
import { upstreamOf } from "./upstream";
import { decryptMessage, encryptMessage, MessageCryptoError, messageSignature, signatureMatches, xmlFields, xmlOf } from "./wechat/message-crypto";

/**
 * WeChat's pushes to the platform: the component's (verify tickets, authorizations) and the
 * mini-programs' events (audit results). Each is checked (signature over token, timestamp,
 * nonce and ciphertext; decryption; the app id inside) before anything changes.
 */

export interface PushQuery {
  timestamp?: string;
  nonce?: string;
  msg_signature?: string;
}

type WaitUntil = (work: Promise<unknown>) => void;

/** Checks and opens a push: its fields, or a 401 that changes nothing. */
async function openPush(env: Bindings, waitUntil: WaitUntil, query: PushQuery, body: string) {
  const { component } = upstreamOf(env, waitUntil);
  const encrypted = xmlFields(body).Encrypt;
  if (!encrypted || !query.timestamp || !query.nonce || !query.msg_signature) throw new ApiError(400, "A push needs timestamp, nonce and msg_signature, and an Encrypt element");
  if (!(await signatureMatches(component.messageToken, query.timestamp, query.nonce, encrypted, query.msg_signature))) throw new ApiError(401, "The push's msg_signature does not match");
  try {
    return xmlFields(await decryptMessage(encrypted, component.appId, component.encodingAesKey));
  } catch (error) {
    if (error instanceof MessageCryptoError) throw new ApiError(401, `The push could not be opened: ${error.message}`);
    throw error;
  }
}

/** The component's pushes: verify tickets and authorization changes. */
export async function receiveComponentPush(db: Database, env: Bindings, waitUntil: WaitUntil, query: PushQuery, body: string) {
  const event = await openPush(env, waitUntil, query, body);
  const ctx = { db, env, upstream: upstreamOf(env, waitUntil) };
  switch (event.InfoType) {
    case "component_verify_ticket":
      if (!event.ComponentVerifyTicket) throw new ApiError(400, "The ticket push has no ComponentVerifyTicket");
      await storeVerifyTicket(db, env, event.ComponentVerifyTicket);
      return;
    case "authorized":
    case "updateauthorized":
      if (!event.AuthorizationCode) throw new ApiError(400, "The authorization push has no AuthorizationCode");
      if (!event.PreAuthCode) return;
      await completeAuthorization(ctx, { preAuthCode: event.PreAuthCode }, event.AuthorizationCode, `push:${event.InfoType}`).catch((error: unknown) => {
        // The owner's redirect may have come first and used the code; the push then has nothing to add.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      });
      return;
    case "unauthorized":
      if (event.AuthorizerAppid) await revokeAuthorization(db, event.AuthorizerAppid, { InfoType: event.InfoType, CreateTime: event.CreateTime });
      return;
    default:
      // Other InfoTypes (e.g. notify_third_fasteregister) are acknowledged and left alone.
      return;
  }
}

/** A mini-program's events (sent to /wechat/miniprogram/events/<appid>): audit results. */
export async function receiveMiniprogramPush(db: Database, env: Bindings, waitUntil: WaitUntil, appId: string, query: PushQuery, body: string) {
  const event = await openPush(env, waitUntil, query, body);
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
    default:
      await stepRecord(db, mp.id, `event:${event.Event ?? "unknown"}`, null, null, event);
  }
}

/** A push as WeChat sends it: the event encrypted and signed with the component's credentials. */
export async function signedPush(env: Bindings, waitUntil: WaitUntil, event: Record<string, string | number>): Promise<{ query: Required<PushQuery>; body: string }> {
  const { component } = upstreamOf(env, waitUntil);
  const encrypted = await encryptMessage(xmlOf(event), component.appId, component.encodingAesKey);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBase62(10);
  return {
    query: { timestamp, nonce, msg_signature: await messageSignature(component.messageToken, timestamp, nonce, encrypted) },
    body: xmlOf({ AppId: component.appId, Encrypt: encrypted }),
  };
}

/** The sandbox's pushes go through the same receivers as WeChat's. */
export async function deliverComponentEvent(env: Bindings, event: Record<string, string | number>, waitUntil: WaitUntil) {
  const { query, body } = await signedPush(env, waitUntil, event);
  await receiveComponentPush(database(env), env, waitUntil, query, body);
}

export async function deliverMiniprogramEvent(env: Bindings, appId: string, event: Record<string, string | number>, waitUntil: WaitUntil) {
  const { query, body } = await signedPush(env, waitUntil, event);
  await receiveMiniprogramPush(database(env), env, waitUntil, appId, query, body);
}
