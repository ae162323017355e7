import { and, desc, eq } from "drizzle-orm";
import { ApiError } from "../platform/errors";
import { miniprogramSteps, miniprograms, AUDIT_STATES, type Miniprogram } from "./schema";
import { asAuthorizer, requireStage, stageAfter, stepRecord, submitAudit, weChatOutcome, type Actor, type Step, type WeChatOutcome } from "./service";
import type { TokenContext } from "./tokens";
import { callWeChat, type WeChatAnswer } from "./wechat/client";
import { WeChatError } from "./wechat/errors";

/**
 * The operations beyond D1–D10 that an audit and a safe release need: the privacy guide, domains,
 * categories and pages, withdrawing and expediting an audit and its quota, phased release, rollback
 * and visit status, and the preflight check that names what WeChat would refuse. Each checks the
 * stage it needs, calls WeChat (or the sandbox), keeps WeChat's errcode and errmsg with what they
 * mean, and is recorded in the configuration's steps.
 */

type Call = { path: string; query?: Record<string, string>; body?: unknown };

/** One step: the stage checked, WeChat called, the answer shaped, the stage moved if `moves` says so, the step recorded. */
async function weChatStep<T extends object>(
  ctx: TokenContext,
  actor: Actor,
  mp: Miniprogram,
  step: Step,
  request: unknown,
  call: Call,
  shape: (result: WeChatAnswer) => T = () => ({}) as T,
  moves: (answer: WeChatOutcome<T>) => Partial<Pick<Miniprogram, "stage" | "auditStatus">> | null = () => null,
): Promise<WeChatOutcome<T>> {
  requireStage(mp, step);
  const answer = await weChatOutcome(
    ctx,
    mp,
    (token) => callWeChat<WeChatAnswer>(ctx.upstream.transport, call.path, { access_token: token, ...call.query }, call.body),
    shape,
  );
  const changes = answer.errcode === 0 ? moves(answer) : null;
  const { db } = ctx;
  const record = stepRecord(db, mp.id, step, actor.keyId, request, answer);
  if (changes)
    await db.batch([
      db
        .update(miniprograms)
        .set({ ...changes, updatedAt: new Date().toISOString() })
        .where(eq(miniprograms.id, mp.id)),
      record,
    ]);
  else await record;
  return answer;
}

/** WeChat's lists come as arrays of whatever it gives; anything else reads as none. */
const list = <T = unknown>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

// Privacy

export interface PrivacySettings {
  ownerSetting: {
    contactEmail?: string;
    contactPhone?: string;
    contactWeixin?: string;
    contactQq?: string;
    noticeMethod: string;
    storeExpireTimestamp?: string;
  };
  settings: { privacyKey: string; privacyText: string }[];
}

export function setPrivacy(ctx: TokenContext, actor: Actor, mp: Miniprogram, input: PrivacySettings) {
  const o = input.ownerSetting;
  const body = {
    privacy_ver: 2,
    owner_setting: {
      contact_email: o.contactEmail,
      contact_phone: o.contactPhone,
      contact_weixin: o.contactWeixin,
      contact_qq: o.contactQq,
      notice_method: o.noticeMethod,
      store_expire_timestamp: o.storeExpireTimestamp,
    },
    setting_list: input.settings.map((s) => ({ privacy_key: s.privacyKey, privacy_text: s.privacyText })),
  };
  return weChatStep(ctx, actor, mp, "privacyset", input, { path: "/cgi-bin/component/setprivacysetting", body });
}

const privacyShape = (r: WeChatAnswer) => ({
  code_exist: Number(r.code_exist ?? 0),
  privacy_list: list<string>(r.privacy_list),
  setting_list: list<{ privacy_key: string; privacy_text: string }>(r.setting_list),
  owner_setting: (r.owner_setting ?? {}) as Record<string, unknown>,
  update_time: Number(r.update_time ?? 0),
});
export const getPrivacy = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "privacyget", {}, { path: "/cgi-bin/component/getprivacysetting", body: { privacy_ver: 2 } }, privacyShape);

export const codePrivacy = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "codeprivacy", {}, { path: "/wxa/security/get_code_privacy_info" }, (r) => ({
    without_auth_list: list<string>(r.without_auth_list),
    with_auth_list: list<string>(r.with_auth_list),
  }));

// Domains

export type DomainAction = "add" | "delete" | "set";
export interface ServerDomains {
  action: DomainAction;
  requestDomains?: string[];
  socketDomains?: string[];
  uploadDomains?: string[];
  downloadDomains?: string[];
}

