import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { database, type Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { DOMAIN_LIMITS, domainProblem } from "./wechat/domains";
import { sandboxApps, sandboxAppStates, sandboxAudits, sandboxQuotas, type SandboxAppState } from "./sandbox-tables";

/**
 * The sandbox's side of the audit settings and release control (privacy, domains, categories,
 * withdraw, quota, expedite, phased release, rollback, visit status): what WeChat keeps and the
 * rules it enforces, with WeChat's errcodes. Loaded only with sandbox.ts, outside production.
 */

type SandboxContext = Context<{ Bindings: Bindings }>;
type Refusal = { errcode: number; errmsg: string };

/** What sandbox.ts lends these routes: the token check, the body reader, and the pushes. */
export interface SandboxTools {
  authorizer: (c: SandboxContext) => Promise<{ appId: string } | Refusal>;
  body: (c: SandboxContext) => Promise<Record<string, unknown>>;
  push: (event: Record<string, string | number>, appId: string) => Promise<void>;
  pushAuditResult: (appId: string, auditId: number) => Promise<void>;
}

const ok = (more: Record<string, unknown> = {}) => ({ errcode: 0, errmsg: "ok", ...more });
const fail = (errcode: number, errmsg: string): Refusal => ({ errcode, errmsg });

/** The privacy interfaces and pages of each sandbox template's code (WeChat finds them in the committed code). */
export const TEMPLATE_CODE: Record<number, { privacy: string[]; pages: string[] }> = {
  101: { privacy: ["UserInfo", "Location", "PhoneNumber"], pages: ["pages/index/index", "pages/goods/detail", "pages/cart/cart"] },
  102: { privacy: ["UserInfo", "PhoneNumber"], pages: ["pages/index/index", "pages/booking/new"] },
  103: { privacy: ["UserInfo", "Album"], pages: ["pages/index/index", "pages/event/detail"] },
};

/** WeChat's category tree, as far as the sandbox knows it; `sensitive_type` 1 needs a qualification and goes to audit. */
export const SANDBOX_CATEGORIES = [
  { id: 1, name: "Retail", level: 1, father: 0, children: [101, 102], sensitive_type: 0, qualify: "" },
  { id: 101, name: "Clothing", level: 2, father: 1, children: [], sensitive_type: 0, qualify: "" },
  { id: 102, name: "Food", level: 2, father: 1, children: [], sensitive_type: 1, qualify: "Food business licence" },
  { id: 2, name: "Tools", level: 1, father: 0, children: [201, 202], sensitive_type: 0, qualify: "" },
  { id: 201, name: "Bookings", level: 2, father: 2, children: [], sensitive_type: 0, qualify: "" },
  { id: 202, name: "Information", level: 2, father: 2, children: [], sensitive_type: 0, qualify: "" },
];
const MAX_CATEGORIES = 5;

const SERVER_KINDS = ["requestdomain", "wsrequestdomain", "uploaddomain", "downloaddomain"] as const;

/** The platform's monthly audit quota and expedites (settable at /wechat-sandbox/quota). */
export const QUOTA = { limit: 100, speedupLimit: 10 };

const emptyState = (): SandboxAppState => ({
  domains: { requestdomain: [], wsrequestdomain: [], uploaddomain: [], downloaddomain: [], webviewdomain: [], prefetchdomain: [] },
  categories: [],
  releases: [],
  live: null,
  rolledBack: false,
  gray: null,
  visitStatus: "open",
  withdrawals: [],
  jsErrors: [],
});

async function stateOf(db: Database, appId: string): Promise<SandboxAppState> {
  const [row] = await db.select().from(sandboxAppStates).where(eq(sandboxAppStates.appId, appId)).limit(1);
  return row ? { ...emptyState(), ...row.state } : emptyState();
}
const saveState = (db: Database, appId: string, state: SandboxAppState) =>
  db.insert(sandboxAppStates).values({ appId, state }).onConflictDoUpdate({ target: sandboxAppStates.appId, set: { state } });

const month = () => new Date().toISOString().slice(0, 7);
/** This month's quota, made at the limits on its first use. */
export async function quotaOf(db: Database) {
  const [row] = await db
    .insert(sandboxQuotas)
    .values({ month: month(), rest: QUOTA.limit, speedupRest: QUOTA.speedupLimit })
    .onConflictDoUpdate({ target: sandboxQuotas.month, set: { month: month() } })
    .returning();
  return row!;
}

/** The latest audit and its state now (0 passed, 1 rejected, 2 auditing, 3 withdrawn). */
export async function latestAudit(db: Database, appId: string) {
  const [audit] = await db.select().from(sandboxAudits).where(eq(sandboxAudits.appId, appId)).orderBy(desc(sandboxAudits.auditId)).limit(1);
  return audit;
}
export function auditStatusOf(audit: typeof sandboxAudits.$inferSelect): { status: number; reason: string } {
  if (audit.outcome === "withdrawn") return { status: 3, reason: "" };
  if (Date.parse(audit.decideAt) > Date.now()) return { status: 2, reason: "" };
  return audit.outcome === "pass" ? { status: 0, reason: "" } : { status: 1, reason: audit.reason ?? "rejected" };
}

/** Why WeChat would refuse to submit this app's code for audit, or null (89248, then the categories). */
export async function submissionRefusal(db: Database, appId: string, templateId: number): Promise<Refusal | null> {
  const state = await stateOf(db, appId);
  const needed = TEMPLATE_CODE[templateId]?.privacy ?? [];
  const set = new Set(state.privacy?.setting_list.map((s) => s.privacy_key));
  if (!state.privacy || needed.some((key) => !set.has(key)))
    return fail(89248, "privacy info is incomplete, please set it first (setprivacysetting)");
  if (!state.categories.some((c) => c.audit_status === 3)) return fail(85008, "no approved category, add a category first");
  const quota = await quotaOf(db);
  if (quota.rest <= 0) return fail(85085, "submit audit reach limit this month, please apply for a temporary quota");
  return null;
}

/** One audit submission off this month's quota (in the batch that records the audit). */
export const useQuota = (db: Database) =>
  db
    .update(sandboxQuotas)
    .set({ rest: sql`${sandboxQuotas.rest} - 1` })
    .where(and(eq(sandboxQuotas.month, month()), gt(sandboxQuotas.rest, 0)));

type Commit = (typeof sandboxApps.$inferSelect)["commit"];

/** The passed audit's version made live (release, or a phased release reaching 100 %); false when it is live already. */
export async function recordRelease(db: Database, appId: string, auditId: number, commit: Commit | undefined): Promise<boolean> {
  const state = await stateOf(db, appId);
  if (state.releasedAudit === auditId) return false;
  const appVersion = (state.releases.at(-1)?.app_version ?? 0) + 1;
  const release = {
    app_version: appVersion,
    user_version: commit?.userVersion ?? "",
    user_desc: `template ${commit?.templateId ?? "?"}`,
    commit_time: Math.floor(Date.now() / 1000),
  };
  await saveState(db, appId, {
    ...state,
    releases: [...state.releases, release],
    live: appVersion,
    releasedAudit: auditId,
    rolledBack: false,
    gray: null,
  });
  return true;
}

export function sandboxOperations(app: Hono<{ Bindings: Bindings }>, tools: SandboxTools) {
  const db = (c: SandboxContext) => database(c.env);
  /** A route for an authorized mini-program: its app id and state, the answer as WeChat gives it. */
  const route = (
    method: "get" | "post",
    path: string,
    handle: (input: { c: SandboxContext; appId: string; db: Database; state: SandboxAppState; b: Record<string, unknown> }) => Promise<object>,
  ) =>
    app[method](path, async (c) => {
      const owner = await tools.authorizer(c);
      if ("errcode" in owner) return c.json(owner);
      const d = db(c);
      const b = method === "post" ? await tools.body(c) : {};
      return c.json(await handle({ c, appId: owner.appId, db: d, state: await stateOf(d, owner.appId), b }));
    });
  const commitOf = async (d: Database, appId: string) =>
    (await d.select().from(sandboxApps).where(eq(sandboxApps.appId, appId)).limit(1))[0]?.commit ?? null;

  // Privacy: the guide the mini-program shows its users, and what its code uses.
  route("post", "/cgi-bin/component/setprivacysetting", async ({ appId, db: d, state, b }) => {
    const owner = b.owner_setting as Record<string, unknown> | undefined;
    const settings = Array.isArray(b.setting_list) ? (b.setting_list as { privacy_key?: unknown; privacy_text?: unknown }[]) : [];
    // WeChat's 86069: a required field of owner_setting is missing (notice_method, or every contact).
    if (!owner || typeof owner !== "object" || !owner.notice_method) return fail(86069, "owner_setting必填字段字段缺失: notice_method");
    if (!["contact_email", "contact_phone", "contact_weixin", "contact_qq"].some((k) => typeof owner[k] === "string" && owner[k]))
      return fail(86069, "owner_setting必填字段字段缺失: a contact (contact_email, contact_phone, contact_weixin or contact_qq)");
    if (settings.some((s) => typeof s.privacy_key !== "string" || typeof s.privacy_text !== "string" || !s.privacy_text))
      return fail(40097, "invalid args: setting_list");
    // privacy_ver 1 changes the guide of the version online: there is none before a first release.
    if (Number(b.privacy_ver) === 1 && (state.live === null || !state.privacy))
      return fail(86074, "现网隐私协议不存在: no privacy guide online yet, set privacy_ver 2 (the version in development)");
    const settingList = settings.map((s) => ({ privacy_key: String(s.privacy_key), privacy_text: String(s.privacy_text) }));
    await saveState(d, appId, { ...state, privacy: { owner_setting: owner, setting_list: settingList, update_time: Math.floor(Date.now() / 1000) } });
    return ok();
  });
  route("post", "/cgi-bin/component/getprivacysetting", async ({ appId, db: d, state }) => {
    const commit = await commitOf(d, appId);
    return ok({
      code_exist: commit ? 1 : 0,
      privacy_list: commit ? (TEMPLATE_CODE[commit.templateId]?.privacy ?? []) : [],
      setting_list: state.privacy?.setting_list ?? [],
      update_time: state.privacy?.update_time ?? 0,
      owner_setting: state.privacy?.owner_setting ?? {},
    });
  });
  route("get", "/wxa/security/get_code_privacy_info", async ({ appId, db: d }) => {
    const commit = await commitOf(d, appId);
    if (!commit) return fail(61039, "privacy interface check task is not finished, please wait a minute and try again");
    return ok({ without_auth_list: [], with_auth_list: TEMPLATE_CODE[commit.templateId]?.privacy ?? [] });
  });

  // Domains.
  route("post", "/wxa/modify_domain", async ({ appId, db: d, state, b }) => {
    const action = typeof b.action === "string" ? b.action : "";
    if (action === "get") return ok(Object.fromEntries(SERVER_KINDS.map((k) => [k, state.domains[k]])));
    if (!["add", "delete", "set"].includes(action)) return fail(40097, "invalid args: action");
    const next = { ...state.domains };
    for (const kind of SERVER_KINDS) {
      const given = Array.isArray(b[kind]) ? (b[kind] as unknown[]).map(String) : [];
      const bad = given.map((domain) => domainProblem(domain, kind === "wsrequestdomain" ? "wss" : "https")).find(Boolean);
      if (bad) return fail(40097, `invalid args: ${bad}`);
      next[kind] =
        action === "set" ? given : action === "add" ? [...new Set([...next[kind], ...given])] : next[kind].filter((x) => !given.includes(x));
      if (next[kind].length > DOMAIN_LIMITS.server) return fail(85016, "exceed valid domain count");
    }
    await saveState(d, appId, { ...state, domains: next });
    return ok(Object.fromEntries(SERVER_KINDS.map((k) => [k, next[k]])));
  });
  route("post", "/wxa/setwebviewdomain", async ({ appId, db: d, state, b }) => {
    const action = typeof b.action === "string" ? b.action : "";
    if (action === "get") return ok({ webviewdomain: state.domains.webviewdomain });
    if (!["add", "delete", "set"].includes(action)) return fail(40097, "invalid args: action");
    const given = Array.isArray(b.webviewdomain) ? (b.webviewdomain as unknown[]).map(String) : [];
    const bad = given.map((domain) => domainProblem(domain, "https")).find(Boolean);
    if (bad) return fail(40097, `invalid args: ${bad}`);
    const current = state.domains.webviewdomain;
    const next = action === "set" ? given : action === "add" ? [...new Set([...current, ...given])] : current.filter((x) => !given.includes(x));
    if (next.length > DOMAIN_LIMITS.webview) return fail(89029, "webview domain count exceeds the limit");
    await saveState(d, appId, { ...state, domains: { ...state.domains, webviewdomain: next } });
    return ok();
  });
  route("post", "/wxa/set_prefetchdomain", async ({ appId, db: d, state, b }) => {
    const given = Array.isArray(b.prefetch_dns_domain)
      ? (b.prefetch_dns_domain as { url?: unknown }[]).map((x) => (typeof x?.url === "string" ? x.url : ""))
      : [];
    const bad = given.map((domain) => domainProblem(domain, "https")).find(Boolean);
    if (bad) return fail(40097, `invalid args: ${bad}`);
    if (given.length > DOMAIN_LIMITS.prefetch) return fail(40097, "invalid args: at most 5 prefetch domains");
    await saveState(d, appId, { ...state, domains: { ...state.domains, prefetchdomain: given } });
    return ok();
  });
  route("get", "/wxa/get_prefetchdomain", async ({ state }) =>
    ok({ prefetch_dns_domain: state.domains.prefetchdomain.map((url) => ({ url, status: 1 })), size_limit: DOMAIN_LIMITS.prefetch }),
  );

  // Categories.
  route("get", "/cgi-bin/wxopen/getallcategories", async () => ok({ categories_list: { categories: SANDBOX_CATEGORIES } }));
  route("get", "/cgi-bin/wxopen/getcategory", async ({ state }) =>
    ok({ categories: state.categories, limit: MAX_CATEGORIES, quota: MAX_CATEGORIES - state.categories.length, category_limit: MAX_CATEGORIES }),
  );
  route("post", "/cgi-bin/wxopen/addcategory", async ({ c, appId, db: d, state, b }) => {
    const wanted = Array.isArray(b.categories) ? (b.categories as { first?: unknown; second?: unknown; certicates?: unknown }[]) : [];
    if (wanted.length === 0) return fail(53303, "invalid categories");
    const added: SandboxAppState["categories"] = [];
    const qualified: { first: number; second: number }[] = [];
    for (const w of wanted) {
      const first = SANDBOX_CATEGORIES.find((c) => c.id === Number(w.first) && c.level === 1);
      const second = SANDBOX_CATEGORIES.find((c) => c.id === Number(w.second) && c.father === first?.id);
      if (!first || !second) return fail(53303, "invalid categories");
      if ([...state.categories, ...added].some((c) => c.first === first.id && c.second === second.id)) return fail(53304, "category already exists");
      const certificates = Array.isArray(w.certicates) ? w.certicates : [];
      if (second.sensitive_type === 1 && certificates.length === 0) return fail(53303, `invalid categories: ${second.name} needs ${second.qualify}`);
      if (second.sensitive_type === 1) qualified.push({ first: first.id, second: second.id });
      added.push({
        first: first.id,
        first_name: first.name,
        second: second.id,
        second_name: second.name,
        audit_status: second.sensitive_type === 1 ? 1 : 3,
        audit_reason: "",
      });
    }
    if (state.categories.length + added.length > MAX_CATEGORIES) return fail(53301, "exceed category limit");
    await saveState(d, appId, { ...state, categories: [...state.categories, ...added] });
    // A qualified category is audited: the sandbox approves it at once and pushes wxa_category_audit, as WeChat does later.
    if (qualified.length)
      c.executionCtx.waitUntil(
        (async () => {
          const now = await stateOf(d, appId);
          const approved = (x: { first: number; second: number }) => qualified.some((q) => q.first === x.first && q.second === x.second);
          await saveState(d, appId, { ...now, categories: now.categories.map((x) => (approved(x) ? { ...x, audit_status: 3 } : x)) });
          for (const q of qualified)
            await tools.push(miniprogramEvent("wxa_category_audit", { ret: 3, first: q.first, second: q.second, reason: "" }), appId);
        })().catch(() => undefined),
      );
    return ok();
  });
  route("post", "/cgi-bin/wxopen/deletecategory", async ({ appId, db: d, state, b }) => {
    const left = state.categories.filter((c) => !(c.first === Number(b.first) && c.second === Number(b.second)));
    if (left.length === state.categories.length) return fail(53303, "invalid categories: not set for this mini-program");
    await saveState(d, appId, { ...state, categories: left });
    return ok();
  });
  route("get", "/wxa/get_page", async ({ appId, db: d }) => {
    const commit = await commitOf(d, appId);
    if (!commit) return fail(85086, "commit code first");
    return ok({ page_list: TEMPLATE_CODE[commit.templateId]?.pages ?? ["pages/index/index"] });
  });

  // Audit: withdraw, quota, expedite.
  route("get", "/wxa/undocodeaudit", async ({ appId, db: d, state }) => {
    const audit = await latestAudit(d, appId);
    if (!audit || auditStatusOf(audit).status !== 2) return fail(85019, "no version under audit");
    const now = new Date().toISOString();
    const today = state.withdrawals.filter((at) => at.slice(0, 10) === now.slice(0, 10)).length;
    const thisMonth = state.withdrawals.filter((at) => at.slice(0, 7) === now.slice(0, 7)).length;
    if (today >= 5 || thisMonth >= 10) return fail(87013, "undo code audit reach the limit (5 a day, 10 a month)");
    await d.batch([
      // Withdrawn: its result is never pushed.
      d
        .update(sandboxAudits)
        .set({ outcome: "withdrawn", pushedAt: now })
        .where(and(eq(sandboxAudits.auditId, audit.auditId))),
      saveState(d, appId, { ...state, withdrawals: [...state.withdrawals.filter((at) => at.slice(0, 7) === now.slice(0, 7)), now] }),
    ]);
    return ok();
  });
  route("get", "/wxa/queryquota", async ({ db: d }) => {
    const quota = await quotaOf(d);
    return ok({ rest: quota.rest, limit: QUOTA.limit, speedup_rest: quota.speedupRest, speedup_limit: QUOTA.speedupLimit });
  });
  route("post", "/wxa/speedupaudit", async ({ c, appId, db: d, state, b }) => {
    const [audit] = await d
      .select()
      .from(sandboxAudits)
      .where(and(eq(sandboxAudits.auditId, Number(b.auditid)), eq(sandboxAudits.appId, appId)))
      .limit(1);
    // WeChat's speedupaudit codes: 89404 an audit expedited already, 89402 none in the queue, 89405 no expedite left this month.
    if (audit && state.expedited?.includes(audit.auditId)) return fail(89404, "本单已加速成功,请勿重复提交");
    if (!audit || auditStatusOf(audit).status !== 2) return fail(89402, "该审核单不在待审核队列");
    const quota = await quotaOf(d);
    if (quota.speedupRest <= 0) return fail(89405, "本月加急额度不足");
    await d.batch([
      saveState(d, appId, { ...state, expedited: [...(state.expedited ?? []), audit.auditId].slice(-20) }),
      d
        .update(sandboxQuotas)
        .set({ speedupRest: quota.speedupRest - 1 })
        .where(eq(sandboxQuotas.month, quota.month)),
      d.update(sandboxAudits).set({ decideAt: new Date().toISOString() }).where(eq(sandboxAudits.auditId, audit.auditId)),
    ]);
    c.executionCtx.waitUntil(tools.pushAuditResult(appId, audit.auditId).catch(() => undefined));
    return ok();
  });

  // Release: phased, rollback, visit status.
  route("post", "/wxa/grayrelease", async ({ appId, db: d, state, b }) => {
    const percentage = Number(b.gray_percentage);
    if (state.live === null) return fail(85079, "no online version, a phased release needs one");
    const audit = await latestAudit(d, appId);
    if (!audit || auditStatusOf(audit).status !== 0 || state.releasedAudit === audit.auditId) return fail(85080, "no passed audit waits for release");
    if (!Number.isInteger(percentage) || percentage < 1 || percentage > 100) return fail(85081, "invalid gray percentage");
    if (state.gray && percentage <= state.gray.gray_percentage) return fail(85082, "gray percentage must be higher than the current one");
    if (percentage === 100) {
      await recordRelease(d, appId, audit.auditId, await commitOf(d, appId));
      return ok();
    }
    await saveState(d, appId, {
      ...state,
      gray: { gray_percentage: percentage, create_timestamp: state.gray?.create_timestamp ?? Math.floor(Date.now() / 1000) },
    });
    return ok();
  });
  route("get", "/wxa/getgrayreleaseplan", async ({ state }) =>
    ok({
      gray_release_plan: state.gray
        ? { status: 1, create_timestamp: state.gray.create_timestamp, gray_percentage: state.gray.gray_percentage }
        : { status: 0, create_timestamp: 0, gray_percentage: 0 },
    }),
  );
  route("get", "/wxa/revertgrayrelease", async ({ appId, db: d, state }) => {
    if (!state.gray) return fail(40097, "invalid args: no phased release to revert");
    await saveState(d, appId, { ...state, gray: null });
    return ok();
  });
  /** The versions a rollback can go to: those released before the live one, unless the live release was rolled back already. */
  const rollbackTargets = (state: SandboxAppState) =>
    state.rolledBack || state.live === null ? [] : state.releases.filter((r) => r.app_version < state.live!).reverse();
  route("get", "/wxa/revertcoderelease", async ({ c, appId, db: d, state }) => {
    if (c.req.query("action") === "get_history_version") return ok({ version_list: rollbackTargets(state) });
    if (state.gray) return fail(87011, "a phased release is running, the version cannot be rolled back");
    const wanted = c.req.query("app_version");
    const targets = rollbackTargets(state);
    const target = wanted ? targets.find((r) => r.app_version === Number(wanted)) : targets[0];
    if (!target) return fail(87012, "this version cannot be rolled back");
    await saveState(d, appId, { ...state, live: target.app_version, rolledBack: true });
    return ok();
  });
  route("post", "/wxa/change_visitstatus", async ({ appId, db: d, state, b }) => {
    if (b.action !== "open" && b.action !== "close") return fail(40097, "invalid args: action must be open or close");
    if (state.live === null) return fail(85021, "status not allowed: nothing is released");
    await saveState(d, appId, { ...state, visitStatus: b.action });
    return ok();
  });

  // The operations centre's JS errors of the days from startTime to endTime (YYYY-MM-DD, UTC), most frequent first.
  route("post", "/wxaapi/log/jserr_list", async ({ state, b }) => {
    const day = /^\d{4}-\d{2}-\d{2}$/;
    if (typeof b.startTime !== "string" || typeof b.endTime !== "string" || !day.test(b.startTime) || !day.test(b.endTime))
      return fail(40097, "invalid args: startTime and endTime are dates (YYYY-MM-DD)");
    const inRange = state.jsErrors.filter((e) => e.at.slice(0, 10) >= String(b.startTime) && e.at.slice(0, 10) <= String(b.endTime));
    const byMessage = new Map<string, number>();
    for (const e of inRange) byMessage.set(e.message, (byMessage.get(e.message) ?? 0) + e.count);
    const data = [...byMessage]
      .sort((x, y) => y[1] - x[1])
      .map(([errorMsg, pv]) => ({ errorMsg, errorStack: "", pv, uv: pv, pvPercent: "", uvPercent: "" }));
    return ok({ data: data.slice(0, Math.min(Number(b.limit) || 10, 100)), totalCount: data.length });
  });

  // Not WeChat's: JS errors the mini-program's users hit, counted now (what a broken release shows in WeChat's operations centre).
  app.post("/js-errors", async (c) => {
    const { appId, count, message } = await tools.body(c);
    const n = Number(count ?? 1);
    if (typeof appId !== "string" || !Number.isInteger(n) || n < 1 || n > 100_000)
      return c.json({ error: 'Body: { "appId", "count"?: 1-100000, "message"?: "…" }' }, 400);
    const d = db(c);
    if (!(await d.select({ appId: sandboxApps.appId }).from(sandboxApps).where(eq(sandboxApps.appId, appId)).limit(1)).length)
      return c.json({ error: `No sandbox mini-program ${appId}` }, 404);
    const state = await stateOf(d, appId);
    const error = {
      message: typeof message === "string" ? message.slice(0, 200) : "TypeError: Cannot read properties of undefined",
      count: n,
      at: new Date().toISOString(),
    };
    // The newest 100 kinds are kept: enough for a sandbox.
    await saveState(d, appId, { ...state, jsErrors: [...state.jsErrors, error].slice(-100) });
    return c.json({ appId, counted: n });
  });

  // Not WeChat's: one of the pushes above sent now, with the fields given (strings and numbers).
  app.post("/push-event", async (c) => {
    const { appId, event, ...fields } = await tools.body(c);
    if (typeof appId !== "string" || !PUSHABLE_EVENTS.includes(event as (typeof PUSHABLE_EVENTS)[number]))
      return c.json({ error: `Body: { "appId", "event": ${PUSHABLE_EVENTS.join(" | ")}, ...the event's fields }` }, 400);
    const flat = Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string | number] => typeof entry[1] === "string" || typeof entry[1] === "number"),
    );
    await tools.push(miniprogramEvent(String(event), flat), appId);
    return c.json({ pushed: event });
  });

  // Not WeChat's: the platform's quota for this month, set for trying what happens when it runs out.
  app.post("/quota", async (c) => {
    const b = await tools.body(c);
    const rest = Number(b.rest ?? QUOTA.limit);
    const speedupRest = Number(b.speedupRest ?? QUOTA.speedupLimit);
    if (![rest, speedupRest].every((n) => Number.isInteger(n) && n >= 0 && n <= 10_000))
      return c.json({ error: 'Body: { "rest"?: 0-10000, "speedupRest"?: 0-10000 }' }, 400);
    const d = db(c);
    await quotaOf(d);
    await d.update(sandboxQuotas).set({ rest, speedupRest }).where(eq(sandboxQuotas.month, month()));
    return c.json({ month: month(), rest, speedupRest });
  });
}

/** The pushes beyond audit results that WeChat sends a mini-program's events URL, sent on demand: `/wechat-sandbox/push-event`. */
export const PUSHABLE_EVENTS = ["wxa_nickname_audit", "wxa_category_audit", "wxa_privacy_apply", "weapp_audit_delay"] as const;

/** A mini-program event as WeChat pushes it (its nested fields flat: the receiver reads leaf elements). */
const miniprogramEvent = (event: string, fields: Record<string, string | number>) => ({
  ToUserName: "gh_sandbox",
  FromUserName: "o_sandbox",
  CreateTime: Math.floor(Date.now() / 1000),
  MsgType: "event",
  Event: event,
  ...fields,
});
