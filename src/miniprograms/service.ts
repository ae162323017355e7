import { and, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { accountRoomFull, measureAccountRows, withinAccountRoom } from "../platform/account-rooms";
import { callerUrlProblem } from "../platform/outbound-url";
import { constantTimeEqual, hmacSha256Hex, randomBase62 } from "../platform/crypto";
import { codeTemplates, miniprogramSteps, miniprograms, STAGES, AUDIT_STATES, type Miniprogram, type Stage } from "./schema";
import {
  authorizerAccessToken,
  authorizerTokenWrite,
  componentAccessToken,
  forgetAuthorizerToken,
  sealCredential,
  type TokenContext,
} from "./tokens";
import { callWeChat, fetchWeChatImage, uploadWeChatMedia, type WeChatAnswer } from "./wechat/client";
import { WeChatError } from "./wechat/errors";

/** Who asks: the API key's user (whose mini-programs these are) and the key, for the step record. */
export interface Actor {
  userId: number;
  keyId: number | null;
}

/**
 * Every step and the stage it needs (at least, or with `only` exactly one of those) and reaches:
 * D3–D10, then the audit settings and release control of operations.ts.
 */
const STEPS = {
  nameverify: { label: "D3 name verification", needs: "authorized", reaches: "name_verified" },
  update: { label: "D4 profile update", needs: "name_verified", reaches: "profile_updated" },
  codecommit: { label: "D5 code commit", needs: "profile_updated", reaches: "code_committed" },
  submitaudit: { label: "D6 audit submission", needs: "code_committed", reaches: "audit_submitted" },
  testerinfo: { label: "D7 testers and codes", needs: "code_committed", reaches: null },
  auditstate: { label: "D8 audit state", needs: "audit_submitted", reaches: null },
  release: { label: "D9 release", needs: "audit_passed", reaches: "released" },
  bindtester: { label: "D10 tester binding", needs: "authorized", reaches: null },
  privacyset: { label: "Setting the privacy guide", needs: "authorized", reaches: null },
  privacyget: { label: "Reading the privacy guide", needs: "authorized", reaches: null },
  codeprivacy: { label: "Reading the code's privacy interfaces", needs: "code_committed", reaches: null },
  domains: { label: "Setting domains", needs: "authorized", reaches: null },
  domainsget: { label: "Reading domains", needs: "authorized", reaches: null },
  categoriesall: { label: "Reading WeChat's categories", needs: "authorized", reaches: null },
  categoryadd: { label: "Adding a category", needs: "authorized", reaches: null },
  categorydelete: { label: "Deleting a category", needs: "authorized", reaches: null },
  categories: { label: "Reading the categories", needs: "authorized", reaches: null },
  pages: { label: "Reading the code's pages", needs: "code_committed", reaches: null },
  preflight: { label: "The preflight check", needs: "code_committed", reaches: null },
  withdraw: { label: "Withdrawing the audit", needs: "audit_submitted", reaches: null, only: ["audit_submitted"] },
  quota: { label: "Reading the audit quota", needs: "authorized", reaches: null },
  speedup: { label: "Expediting the audit", needs: "audit_submitted", reaches: null, only: ["audit_submitted"] },
  phased: { label: "A phased release", needs: "audit_passed", reaches: "phased_release", only: ["audit_passed", "phased_release"] },
  phasedplan: { label: "Reading the phased release", needs: "authorized", reaches: null },
  phasedrevert: { label: "Reverting the phased release", needs: "phased_release", reaches: "audit_passed", only: ["phased_release"] },
  rollback: { label: "Rolling back the release", needs: "released", reaches: null },
  history: { label: "Reading the versions to roll back to", needs: "authorized", reaches: null },
  visitstatus: { label: "Changing the visit status", needs: "released", reaches: null },
} as const satisfies Record<string, { label: string; needs: Stage; reaches: Stage | null; only?: readonly Stage[] }>;
export type Step = keyof typeof STEPS;

/** The steps recorded besides those a caller asks for: WeChat's pushes, links and reads of the fleet. */
const RECORDED_STEPS: Record<string, string> = {
  configured: "The configuration made",
  authorization_link: "An authorization link made",
  authorized: "Authorized on WeChat by its owner",
  unauthorized: "The authorization withdrawn on WeChat",
  audit_result: "The audit's result",
  name_audit: "WeChat's answer on the name",
  category_audit: "WeChat's answer on a category",
  privacy_apply: "WeChat's answer on a privacy interface",
  jserrors: "Reading the JS errors of a phased release",
};

/** A recorded step in words, for the steps answer: "Adding a category", "WeChat's event weapp_xyz". */
export const stepLabel = (step: string): string =>
  step in STEPS
    ? STEPS[step as Step].label
    : (RECORDED_STEPS[step] ?? (step.startsWith("event:") ? `WeChat's event ${step.slice("event:".length)}` : step));

const rank = (stage: Stage) => STAGES.indexOf(stage);

/** A step out of order: 409 naming the stage it needs and the one the mini-program is at. */
export function requireStage(mp: Miniprogram, step: Step) {
  const rule: { label: string; needs: Stage; only?: readonly Stage[] } = STEPS[step];
  const { label, needs, only } = rule;
  if (only && !only.includes(mp.stage))
    throw new ApiError(409, `${label} needs the stage ${only.join(" or ")}; mini-program ${mp.id} is at ${mp.stage}`);
  if (rank(mp.stage) < rank(needs)) throw new ApiError(409, `${label} needs the stage ${needs}; mini-program ${mp.id} is at ${mp.stage}`);
}

/** The stage after a step: forward only, except that a new commit starts a new version's way and a reverted phased release goes back. */
export const stageAfter = (mp: Miniprogram, step: Step): Stage => {
  const reaches = STEPS[step].reaches;
  if (!reaches) return mp.stage;
  if (step === "codecommit" || step === "phasedrevert") return reaches;
  return rank(reaches) > rank(mp.stage) ? reaches : mp.stage;
};

export const stepRecord = (db: Database, miniprogramId: number, step: string, actorKeyId: number | null, request: unknown, answer: unknown) =>
  db.insert(miniprogramSteps).values({ miniprogramId, step, actorKeyId, request, answer });

/**
 * A step recorded only while `when` holds for the configuration's row: put before the update that
 * changes the row, in one batch, so that of two callers racing only the one that changes it records.
 */
const stepRecordIf = (db: Database, when: SQL | undefined, step: string, actorKeyId: number | null, request: unknown, answer: unknown) =>
  db.insert(miniprogramSteps).select(
    db
      .select({
        // Every column, in the table's order (drizzle's insert-select); a NULL id is numbered by SQLite.
        id: sql<null>`NULL`.as("id"),
        miniprogramId: miniprograms.id,
        step: sql<string>`${step}`.as("step"),
        actorKeyId: sql<number | null>`${actorKeyId}`.as("actor_key_id"),
        request: sql<string>`${JSON.stringify(request)}`.as("request"),
        answer: sql<string>`${JSON.stringify(answer)}`.as("answer"),
        at: sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`.as("at"),
      })
      .from(miniprograms)
      .where(when),
  );

/** The caller's mini-program; another user's id is a 404, as a missing one. */
export async function miniprogramOf(db: Database, actor: Actor, rawId: string): Promise<Miniprogram> {
  const id = Number(rawId);
  const [found] =
    Number.isSafeInteger(id) && id > 0
      ? await db
          .select()
          .from(miniprograms)
          .where(and(eq(miniprograms.id, id), eq(miniprograms.ownerId, actor.userId)))
          .limit(1)
      : [];
  if (!found) throw new ApiError(404, `No mini-program configuration ${rawId}`);
  return found;
}

/** Configurations an account keeps: nothing deletes one (its steps are its record). */
export const MINIPROGRAMS_PER_ACCOUNT = 1_000;

/** A new configuration and its first step; past `MINIPROGRAMS_PER_ACCOUNT` it is a 409. */
export async function createMiniprogram(db: Database, actor: Actor, input: { name: string; configType?: string }) {
  const [[created]] = await withinAccountRoom(
    () =>
      db.batch([
        db
          .insert(miniprograms)
          .values({ ownerId: actor.userId, name: input.name, configType: input.configType ?? "standard" })
          .returning(),
        // The batch runs in one transaction on one connection: the row just inserted is the last one.
        db
          .insert(miniprogramSteps)
          .values({ miniprogramId: sql`last_insert_rowid()`, step: "configured", actorKeyId: actor.keyId, request: input, answer: null }),
        measureAccountRows(db, actor.userId, "miniprograms", { table: miniprograms, owner: miniprograms.ownerId }, MINIPROGRAMS_PER_ACCOUNT),
      ]),
    () => accountRoomFull(MINIPROGRAMS_PER_ACCOUNT, "mini-program configurations"),
  );
  return created!;
}

export async function listMiniprograms(db: Database, actor: Actor, page: number, size: number) {
  const mine = eq(miniprograms.ownerId, actor.userId);
  const [[total], rows] = await db.batch([
    db.select({ n: count() }).from(miniprograms).where(mine),
    db
      .select()
      .from(miniprograms)
      .where(mine)
      .orderBy(miniprograms.id)
      .limit(size)
      .offset((page - 1) * size),
  ]);
  return {
    Total: total!.n,
    CurrPage: page,
    Data: rows.map((m) => ({ Id: m.id, Name: m.name, ConfigType: m.configType, Stage: m.stage, AppId: m.authorizerAppId })),
  };
}

export async function listTemplates(db: Database, page: number, size: number) {
  const [[total], rows] = await db.batch([
    db.select({ n: count() }).from(codeTemplates),
    db
      .select()
      .from(codeTemplates)
      .orderBy(desc(codeTemplates.createdAt))
      .limit(size)
      .offset((page - 1) * size),
  ]);
  return {
    Total: total!.n,
    CurrPage: page,
    Data: rows.map((t) => ({ Id: t.id, Name: t.name, Version: t.version, Description: t.description, Created: t.createdAt })),
  };
}

/** Every step taken on the mini-program, oldest first. */
export const stepsOf = (db: Database, mp: Miniprogram) =>
  db.select().from(miniprogramSteps).where(eq(miniprogramSteps.miniprogramId, mp.id)).orderBy(miniprogramSteps.id);

/** A call with the authorizer's token; a refused token is dropped, fetched again, and the call tried once more. */
export async function asAuthorizer<T>(ctx: TokenContext, mp: Miniprogram, call: (token: string) => Promise<T>): Promise<T> {
  try {
    return await call(await authorizerAccessToken(ctx, mp));
  } catch (error) {
    if (!(error instanceof WeChatError) || !error.tokenRefused) throw error;
    return call(await authorizerAccessToken(ctx, mp, true));
  }
}

/** WeChat's answer in the interface's `{ errcode, errmsg }` shapes: its refusal too, with our reading of it. */
export type WeChatOutcome<T> = { errcode: number; errmsg: string; message?: string } & Partial<T>;

/** A call for D3, D5, D6, D9 and D10: success shaped by `shape`, WeChat's refusal kept as it came. */
export async function weChatOutcome<R extends WeChatAnswer, T extends object>(
  ctx: TokenContext,
  mp: Miniprogram,
  call: (token: string) => Promise<R>,
  shape: (result: R) => T,
): Promise<WeChatOutcome<T>> {
  try {
    const result = await asAuthorizer(ctx, mp, call);
    return { errcode: 0, errmsg: String(result.errmsg ?? "ok"), ...shape(result) };
  } catch (error) {
    if (error instanceof WeChatError) return { errcode: error.errcode, errmsg: error.errmsg, message: error.message } as WeChatOutcome<T>;
    throw error;
  }
}

/** A WeChat failure in an answer without errcode (D4, D7, D8): 502 with our reading of it. */
function asUpstreamError(error: unknown): never {
  if (error instanceof WeChatError) throw new ApiError(502, `WeChat refused (errcode ${error.errcode}): ${error.message}`);
  throw error;
}

// Authorization

/** Binds the owner's redirect to the link we made: only the holder of that link's state can complete it. */
export const authorizationState = (ctx: TokenContext, miniprogramId: number, preAuthCode: string) =>
  hmacSha256Hex(ctx.env.JWT_SECRET, `wechat-authorization:${miniprogramId}:${preAuthCode}`);

/** The link the mini-program's owner opens to authorize the platform (a pre-auth code, 30 minutes). */
export async function authorizationLink(ctx: TokenContext, actor: Actor, mp: Miniprogram, callbackBase: string) {
  const token = await componentAccessToken(ctx);
  const { pre_auth_code } = await callWeChat<{ pre_auth_code: string }>(
    ctx.upstream.transport,
    "/cgi-bin/component/api_create_preauthcode",
    { component_access_token: token },
    { component_appid: ctx.upstream.component.appId },
  );
  const page = ctx.upstream.sandbox ? `${callbackBase}/wechat-sandbox/componentloginpage` : "https://mp.weixin.qq.com/cgi-bin/componentloginpage";
  const url = new URL(page);
  url.searchParams.set("component_appid", ctx.upstream.component.appId);
  url.searchParams.set("pre_auth_code", pre_auth_code);
  url.searchParams.set("redirect_uri", `${callbackBase}/wechat/authorized/${mp.id}/${await authorizationState(ctx, mp.id, pre_auth_code)}`);
  url.searchParams.set("auth_type", "2");
  const { db } = ctx;
  await db.batch([
    db.update(miniprograms).set({ preAuthCode: pre_auth_code }).where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "authorization_link", actor.keyId, {}, { expiresIn: 1800 }),
  ]);
  return { authorizeUrl: url.href, expiresIn: 1800 };
}

/**
 * An authorization code (from the authorized push or the owner's redirect) made into the
 * authorizer's tokens. Idempotent: the push and the redirect both come, in either order.
 */
export async function completeAuthorization(
  ctx: TokenContext,
  target: { miniprogramId: number; state: string } | { preAuthCode: string },
  authorizationCode: string,
  source: string,
) {
  const { db, env } = ctx;
  const where = "preAuthCode" in target ? eq(miniprograms.preAuthCode, target.preAuthCode) : eq(miniprograms.id, target.miniprogramId);
  const [mp] = await db.select().from(miniprograms).where(where).limit(1);
  if (!mp) throw new ApiError(404, "No mini-program waits for this authorization");
  if ("state" in target) {
    // Only our link's state comes back: any other is the same 404 as an unknown id, so ids and app ids cannot be probed.
    const preAuthCode = mp.preAuthCode ?? (mp.authorizerAppId ? await authorizedPreAuthCode(db, mp.id) : null);
    if (!preAuthCode || !constantTimeEqual(target.state, await authorizationState(ctx, mp.id, preAuthCode)))
      throw new ApiError(404, "No mini-program waits for this authorization");
    // Already done: the push came first.
    if (!mp.preAuthCode) return mp;
  }
  const token = await componentAccessToken(ctx);
  let info: { authorizer_appid: string; authorizer_access_token: string; expires_in: number; authorizer_refresh_token: string };
  try {
    ({ authorization_info: info } = await callWeChat<{ authorization_info: typeof info }>(
      ctx.upstream.transport,
      "/cgi-bin/component/api_query_auth",
      { component_access_token: token },
      { component_appid: ctx.upstream.component.appId, authorization_code: authorizationCode },
    ));
  } catch (error) {
    // The push and the owner's redirect bring the same code; the other one may have used it meanwhile.
    const [now] = await db.select().from(miniprograms).where(eq(miniprograms.id, mp.id)).limit(1);
    if (error instanceof WeChatError && now?.authorizerAppId && !now.preAuthCode) return now;
    throw error;
  }
  if (mp.authorizerAppId === info.authorizer_appid && rank(mp.stage) >= rank("authorized")) return mp;
  const [sealedRefresh, sealedAccess] = await Promise.all([
    sealCredential(env, info.authorizer_refresh_token),
    sealCredential(env, info.authorizer_access_token),
  ]);
  // The push and the redirect may both get here: the first to clear the pre-auth code records the step.
  const won = mp.preAuthCode ? eq(miniprograms.preAuthCode, mp.preAuthCode) : isNull(miniprograms.preAuthCode);
  const [, updated] = await db.batch([
    stepRecordIf(
      db,
      and(eq(miniprograms.id, mp.id), won),
      "authorized",
      null,
      { source, preAuthCode: mp.preAuthCode },
      { authorizerAppId: info.authorizer_appid },
    ),
    db
      .update(miniprograms)
      .set({
        authorizerAppId: info.authorizer_appid,
        authorizerRefreshToken: sealedRefresh,
        preAuthCode: null,
        stage: "authorized",
        updatedAt: new Date().toISOString(),
      })
      .where(and(eq(miniprograms.id, mp.id), won))
      .returning(),
    authorizerTokenWrite(db, info.authorizer_appid, sealedAccess, info.expires_in),
  ]);
  if (updated[0]) return updated[0];
  const [now] = await db.select().from(miniprograms).where(eq(miniprograms.id, mp.id)).limit(1);
  return now!;
}

/** The pre-auth code of the link whose authorization the configuration holds, from its latest authorized step. */
async function authorizedPreAuthCode(db: Database, miniprogramId: number): Promise<string | null> {
  const [step] = await db
    .select({ request: miniprogramSteps.request })
    .from(miniprogramSteps)
    .where(and(eq(miniprogramSteps.miniprogramId, miniprogramId), eq(miniprogramSteps.step, "authorized")))
    .orderBy(desc(miniprogramSteps.id))
    .limit(1);
  const recorded = z.object({ preAuthCode: z.string() }).safeParse(step?.request);
  return recorded.success ? recorded.data.preAuthCode : null;
}

/** The owner took the authorization back: the tokens are gone, the configuration waits for a new one. */
export async function revokeAuthorization(db: Database, appId: string, event: unknown) {
  const [mp] = await db.select().from(miniprograms).where(eq(miniprograms.authorizerAppId, appId)).limit(1);
  if (!mp) return;
  await db.batch([
    db
      .update(miniprograms)
      .set({ authorizerAppId: null, authorizerRefreshToken: null, stage: "configured", updatedAt: new Date().toISOString() })
      .where(eq(miniprograms.id, mp.id)),
    forgetAuthorizerToken(db, appId),
    stepRecord(db, mp.id, "unauthorized", null, event, null),
  ]);
}

// D3–D10

export async function verifyName(ctx: TokenContext, actor: Actor, mp: Miniprogram, name: string) {
  requireStage(mp, "nameverify");
  const request = { name };
  const answer = await weChatOutcome(
    ctx,
    mp,
    (token) =>
      callWeChat<WeChatAnswer & { hit_condition?: boolean; wording?: string }>(
        ctx.upstream.transport,
        "/cgi-bin/wxverify/checkwxverifynickname",
        { access_token: token },
        { nick_name: name },
      ),
    (result) => ({ hitCondition: Boolean(result.hit_condition), wording: result.wording ?? "" }),
  );
  const passed = answer.errcode === 0 && !answer.hitCondition;
  const { db } = ctx;
  await db.batch([
    db
      .update(miniprograms)
      .set({ ...(passed ? { name, stage: stageAfter(mp, "nameverify") } : {}), updatedAt: new Date().toISOString() })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "nameverify", actor.keyId, request, answer),
  ]);
  return answer;
}

const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** An image the caller names by URL (icon, licence), fetched under the outbound rules and a size bound. */
async function fetchImage(ctx: TokenContext, url: string, field: string): Promise<{ bytes: Uint8Array; type: string; filename: string }> {
  const problem = await callerUrlProblem(ctx.env, url);
  if (problem) throw new ApiError(400, `${field}: the URL ${problem}`);
  let res: Response;
  try {
    // Not followed: a redirect could lead past the outbound rules checked above.
    res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "manual" });
  } catch {
    throw new ApiError(502, `${field}: ${url} could not be fetched`);
  }
  if (res.status >= 300 && res.status < 400) throw new ApiError(400, `${field}: ${url} redirects; give the image's own address`);
  const type = (res.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
  if (!res.ok) throw new ApiError(502, `${field}: ${url} answered ${res.status}`);
  if (!["image/png", "image/jpeg"].includes(type)) throw new ApiError(400, `${field}: must be a PNG or JPEG image, not ${type || "an unknown type"}`);
  if (Number(res.headers.get("Content-Length") ?? 0) > MAX_IMAGE_BYTES)
    throw new ApiError(413, `${field}: at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError(413, `${field}: at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  return { bytes, type, filename: `${field}.${type === "image/png" ? "png" : "jpg"}` };
}

export interface ProfileUpdate {
  name: string;
  icon: string;
  license: string;
  licenseType: string;
  explain: string;
}

/** D4: the name with its licence, the avatar and the introduction, set at WeChat in that order. */
export async function updateProfile(ctx: TokenContext, actor: Actor, mp: Miniprogram, input: ProfileUpdate) {
  requireStage(mp, "update");
  const [icon, license] = await Promise.all([fetchImage(ctx, input.icon, "icon"), fetchImage(ctx, input.license, "license")]);
  const { transport } = ctx.upstream;
  const answers: unknown[] = [];
  try {
    await asAuthorizer(ctx, mp, async (token) => {
      const [iconMedia, licenseMedia] = [await uploadWeChatMedia(transport, token, icon), await uploadWeChatMedia(transport, token, license)];
      answers.push(await callWeChat(transport, "/wxa/setnickname", { access_token: token }, { nick_name: input.name, license: licenseMedia }));
      answers.push(
        await callWeChat(
          transport,
          "/cgi-bin/account/modifyheadimage",
          { access_token: token },
          { head_img_media_id: iconMedia, x1: "0", y1: "0", x2: "1", y2: "1" },
        ),
      );
      answers.push(await callWeChat(transport, "/cgi-bin/account/modifysignature", { access_token: token }, { signature: input.explain }));
    });
  } catch (error) {
    await stepRecord(
      ctx.db,
      mp.id,
      "update",
      actor.keyId,
      input,
      error instanceof WeChatError ? { errcode: error.errcode, errmsg: error.errmsg } : { error: String(error) },
    );
    asUpstreamError(error);
  }
  const { db } = ctx;
  await db.batch([
    db
      .update(miniprograms)
      .set({
        name: input.name,
        icon: input.icon,
        license: input.license,
        licenseType: input.licenseType,
        introduction: input.explain,
        stage: stageAfter(mp, "update"),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "update", actor.keyId, input, answers),
  ]);
  return { code: 200 as const, msg: "success" };
}

/** D5: the template's code with this configuration as ext_json (a string, as WeChat wants it). */
export async function commitCode(ctx: TokenContext, actor: Actor, mp: Miniprogram, templateId: number) {
  requireStage(mp, "codecommit");
  const { db } = ctx;
  const [template] = await db.select().from(codeTemplates).where(eq(codeTemplates.id, templateId)).limit(1);
  if (!template) throw new ApiError(404, `No code template ${templateId}: D2 lists them`);
  const extJson = JSON.stringify({ extEnable: true, extAppid: mp.authorizerAppId, ext: { configurationId: mp.id, name: mp.name } });
  const request = { template_id: templateId, ext_json: extJson, user_version: template.version, user_desc: template.name };
  const answer = await weChatOutcome(
    ctx,
    mp,
    (token) => callWeChat(ctx.upstream.transport, "/wxa/commit", { access_token: token }, request),
    () => ({}),
  );
  const committed = answer.errcode === 0;
  await db.batch([
    db
      .update(miniprograms)
      .set({
        ...(committed
          ? {
              templateId,
              templateVersion: template.version,
              extJson,
              stage: stageAfter(mp, "codecommit"),
              auditId: null,
              auditStatus: null,
              auditReason: null,
              auditScreenshots: null,
              testQrKey: null,
              wxaCodeKey: null,
            }
          : {}),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "codecommit", actor.keyId, request, answer),
  ]);
  return answer;
}

/** D6: to audit; a rejected or withdrawn audit may be submitted again without a new commit. */
export async function submitAudit(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  const resubmission = mp.stage === "audit_submitted" && (mp.auditStatus === AUDIT_STATES.rejected || mp.auditStatus === AUDIT_STATES.withdrawn);
  if (!resubmission) {
    requireStage(mp, "submitaudit");
    if (rank(mp.stage) > rank("code_committed"))
      throw new ApiError(
        409,
        `D6 audit submission needs the stage code_committed (a new commit after a release or a passed audit); mini-program ${mp.id} is at ${mp.stage}`,
      );
  }
  let request: { item_list: AuditItem[] } = { item_list: [] };
  const answer = await weChatOutcome(
    ctx,
    mp,
    async (token) => {
      request = { item_list: await auditItems(ctx, token) };
      return callWeChat<WeChatAnswer & { auditid: number | string }>(ctx.upstream.transport, "/wxa/submit_audit", { access_token: token }, request);
    },
    (result) => ({ auditid: String(result.auditid) }),
  );
  const { db } = ctx;
  await db.batch([
    db
      .update(miniprograms)
      .set({
        ...(answer.auditid
          ? {
              auditId: answer.auditid,
              auditStatus: AUDIT_STATES.auditing,
              auditReason: null,
              auditScreenshots: null,
              stage: "audit_submitted" as const,
            }
          : {}),
        updatedAt: new Date().toISOString(),
      })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "submitaudit", actor.keyId, request, answer),
  ]);
  return answer;
}

/** One page of the audit's item list (submit_audit's item_list): where it is, its title, its service category. */
export interface AuditItem {
  address: string;
  title: string;
  first_class?: string;
  second_class?: string;
  first_id?: number;
  second_id?: number;
}

/** pages/goods/detail → "Goods detail", pages/index/index → "Index": WeChat shows the title to its auditors. */
const pageTitle = (address: string) => {
  const words = address
    .replace(/^pages\//, "")
    .split("/")
    .filter((word, i, all) => word !== all[i - 1])
    .join(" ");
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, 32);
};

/** WeChat takes at most 5 items. */
const AUDIT_ITEMS = 5;

/** The item list from the committed code's pages (get_page), each under the first approved category (getcategory). */
async function auditItems(ctx: TokenContext, token: string): Promise<AuditItem[]> {
  type Category = { first: number; first_name: string; second: number; second_name: string; audit_status: number };
  const [pages, categories] = await Promise.all([
    callWeChat<WeChatAnswer & { page_list?: unknown }>(ctx.upstream.transport, "/wxa/get_page", { access_token: token }),
    callWeChat<WeChatAnswer & { categories?: unknown }>(ctx.upstream.transport, "/cgi-bin/wxopen/getcategory", { access_token: token }),
  ]);
  const approved = (Array.isArray(categories.categories) ? (categories.categories as Category[]) : []).find((c) => c.audit_status === 3);
  const addresses = Array.isArray(pages.page_list) ? pages.page_list.filter((p): p is string => typeof p === "string") : [];
  return addresses.slice(0, AUDIT_ITEMS).map((address) => ({
    address,
    title: pageTitle(address),
    ...(approved
      ? { first_class: approved.first_name, second_class: approved.second_name, first_id: approved.first, second_id: approved.second }
      : {}),
  }));
}

/** The stages of a mini-program whose audit is under way or just decided. */
const IN_AUDIT: readonly Stage[] = ["audit_submitted", "audit_passed"];

/** An audit's outcome (push, D8 or the poll) written to the configuration, once per change. */
export async function applyAuditResult(
  db: Database,
  mp: Miniprogram,
  result: { status: number; reason?: string; screenshots?: string[] },
  source: string,
  actorKeyId: number | null = null,
) {
  // The result moves the stage only while the mini-program is in its audit: WeChat pushes a result
  // again when our answer was late, and that must not take back a release begun since.
  const inAudit = IN_AUDIT.includes(mp.stage);
  const stage: Stage = !inAudit ? mp.stage : result.status === AUDIT_STATES.passed ? "audit_passed" : "audit_submitted";
  if (mp.auditStatus === result.status && mp.stage === stage) return mp;
  // A push and a D8 may bring the same result at once: only the one that changes the row records it.
  const changes = and(
    eq(miniprograms.id, mp.id),
    // The row as read: a step that moved it on since keeps its stage.
    inAudit ? inArray(miniprograms.stage, IN_AUDIT) : eq(miniprograms.stage, mp.stage),
    or(isNull(miniprograms.auditStatus), ne(miniprograms.auditStatus, result.status), ne(miniprograms.stage, stage)),
  );
  const [, updated] = await db.batch([
    stepRecordIf(db, changes, "audit_result", actorKeyId, { source }, result),
    db
      .update(miniprograms)
      .set({
        auditStatus: result.status,
        auditReason: result.reason || null,
        auditScreenshots: result.screenshots?.length ? result.screenshots : null,
        stage,
        updatedAt: new Date().toISOString(),
      })
      .where(changes)
      .returning(),
  ]);
  return updated[0] ?? mp;
}

/** D8: the latest audit's state, asked of WeChat (pushes keep it current too). */
export async function auditState(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  requireStage(mp, "auditstate");
  if (!mp.auditId) throw new ApiError(409, `Mini-program ${mp.id} has no audit: D6 submits one`);
  let result: WeChatAnswer & { status: number; reason?: string; screenshot?: string };
  try {
    result = await asAuthorizer(ctx, mp, (token) =>
      callWeChat(ctx.upstream.transport, "/wxa/get_auditstatus", { access_token: token }, { auditid: Number(mp.auditId) }),
    );
  } catch (error) {
    asUpstreamError(error);
  }
  const screenshots = result.screenshot ? result.screenshot.split("|").filter(Boolean) : [];
  const updated = await applyAuditResult(ctx.db, mp, { status: result.status, reason: result.reason ?? "", screenshots }, "D8", actor.keyId);
  return { status: result.status, reason: result.reason ?? "", auditid: updated.auditId, screenshots };
}

/** D9: the audited version goes live. */
export async function release(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  requireStage(mp, "release");
  const answer = await weChatOutcome(
    ctx,
    mp,
    (token) => callWeChat(ctx.upstream.transport, "/wxa/release", { access_token: token }, {}),
    () => ({}),
  );
  const { db } = ctx;
  await db.batch([
    db
      .update(miniprograms)
      .set({ ...(answer.errcode === 0 ? { stage: stageAfter(mp, "release") } : {}), updatedAt: new Date().toISOString() })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "release", actor.keyId, {}, answer),
  ]);
  return answer;
}

/** D10: a tester by WeChat id. */
export async function bindTester(ctx: TokenContext, actor: Actor, mp: Miniprogram, messengerId: string) {
  requireStage(mp, "bindtester");
  const answer = await weChatOutcome(
    ctx,
    mp,
    (token) =>
      callWeChat<WeChatAnswer & { userstr?: string }>(ctx.upstream.transport, "/wxa/bind_tester", { access_token: token }, { wechatid: messengerId }),
    (result) => ({ userstr: result.userstr }),
  );
  const { db } = ctx;
  await db.batch([
    db
      .update(miniprograms)
      .set({ ...(answer.errcode === 0 ? { testers: [...new Set([...mp.testers, messengerId])] } : {}), updatedAt: new Date().toISOString() })
      .where(eq(miniprograms.id, mp.id)),
    stepRecord(db, mp.id, "bindtester", actor.keyId, { messengerId }, answer),
  ]);
  return answer;
}

export const CODES_PATH = "/deposits/codes";

/**
 * D7: the testers, the experience version's QR code and the mini-program code, the two images
 * stored in R2 once per commit and served at stable addresses under /deposits/codes.
 */
export async function testerInfo(ctx: TokenContext & { bucket: R2Bucket }, mp: Miniprogram, origin: string) {
  requireStage(mp, "testerinfo");
  const { transport } = ctx.upstream;
  const stored = async (existing: string | null, fetchImage_: (token: string) => Promise<Uint8Array>, kind: string) => {
    if (existing && (await ctx.bucket.head(existing))) return existing;
    const bytes = await asAuthorizer(ctx, mp, fetchImage_);
    const key = `miniprogram-codes/${mp.id}/${kind}-${randomBase62(20)}.png`;
    await ctx.bucket.put(key, bytes, { httpMetadata: { contentType: "image/png" } });
    return key;
  };
  let testQrKey: string;
  let wxaCodeKey: string;
  let members: { userstr: string }[];
  try {
    testQrKey = await stored(
      mp.testQrKey,
      (token) => fetchWeChatImage(transport, "/wxa/get_qrcode", { access_token: token, path: "pages/index/index" }),
      "test",
    );
    wxaCodeKey = await stored(
      mp.wxaCodeKey,
      (token) =>
        fetchWeChatImage(
          transport,
          "/wxa/getwxacodeunlimit",
          { access_token: token },
          { scene: `id=${mp.id}`, page: "pages/index/index", check_path: false },
        ),
      "wxacode",
    );
    members = (
      await asAuthorizer(ctx, mp, (token) =>
        callWeChat<WeChatAnswer & { members: { userstr: string }[] }>(
          transport,
          "/wxa/memberauth",
          { access_token: token },
          { action: "get_experiencer" },
        ),
      )
    ).members;
  } catch (error) {
    asUpstreamError(error);
  }
  if (testQrKey !== mp.testQrKey || wxaCodeKey !== mp.wxaCodeKey)
    await ctx.db.update(miniprograms).set({ testQrKey, wxaCodeKey }).where(eq(miniprograms.id, mp.id));
  const url = (key: string) => `${origin}${CODES_PATH}/${key.slice("miniprogram-codes/".length)}`;
  return { testers: mp.testers, members: members.map((m) => m.userstr), test_qrcode: url(testQrKey), wxa_code: url(wxaCodeKey) };
}

// Scheduled upkeep

/** The platform's template library, copied to D1 (D2 reads it); templates gone from it are removed. */
export async function syncTemplates(ctx: TokenContext) {
  const token = await componentAccessToken(ctx);
  const { template_list: list } = await callWeChat<{
    template_list: { template_id: number; user_version: string; user_desc: string; create_time: number }[];
  }>(ctx.upstream.transport, "/wxa/gettemplatelist", { access_token: token });
  const { db } = ctx;
  const existing = await db.select({ id: codeTemplates.id }).from(codeTemplates);
  const gone = existing.map((t) => t.id).filter((id) => !list.some((t) => t.template_id === id));
  const writes: BatchItem<"sqlite">[] = list.map((t) => {
    const row = { name: t.user_desc, version: t.user_version, description: t.user_desc, createdAt: new Date(t.create_time * 1000).toISOString() };
    return db
      .insert(codeTemplates)
      .values({ id: t.template_id, ...row })
      .onConflictDoUpdate({ target: codeTemplates.id, set: row });
  });
  if (gone.length) writes.push(db.delete(codeTemplates).where(inArray(codeTemplates.id, gone)));
  if (writes.length) await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return { templates: list.length, removed: gone.length };
}

/** The fallback for lost pushes: every audit still running is asked for its state. */
export async function pollAudits(ctx: TokenContext) {
  const running = await ctx.db
    .select()
    .from(miniprograms)
    .where(and(eq(miniprograms.stage, "audit_submitted"), inArray(miniprograms.auditStatus, [AUDIT_STATES.auditing, AUDIT_STATES.delayed])));
  let changed = 0;
  for (const mp of running) {
    const result = await asAuthorizer(ctx, mp, (token) =>
      callWeChat<WeChatAnswer & { status: number; reason?: string }>(
        ctx.upstream.transport,
        "/wxa/get_auditstatus",
        { access_token: token },
        { auditid: Number(mp.auditId) },
      ),
    );
    const updated = await applyAuditResult(ctx.db, mp, { status: result.status, reason: result.reason ?? "" }, "poll");
    if (updated.auditStatus !== mp.auditStatus) changed++;
  }
  return { running: running.length, changed };
}