export const setServerDomains = (ctx: TokenContext, actor: Actor, mp: Miniprogram, input: ServerDomains) =>
  weChatStep(
    ctx,
    actor,
    mp,
    "domains",
    { kind: "server", ...input },
    {
      path: "/wxa/modify_domain",
      body: {
        action: input.action,
        requestdomain: input.requestDomains ?? [],
        wsrequestdomain: input.socketDomains ?? [],
        uploaddomain: input.uploadDomains ?? [],
        downloaddomain: input.downloadDomains ?? [],
      },
    },
  );

export const setWebviewDomains = (ctx: TokenContext, actor: Actor, mp: Miniprogram, input: { action: DomainAction; domains: string[] }) =>
  weChatStep(
    ctx,
    actor,
    mp,
    "domains",
    { kind: "webview", ...input },
    {
      path: "/wxa/setwebviewdomain",
      body: { action: input.action, webviewdomain: input.domains },
    },
  );

export const setPrefetchDomains = (ctx: TokenContext, actor: Actor, mp: Miniprogram, domains: string[]) =>
  weChatStep(
    ctx,
    actor,
    mp,
    "domains",
    { kind: "prefetch", domains },
    {
      path: "/wxa/set_prefetchdomain",
      body: { prefetch_dns_domain: domains.map((url) => ({ url })) },
    },
  );

/** The three lists WeChat keeps, read in three calls and recorded as one step. */
export async function getDomains(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  requireStage(mp, "domainsget");
  const read = <R extends WeChatAnswer>(path: string, body?: unknown) =>
    asAuthorizer(ctx, mp, (token) => callWeChat<R>(ctx.upstream.transport, path, { access_token: token }, body));
  let answer: { errcode: number; errmsg: string; message?: string; server?: Record<string, string[]>; webview?: string[]; prefetch?: string[] };
  try {
    const [server, webview, prefetch] = await Promise.all([
      read("/wxa/modify_domain", { action: "get" }),
      read("/wxa/setwebviewdomain", { action: "get" }),
      read("/wxa/get_prefetchdomain"),
    ]);
    answer = {
      errcode: 0,
      errmsg: "ok",
      server: {
        requestdomain: list<string>(server.requestdomain),
        wsrequestdomain: list<string>(server.wsrequestdomain),
        uploaddomain: list<string>(server.uploaddomain),
        downloaddomain: list<string>(server.downloaddomain),
      },
      webview: list<string>(webview.webviewdomain),
      prefetch: list<{ url: string }>(prefetch.prefetch_dns_domain).map((d) => d.url),
    };
  } catch (error) {
    if (!(error instanceof WeChatError)) throw error;
    answer = { errcode: error.errcode, errmsg: error.errmsg, message: error.message };
  }
  await stepRecord(ctx.db, mp.id, "domainsget", actor.keyId, {}, answer);
  return answer;
}

// Categories and pages

export const allCategories = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "categoriesall", {}, { path: "/cgi-bin/wxopen/getallcategories" }, (r) => ({
    categories: list((r.categories_list as { categories?: unknown } | undefined)?.categories),
  }));

export interface CategoryChoice {
  first: number;
  second: number;
  certificates?: { key: string; value: string }[];
}
export const addCategories = (ctx: TokenContext, actor: Actor, mp: Miniprogram, categories: CategoryChoice[]) =>
  weChatStep(
    ctx,
    actor,
    mp,
    "categoryadd",
    { categories },
    {
      path: "/cgi-bin/wxopen/addcategory",
      // WeChat spells it `certicates`.
      body: { categories: categories.map((c) => ({ first: c.first, second: c.second, certicates: c.certificates ?? [] })) },
    },
  );

export const deleteCategory = (ctx: TokenContext, actor: Actor, mp: Miniprogram, choice: { first: number; second: number }) =>
  weChatStep(ctx, actor, mp, "categorydelete", choice, { path: "/cgi-bin/wxopen/deletecategory", body: choice });

type Category = { first: number; first_name: string; second: number; second_name: string; audit_status: number; audit_reason: string };
export const categoriesOf = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "categories", {}, { path: "/cgi-bin/wxopen/getcategory" }, (r) => ({
    categories: list<Category>(r.categories),
    limit: Number(r.limit ?? 0),
    quota: Number(r.quota ?? 0),
  }));

export const pagesOf = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "pages", {}, { path: "/wxa/get_page" }, (r) => ({ page_list: list<string>(r.page_list) }));

// Audit

const running: readonly number[] = [AUDIT_STATES.auditing, AUDIT_STATES.delayed];

