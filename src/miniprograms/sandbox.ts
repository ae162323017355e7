import { and, eq, isNull } from "drizzle-orm";
import { Hono, type Context, type ExecutionContext } from "hono";
import { qrCodePng } from "../intelligence/service";
import { constantTimeEqual, hmacSha256Hex, randomBase62 } from "../platform/crypto";
import { database, type Database } from "../platform/database";
import type { Bindings } from "../platform/env";
import { auditStatusOf, latestAudit, recordRelease, sandboxOperations, submissionRefusal, useQuota } from "./sandbox-operations";
import { ensureSandboxTables, sandboxApps, sandboxAudits } from "./sandbox-tables";
import type { ComponentCredentials, SandboxHost, SignedPush } from "./upstream";
import { encryptMessage, messageSignature, querySignature, xmlOf } from "./wechat/message-crypto";

/**
 * The sandbox upstream: WeChat's open platform API as far as group D uses it, with its state in
 * D1. The WeChat client talks to it with the same HTTP requests it sends to WeChat (in-process,
 * so that scheduled jobs reach it as well; it also answers over HTTP at /wechat-sandbox). Its
 * pushes (verify tickets, authorizations, audit results) go to the service's receivers signed and
 * encrypted as WeChat's are, through `SandboxHost.deliver`: it imports nothing of the service.
 * upstream.ts loads it with import(), never in production.
 */

/** Names the sandbox answers as taken (a trademark hit), to try D3's refusal. */
export const TAKEN_NAMES = ["WeChat", "Taken Name", "微信"];
/** The platform's template library in the sandbox. */
export const SANDBOX_TEMPLATES = [
  { template_id: 101, user_version: "1.0.0", user_desc: "Shop", create_time: 1767225600 },
  { template_id: 102, user_version: "2.1.0", user_desc: "Bookings", create_time: 1772323200 },
  { template_id: 103, user_version: "0.9.3", user_desc: "Events", create_time: 1777593600 },
];
const DEFAULT_AUDIT_SECONDS = 5;
const TESTER_ID = /^[a-zA-Z][-_a-zA-Z0-9]{5,19}$/;

const ok = (more: Record<string, unknown> = {}) => ({ errcode: 0, errmsg: "ok", ...more });
const fail = (errcode: number, errmsg: string) => ({ errcode, errmsg });

/** Access tokens are signed, not stored: `sbx.<kind>.<app id>.<expiry>.<hmac>`. */
async function issueToken(host: SandboxHost, kind: "component" | "authorizer", appId: string, seconds = 7200) {
  const body = `${kind}.${appId}.${Math.floor(Date.now() / 1000) + seconds}`;
  return `sbx.${body}.${(await hmacSha256Hex(host.component.secret, body)).slice(0, 32)}`;
}

/** The app id a token is good for, or WeChat's errcode for a bad (40001) or expired (42001) one. */
async function tokenOwner(
  host: SandboxHost,
  token: string | undefined,
  kind: "component" | "authorizer",
): Promise<{ appId: string } | { errcode: number; errmsg: string }> {
  const [prefix, tokenKind, appId, expiry, mac] = (token ?? "").split(".");
  if (prefix !== "sbx" || tokenKind !== kind || !appId || !expiry || !mac)
    return fail(40001, "invalid credential, access_token is invalid or not latest");
  const expected = (await hmacSha256Hex(host.component.secret, `${tokenKind}.${appId}.${expiry}`)).slice(0, 32);
  if (!constantTimeEqual(mac, expected)) return fail(40001, "invalid credential, access_token is invalid or not latest");
  if (Number(expiry) * 1000 < Date.now()) return fail(42001, "access_token expired");
  return { appId };
}

/** Dispatches a request the WeChat client made to the sandbox's handler, without a network hop. */
export function sandboxFetch(request: Request, host: SandboxHost): Promise<Response> {
  const ctx: ExecutionContext = { waitUntil: host.waitUntil, passThroughOnException() {}, props: {} };
  return Promise.resolve(sandboxApp(host).fetch(request, host.env, ctx));
}

type SandboxEnv = { Bindings: Bindings };
type SandboxContext = Context<SandboxEnv>;