export function withdrawAudit(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  if (mp.stage === "audit_submitted" && !running.includes(mp.auditStatus ?? -1))
    throw new ApiError(409, `Mini-program ${mp.id} has no audit running to withdraw`);
  return weChatStep(ctx, actor, mp, "withdraw", {}, { path: "/wxa/undocodeaudit" }, undefined, () => ({ auditStatus: AUDIT_STATES.withdrawn }));
}

export const auditQuota = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "quota", {}, { path: "/wxa/queryquota" }, (r) => ({
    rest: Number(r.rest ?? 0),
    limit: Number(r.limit ?? 0),
    speedup_rest: Number(r.speedup_rest ?? 0),
    speedup_limit: Number(r.speedup_limit ?? 0),
  }));

export function speedupAudit(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  if (mp.stage === "audit_submitted" && !running.includes(mp.auditStatus ?? -1))
    throw new ApiError(409, `Mini-program ${mp.id} has no audit running to expedite`);
  return weChatStep(ctx, actor, mp, "speedup", { auditid: mp.auditId }, { path: "/wxa/speedupaudit", body: { auditid: Number(mp.auditId) } });
}

// Release

export const phasedRelease = (ctx: TokenContext, actor: Actor, mp: Miniprogram, percentage: number) =>
  weChatStep(ctx, actor, mp, "phased", { percentage }, { path: "/wxa/grayrelease", body: { gray_percentage: percentage } }, undefined, () => ({
    // At 100 % the phased release is a full one.
    stage: percentage === 100 ? "released" : stageAfter(mp, "phased"),
  }));

export const phasedPlan = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "phasedplan", {}, { path: "/wxa/getgrayreleaseplan" }, (r) => {
    const plan = (r.gray_release_plan ?? {}) as Record<string, unknown>;
    return {
      gray_release_plan: {
        status: Number(plan.status ?? 0),
        create_timestamp: Number(plan.create_timestamp ?? 0),
        gray_percentage: Number(plan.gray_percentage ?? 0),
      },
    };
  });

export const revertPhased = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "phasedrevert", {}, { path: "/wxa/revertgrayrelease" }, undefined, () => ({ stage: stageAfter(mp, "phasedrevert") }));

export const rollback = (ctx: TokenContext, actor: Actor, mp: Miniprogram, appVersion?: number) =>
  weChatStep(
    ctx,
    actor,
    mp,
    "rollback",
    { appVersion: appVersion ?? null },
    {
      path: "/wxa/revertcoderelease",
      query: appVersion === undefined ? {} : { app_version: String(appVersion) },
    },
  );

export const rollbackVersions = (ctx: TokenContext, actor: Actor, mp: Miniprogram) =>
  weChatStep(ctx, actor, mp, "history", {}, { path: "/wxa/revertcoderelease", query: { action: "get_history_version" } }, (r) => ({
    version_list: list<{ app_version: number; user_version: string; user_desc: string; commit_time: number }>(r.version_list),
  }));

export const changeVisitStatus = (ctx: TokenContext, actor: Actor, mp: Miniprogram, action: "open" | "close") =>
  weChatStep(ctx, actor, mp, "visitstatus", { action }, { path: "/wxa/change_visitstatus", body: { action } });

// Preflight

export interface PreflightProblem {
  check: "privacy" | "categories" | "domains" | "name" | "quota";
  /** Whether WeChat would refuse the submission (else it is only a likely rejection of the audit or a broken page). */
  blocking: boolean;
  message: string;
}

/** The names WeChat's privacy guide needs: one contact and how users are told. */
const CONTACTS = ["contact_email", "contact_phone", "contact_weixin", "contact_qq"];

/**
 * What WeChat would refuse in a submission, read before it is made: the privacy guide against the
 * privacy interfaces the code uses (89248), an approved category (85008), the quota (85085), the
 * name (a rejected name audit), and server domains (the code's requests fail without them).
 */
export async function preflightProblems(ctx: TokenContext, mp: Miniprogram): Promise<PreflightProblem[]> {
  const read = <R extends WeChatAnswer>(path: string, body?: unknown) =>
    asAuthorizer(ctx, mp, (token) => callWeChat<R>(ctx.upstream.transport, path, { access_token: token }, body));
  const [privacy, categories, domains, quota, nameAudit] = await Promise.all([
    read("/cgi-bin/component/getprivacysetting", { privacy_ver: 2 }).then(privacyShape),
    read("/cgi-bin/wxopen/getcategory"),
    read("/wxa/modify_domain", { action: "get" }),
    read("/wxa/queryquota"),
    latestNameAudit(ctx, mp),
  ]);
  const problems: PreflightProblem[] = [];
  const set = new Set(privacy.setting_list.map((s) => s.privacy_key));
  const unset = privacy.privacy_list.filter((key) => !set.has(key));
  const owner = privacy.owner_setting;
  if (!CONTACTS.some((k) => typeof owner[k] === "string" && owner[k]) || !owner.notice_method)
    problems.push({ check: "privacy", blocking: true, message: "The privacy guide has no contact or no notice method (WeChat refuses with 89248)" });
  if (unset.length)
    problems.push({
      check: "privacy",
      blocking: true,
      message: `The privacy guide does not cover what the code uses: ${unset.join(", ")} (WeChat refuses with 89248)`,
    });
  const held = list<Category>(categories.categories);
  if (!held.some((c) => c.audit_status === 3))
    problems.push({
      check: "categories",
      blocking: true,
      message: held.length
        ? `No category is approved yet: ${held.map((c) => `${c.first_name} / ${c.second_name} (${c.audit_status === 1 ? "in audit" : "rejected"})`).join(", ")} (WeChat refuses with 85008)`
        : "The mini-program has no service category (WeChat refuses with 85008)",
    });
  if (Number(quota.rest ?? 1) <= 0)
    problems.push({ check: "quota", blocking: true, message: "The platform's audit quota for this month is used up (WeChat refuses with 85085)" });
  if (nameAudit?.rejected)
    problems.push({
      check: "name",
      blocking: true,
      message: `WeChat rejected the name${nameAudit.nickname ? ` ${nameAudit.nickname}` : ""}: ${nameAudit.reason}`,
    });
  if (list(domains.requestdomain).length === 0)
    problems.push({
      check: "domains",
      blocking: false,
      message: "No server (request) domain is set: the code's network requests will fail, a usual reason for an audit's rejection",
    });
  return problems;
}

/** The latest name audit WeChat pushed (wxa_nickname_audit), if any. */
async function latestNameAudit(ctx: TokenContext, mp: Miniprogram) {
  const [step] = await ctx.db
    .select({ answer: miniprogramSteps.answer })
    .from(miniprogramSteps)
    .where(and(eq(miniprogramSteps.miniprogramId, mp.id), eq(miniprogramSteps.step, "name_audit")))
    .orderBy(desc(miniprogramSteps.id))
    .limit(1);
  if (!step) return null;
  const event = step.answer as Record<string, string>;
  return { rejected: event.ret === "2", nickname: event.nickname ?? "", reason: event.reason ?? "no reason given" };
}

/** The preflight check as a route answers it, recorded as a step. */
export async function preflight(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  requireStage(mp, "preflight");
  let answer: { ready: boolean; problems: PreflightProblem[] };
  try {
    const problems = await preflightProblems(ctx, mp);
    answer = { ready: !problems.some((p) => p.blocking), problems };
  } catch (error) {
    if (error instanceof WeChatError) throw new ApiError(502, `WeChat refused (errcode ${error.errcode}): ${error.message}`);
    throw error;
  }
  await stepRecord(ctx.db, mp.id, "preflight", actor.keyId, {}, answer);
  return answer;
}

/**
 * D6 with the preflight first: a submission WeChat would refuse (no privacy guide for what the code
 * uses, no approved category, no quota, a rejected name) is a 409 naming each problem, and WeChat's
 * submit_audit is not called.
 */
export async function submitChecked(ctx: TokenContext, actor: Actor, mp: Miniprogram) {
  const resubmission = mp.stage === "audit_submitted" && (mp.auditStatus === AUDIT_STATES.rejected || mp.auditStatus === AUDIT_STATES.withdrawn);
  // Out of order is the stage machine's 409, before anything is read from WeChat.
  if (!resubmission && mp.stage !== "code_committed") return submitAudit(ctx, actor, mp);
  let blocking: PreflightProblem[];
  try {
    blocking = (await preflightProblems(ctx, mp)).filter((p) => p.blocking);
  } catch (error) {
    if (error instanceof WeChatError) throw new ApiError(502, `WeChat refused the preflight check (errcode ${error.errcode}): ${error.message}`);
    throw error;
  }
  if (blocking.length) {
    await stepRecord(ctx.db, mp.id, "submitaudit", actor.keyId, {}, { refusedBeforeWeChat: blocking });
    throw new ApiError(409, `D6 audit submission would be refused by WeChat: ${blocking.map((p) => `${p.check}: ${p.message}`).join("; ")}`);
  }
  return submitAudit(ctx, actor, mp);
}