/** A push as WeChat sends it: the event encrypted and signed with the component's credentials, a fresh nonce and timestamp each. */
export async function signedPush(component: ComponentCredentials, event: Record<string, string | number>): Promise<SignedPush> {
  const encrypted = await encryptMessage(xmlOf(event), component.appId, component.encodingAesKey);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBase62(10);
  return {
    query: {
      timestamp,
      nonce,
      signature: await querySignature(component.messageToken, timestamp, nonce),
      msg_signature: await messageSignature(component.messageToken, timestamp, nonce, encrypted),
    },
    body: xmlOf({ AppId: component.appId, Encrypt: encrypted }),
  };
}

/** A push to the service's receivers, as WeChat's POST to /wechat/… is: the component's, or with `appId` that mini-program's. */
const deliver = async (host: SandboxHost, event: Record<string, string | number>, appId?: string) =>
  host.deliver(await signedPush(host.component, event), appId);

/**
 * The sandbox's routes, at the root of the in-process address and under /wechat-sandbox over HTTP
 * (upstream.ts strips it): WeChat's paths, plus `steer`, `push-ticket` and the authorization page.
 * Plain Hono, not the route core: these answer as WeChat does (errcode JSON) and stay out of the API document.
 */
export function sandboxApp(host: SandboxHost) {
  const app = new Hono<SandboxEnv>();
  app.use(async (c, next) => {
    await ensureSandboxTables(c.env);
    await next();
  });
  const body = async (c: SandboxContext) => ((await c.req.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
  /** A body field as WeChat reads it: a string or a number as text, anything else as nothing. */
  const textOf = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
  const authorizer = async (c: SandboxContext) => tokenOwner(host, c.req.query("access_token"), "authorizer");
  const component = async (c: SandboxContext) => tokenOwner(host, c.req.query("component_access_token") ?? c.req.query("access_token"), "component");
  const db = (c: SandboxContext) => database(c.env);
  const appOf = async (database_: Database, appId: string) =>
    (await database_.select().from(sandboxApps).where(eq(sandboxApps.appId, appId)).limit(1))[0];

  app.post("/cgi-bin/component/api_component_token", async (c) => {
    const b = await body(c);
    const creds = host.component;
    if (b.component_appid !== creds.appId || b.component_appsecret !== creds.secret) return c.json(fail(40013, "invalid appid or appsecret"));
    if (typeof b.component_verify_ticket !== "string" || !b.component_verify_ticket.startsWith("ticket@@@sandbox-"))
      return c.json(fail(61006, "component ticket is invalid"));
    return c.json({ component_access_token: await issueToken(host, "component", creds.appId), expires_in: 7200 });
  });

  app.post("/cgi-bin/component/api_create_preauthcode", async (c) => {
    const owner = await component(c);
    if ("errcode" in owner) return c.json(owner);
    return c.json({ pre_auth_code: `preauthcode@@@${randomBase62(24)}`, expires_in: 1800 });
  });

  // What mp.weixin.qq.com's authorization page does once the mini-program's owner consents: here at once.
  app.get("/componentloginpage", async (c) => {
    const preAuthCode = c.req.query("pre_auth_code");
    const redirect = c.req.query("redirect_uri");
    if (!preAuthCode?.startsWith("preauthcode@@@") || !redirect) return c.text("pre_auth_code and redirect_uri are required", 400);
    const appId = `wxsbx${randomBase62(13).toLowerCase()}`;
    await db(c)
      .insert(sandboxApps)
      .values({ appId, refreshToken: `refreshtoken@@@${randomBase62(24)}` });
    const authCode = `queryauthcode@@@${appId}@@@${(await hmacSha256Hex(host.component.secret, appId)).slice(0, 16)}`;
    const creds = host.component;
    const event = {
      AppId: creds.appId,
      CreateTime: Math.floor(Date.now() / 1000),
      InfoType: "authorized",
      AuthorizerAppid: appId,
      AuthorizationCode: authCode,
      AuthorizationCodeExpiredTime: Math.floor(Date.now() / 1000) + 3600,
      PreAuthCode: preAuthCode,
    };
    host.waitUntil(deliver(host, event).catch(() => undefined));
    const target = new URL(redirect);
    target.searchParams.set("auth_code", authCode);
    target.searchParams.set("expires_in", "3600");
    return c.redirect(target.href, 302);
  });

  app.post("/cgi-bin/component/api_query_auth", async (c) => {
    const owner = await component(c);
    if ("errcode" in owner) return c.json(owner);
    const code = textOf((await body(c)).authorization_code);
    const [, appId, mac] = code.split("@@@");
    const expected = appId ? (await hmacSha256Hex(host.component.secret, appId)).slice(0, 16) : "";
    const app_ = appId ? await appOf(db(c), appId) : undefined;
    if (!app_ || !mac || !constantTimeEqual(mac, expected)) return c.json(fail(61010, "code is expired or invalid"));
    return c.json({
      authorization_info: {
        authorizer_appid: appId,
        authorizer_access_token: await issueToken(host, "authorizer", appId!),
        expires_in: 7200,
        authorizer_refresh_token: app_.refreshToken,
        func_info: [{ funcscope_category: { id: 17 } }, { funcscope_category: { id: 18 } }],
      },
    });
  });

  app.post("/cgi-bin/component/api_authorizer_token", async (c) => {
    const owner = await component(c);
    if ("errcode" in owner) return c.json(owner);
    const b = await body(c);
    const app_ = await appOf(db(c), textOf(b.authorizer_appid));
    // The refresh token rotates: an old one (a second refresher's) is refused, as WeChat does.
    if (!app_ || b.authorizer_refresh_token !== app_.refreshToken) return c.json(fail(61023, "refresh_token is invalid"));
    const next = `refreshtoken@@@${randomBase62(24)}`;
    const [rotated] = await db(c)
      .update(sandboxApps)
      .set({ refreshToken: next })
      .where(and(eq(sandboxApps.appId, app_.appId), eq(sandboxApps.refreshToken, app_.refreshToken)))
      .returning();
    if (!rotated) return c.json(fail(61023, "refresh_token is invalid"));
    return c.json({ authorizer_access_token: await issueToken(host, "authorizer", app_.appId), expires_in: 7200, authorizer_refresh_token: next });
  });

  app.get("/wxa/gettemplatelist", async (c) => {
    const owner = await component(c);
    if ("errcode" in owner) return c.json(owner);
    return c.json(ok({ template_list: SANDBOX_TEMPLATES }));
  });

  app.post("/cgi-bin/wxverify/checkwxverifynickname", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const name = textOf((await body(c)).nick_name);
    if (!name) return c.json(fail(47001, "data format error"));
    const taken = TAKEN_NAMES.some((t) => t.toLowerCase() === name.toLowerCase());
    return c.json(ok({ hit_condition: taken, wording: taken ? "The name is a registered trademark: upload proof of the right to use it" : "" }));
  });

  app.post("/cgi-bin/media/upload", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const form = await c.req.formData().catch(() => null);
    const media = form?.get("media");
    if (!media || typeof media === "string" || media.size === 0) return c.json(fail(41005, "media data missing"));
    return c.json({ type: "image", media_id: `sbxmedia_${randomBase62(20)}`, created_at: Math.floor(Date.now() / 1000) });
  });

  app.post("/wxa/setnickname", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const b = await body(c);
    if (typeof b.nick_name !== "string" || !b.nick_name) return c.json(fail(47001, "data format error"));
    if (TAKEN_NAMES.some((t) => t.toLowerCase() === String(b.nick_name).toLowerCase())) return c.json(fail(91011, "nickname is taken"));
    await db(c).update(sandboxApps).set({ nickname: b.nick_name }).where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok());
  });

  app.post("/cgi-bin/account/modifyheadimage", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const b = await body(c);
    if (typeof b.head_img_media_id !== "string") return c.json(fail(40007, "invalid media_id"));
    await db(c).update(sandboxApps).set({ headImageMediaId: b.head_img_media_id }).where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok());
  });

  app.post("/cgi-bin/account/modifysignature", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const signature = textOf((await body(c)).signature);
    if (signature.length > 120) return c.json(fail(53200, "signature too long"));
    await db(c).update(sandboxApps).set({ signature }).where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok());
  });

  app.post("/wxa/commit", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const b = await body(c);
    const template = SANDBOX_TEMPLATES.find((t) => t.template_id === b.template_id);
    if (!template) return c.json(fail(85064, "template not found"));
    if (typeof b.ext_json !== "string") return c.json(fail(85013, "invalid ext_json"));
    try {
      const parsed: unknown = JSON.parse(b.ext_json);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    } catch {
      return c.json(fail(85013, "invalid ext_json"));
    }
    await db(c)
      .update(sandboxApps)
      .set({ commit: { templateId: template.template_id, userVersion: textOf(b.user_version ?? template.user_version), extJson: b.ext_json } })
      .where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok());
  });

  app.post("/wxa/submit_audit", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const d = db(c);
    const app_ = await appOf(d, owner.appId);
    if (!app_?.commit) return c.json(fail(85086, "commit code before submitting it for audit"));
    const latest = await latestAudit(d, owner.appId);
    if (latest && auditStatusOf(latest).status === 2) return c.json(fail(85009, "already submit a version under auditing"));
    const refusal = await submissionRefusal(d, owner.appId, app_.commit.templateId);
    if (refusal) return c.json(refusal);
    const steering = app_.steering ?? { outcome: "pass" as const, delaySeconds: DEFAULT_AUDIT_SECONDS };
    const [audit] = await d.batch([
      d
        .insert(sandboxAudits)
        .values({
          appId: owner.appId,
          outcome: steering.outcome,
          reason: steering.outcome === "fail" ? (steering.reason ?? "The sandbox was steered to reject this audit") : null,
          decideAt: new Date(Date.now() + steering.delaySeconds * 1000).toISOString(),
        })
        .returning(),
      d.update(sandboxApps).set({ steering: null }).where(eq(sandboxApps.appId, owner.appId)),
      useQuota(d),
    ]);
    const auditId = audit[0]!.auditId;
    // WeChat tells the platform when the audit ends: so does the sandbox, after the steered delay.
    host.waitUntil(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, steering.delaySeconds * 1000));
        await pushAuditResult(host, owner.appId, auditId);
      })().catch(() => undefined),
    );
    return c.json(ok({ auditid: auditId }));
  });

  app.post("/wxa/get_auditstatus", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const auditId = Number((await body(c)).auditid);
    const [audit] = await db(c)
      .select()
      .from(sandboxAudits)
      .where(and(eq(sandboxAudits.auditId, auditId), eq(sandboxAudits.appId, owner.appId)))
      .limit(1);
    if (!audit) return c.json(fail(85012, "invalid audit id"));
    const state = auditStatusOf(audit);
    return c.json(ok({ status: state.status, reason: state.reason, screenshot: state.status === 1 ? "sbxmedia_screenshot_1" : "" }));
  });

  app.post("/wxa/release", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const d = db(c);
    const latest = await latestAudit(d, owner.appId);
    if (!latest || auditStatusOf(latest).status !== 0) return c.json(fail(85020, "status not allowed"));
    const app_ = await appOf(d, owner.appId);
    if (!(await recordRelease(d, owner.appId, latest.auditId, app_?.commit))) return c.json(fail(85052, "this version is already released"));
    await d
      .update(sandboxApps)
      .set({ releasedVersion: app_?.commit?.userVersion ?? null })
      .where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok());
  });

  app.post("/wxa/bind_tester", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const wechatId = textOf((await body(c)).wechatid);
    if (!TESTER_ID.test(wechatId)) return c.json(fail(86004, "invalid wechat id"));
    const d = db(c);
    const app_ = await appOf(d, owner.appId);
    const testers = [...new Set([...(app_?.testers ?? []), wechatId])];
    await d.update(sandboxApps).set({ testers }).where(eq(sandboxApps.appId, owner.appId));
    return c.json(ok({ userstr: (await hmacSha256Hex(owner.appId, wechatId)).slice(0, 24) }));
  });

  app.post("/wxa/memberauth", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const app_ = await appOf(db(c), owner.appId);
    const members = await Promise.all((app_?.testers ?? []).map(async (id) => ({ userstr: (await hmacSha256Hex(owner.appId, id)).slice(0, 24) })));
    return c.json(ok({ members }));
  });

  app.get("/wxa/get_qrcode", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const app_ = await appOf(db(c), owner.appId);
    if (!app_?.commit) return c.json(fail(85008, "no code committed"));
    const png = await qrCodePng(
      `https://sandbox.weixin.local/experience/${owner.appId}/${app_.commit.userVersion}?path=${encodeURIComponent(c.req.query("path") ?? "")}`,
    );
    return new Response(png, { headers: { "Content-Type": "image/png" } });
  });

  app.post("/wxa/getwxacodeunlimit", async (c) => {
    const owner = await authorizer(c);
    if ("errcode" in owner) return c.json(owner);
    const b = await body(c);
    if (typeof b.scene !== "string" || b.scene.length > 32) return c.json(fail(40169, "invalid length for scene, or the data is not json string"));
    const png = await qrCodePng(`https://sandbox.weixin.local/wxacode/${owner.appId}?scene=${encodeURIComponent(b.scene)}`);
    return new Response(png, { headers: { "Content-Type": "image/png" } });
  });

  // Not WeChat's: the steering of the next audit, and a verify ticket pushed on demand.
  app.post("/steer", async (c) => {
    const b = await body(c);
    const outcome = b.outcome === "fail" ? "fail" : b.outcome === "pass" ? "pass" : undefined;
    const delaySeconds = b.delaySeconds === undefined ? DEFAULT_AUDIT_SECONDS : Number(b.delaySeconds);
    if (!outcome || typeof b.appId !== "string" || !Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 600) {
      return c.json({ error: 'Body: { "appId": "<authorizer app id>", "outcome": "pass" | "fail", "reason"?: "…", "delaySeconds"?: 0-600 }' }, 400);
    }
    const [steered] = await db(c)
      .update(sandboxApps)
      .set({ steering: { outcome, delaySeconds, ...(typeof b.reason === "string" ? { reason: b.reason.slice(0, 500) } : {}) } })
      .where(eq(sandboxApps.appId, b.appId))
      .returning();
    if (!steered) return c.json({ error: `No sandbox mini-program ${b.appId}` }, 404);
    return c.json({ appId: b.appId, nextAudit: steered.steering });
  });

  // A PNG to point D4's icon and licence at on a development machine (it has no image server).
  app.get(
    "/sample.png",
    async () => new Response(await qrCodePng("https://sandbox.weixin.local/sample", 144), { headers: { "Content-Type": "image/png" } }),
  );

  sandboxOperations(app, {
    authorizer,
    body,
    push: (event, appId) => deliver(host, event, appId),
    pushAuditResult: (appId, auditId) => pushAuditResult(host, appId, auditId),
  });

  app.post("/push-ticket", async (c) => {
    await pushVerifyTicket(host);
    return c.json({ pushed: true });
  });
  return app;
}

/** Sends the audit's result to the mini-program events receiver, once. */
async function pushAuditResult(host: SandboxHost, appId: string, auditId: number) {
  const d = database(host.env);
  const [audit] = await d
    .update(sandboxAudits)
    .set({ pushedAt: new Date().toISOString() })
    .where(and(eq(sandboxAudits.auditId, auditId), isNull(sandboxAudits.pushedAt)))
    .returning();
  if (!audit) return;
  const now = Math.floor(Date.now() / 1000);
  const state = auditStatusOf(audit);
  const event: Record<string, string | number> =
    state.status === 0
      ? { ToUserName: "gh_sandbox", FromUserName: "o_sandbox", CreateTime: now, MsgType: "event", Event: "weapp_audit_success", SuccTime: now }
      : {
          ToUserName: "gh_sandbox",
          FromUserName: "o_sandbox",
          CreateTime: now,
          MsgType: "event",
          Event: "weapp_audit_fail",
          Reason: state.reason,
          FailTime: now,
          ScreenShot: "sbxmedia_screenshot_1",
        };
  await deliver(host, event, appId);
}

/** A component_verify_ticket, as WeChat pushes one every 10 minutes. */
export async function pushVerifyTicket(host: SandboxHost) {
  await deliver(host, {
    AppId: host.component.appId,
    CreateTime: Math.floor(Date.now() / 1000),
    InfoType: "component_verify_ticket",
    ComponentVerifyTicket: `ticket@@@sandbox-${randomBase62(32)}`,
  });
}
