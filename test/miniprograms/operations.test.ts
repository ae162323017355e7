import { SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { asAuthorizer, submitAudit } from "../../src/miniprograms/service";
import { miniprogramOf } from "../../src/miniprograms/service";
import { callWeChat } from "../../src/miniprograms/wechat/client";
import { WECHAT_ERRORS } from "../../src/miniprograms/wechat/errors";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, deposits, miniprogramContext, miniprogramKey, ORIGIN, readyForAudit, steerAudit } from "../helpers/miniprograms";

// An icon and a licence scan, as a customer's own server would serve them (the HTTP boundary).
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);
function serveImages() {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith("https://cloudflare-dns.com/")) return Response.json({ Answer: [{ type: 1, data: "93.184.215.14" }] });
    if (url.startsWith("https://assets.example.com/")) return new Response(PNG, { headers: { "Content-Type": "image/png" } });
    return real(input, init);
  });
}

const sandbox = async (path: string, body: unknown) => {
  const res = await SELF.fetch(`${ORIGIN}/wechat-sandbox${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`the sandbox's ${path} answered ${res.status}`);
};

let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A configuration with template 101's code committed (it uses UserInfo, Location and PhoneNumber). */
async function committed(name: string) {
  const { id, appId } = await authorizedMiniprogram(key, name);
  await deposits("/wxa/nameverify", key, { id, name: `${name} ${id}` });
  serveImages();
  const profile = { id, name: `${name} ${id}`, icon: "https://assets.example.com/i.png", license: "https://assets.example.com/l.png" };
  await deposits("/wxa/update", key, { ...profile, licenseType: "business", explain: "A shop" });
  vi.restoreAllMocks();
  await deposits("/wxa/codecommit", key, { id, tplId: 101 });
  return { id, appId };
}

/** The sandbox called as WeChat, with the mini-program's own token: its refusal as the errcode and our words for it. */
async function weChatSays(id: string, path: string, body: unknown) {
  const ctx = miniprogramContext();
  const mp = await miniprogramOf(ctx.db, { userId: key.userId, keyId: key.keyId }, id);
  return asAuthorizer(ctx, mp, (token) => callWeChat(ctx.upstream.transport, path, { access_token: token }, body)).then(
    () => ({ errcode: 0, message: "" }),
    (error: { errcode: number; message: string }) => ({ errcode: error.errcode, message: error.message }),
  );
}

const stepsOf = async (id: string) =>
  (await deposits<{ stage: string; steps: { step: string; label: string; answer: Record<string, unknown> }[] }>("/minipram/steps", key, { id })).body
    .data;

describe("privacy and the preflight check", () => {
  it("answers a submission without privacy settings with 409 naming what is missing, before WeChat is called", async () => {
    const { id } = await committed("Private Shop");
    const refused = await deposits("/wxa/submitaudit", key, { id });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toMatch(/^D6 audit submission would be refused by WeChat: privacy: /);
    expect(refused.body.error!.message).toContain("UserInfo, Location, PhoneNumber (WeChat refuses with 89248)");
    expect(refused.body.error!.message).toContain("categories: The mini-program has no service category");
    // WeChat's submit_audit was not called: there is no audit.
    expect((await deposits("/wxa/auditstate", key, { id })).status).toBe(409);

    await deposits("/wxa/privacy/set", key, {
      id,
      ownerSetting: { contactPhone: "+86 10 5555 0100", noticeMethod: "A pop-up" },
      settings: [{ privacyKey: "UserInfo", privacyText: "Your name on orders" }],
    });
    const partial = await deposits<{ ready: boolean; problems: { check: string; blocking: boolean; message: string }[] }>("/wxa/preflight", key, {
      id,
    });
    expect(partial.body.data.ready).toBe(false);
    expect(partial.body.data.problems).toEqual([
      {
        check: "privacy",
        blocking: true,
        message: "The privacy guide does not cover what the code uses: Location, PhoneNumber (WeChat refuses with 89248)",
      },
      { check: "categories", blocking: true, message: "The mini-program has no service category (WeChat refuses with 85008)" },
      {
        check: "domains",
        blocking: false,
        message: "No server (request) domain is set: the code's network requests will fail, a usual reason for an audit's rejection",
      },
    ]);
    const guide = await deposits<{ privacy_list: string[]; setting_list: unknown[] }>("/wxa/privacy/get", key, { id });
    expect(guide.body.data).toMatchObject({
      errcode: 0,
      privacy_list: ["UserInfo", "Location", "PhoneNumber"],
      setting_list: [{ privacy_key: "UserInfo" }],
    });
    expect((await deposits("/wxa/privacy/code", key, { id })).body.data).toMatchObject({ with_auth_list: ["UserInfo", "Location", "PhoneNumber"] });

    await readyForAudit(key, id);
    await deposits("/wxa/domain/server", key, { id, action: "add", requestDomains: ["https://api.shop.example"] });
    const ready = await deposits("/wxa/preflight", key, { id });
    expect(ready.body.data).toEqual({ ready: true, problems: [] });
    expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
    const steps = (await stepsOf(id)).steps.map((s) => s.step);
    expect(steps.slice(steps.indexOf("codecommit") + 1)).toEqual([
      "submitaudit",
      "privacyset",
      "preflight",
      "privacyget",
      "codeprivacy",
      "privacyset",
      "categoryadd",
      "domains",
      "preflight",
      "submitaudit",
    ]);
  });

  it("has the sandbox refuse submit_audit itself without privacy settings (89248), with what it means", async () => {
    const { id } = await committed("Bare Shop");
    const ctx = miniprogramContext();
    const mp = await miniprogramOf(ctx.db, { userId: key.userId, keyId: key.keyId }, id);
    expect(await submitAudit(ctx, { userId: key.userId, keyId: key.keyId }, mp)).toEqual({
      errcode: 89248,
      errmsg: "privacy info is incomplete, please set it first (setprivacysetting)",
      message: WECHAT_ERRORS[89248],
    });
  });

  it("validates the privacy guide: a contact, known interfaces, no duplicates", async () => {
    const cases: [unknown, string][] = [
      [{ ownerSetting: { noticeMethod: "Pop-up" }, settings: [{ privacyKey: "UserInfo", privacyText: "x" }] }, "needs one contact"],
      [
        { ownerSetting: { contactQq: "12345", noticeMethod: "Pop-up" }, settings: [{ privacyKey: "Telepathy", privacyText: "x" }] },
        "privacy key must be one of",
      ],
      [
        {
          ownerSetting: { contactQq: "12345", noticeMethod: "Pop-up" },
          settings: [
            { privacyKey: "Album", privacyText: "x" },
            { privacyKey: "Album", privacyText: "y" },
          ],
        },
        "names a privacy interface twice",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await deposits("/wxa/privacy/set", key, { id: "1", ...(body as object) });
      expect(res.status).toBe(400);
      expect(res.body.error!.message.toLowerCase()).toContain(message.toLowerCase());
    }
  });
});

describe("the sandbox's setprivacysetting, as WeChat documents it", () => {
  it("answers 86069 for a missing owner_setting field, 86074 for the online guide before a release, 40097 for other bad arguments", async () => {
    const { id } = await authorizedMiniprogram(key, "Privacy Codes Shop");
    const settingList = [{ privacy_key: "UserInfo", privacy_text: "Your name on your orders" }];
    const owner = { contact_email: "privacy@shop.example", notice_method: "A pop-up on first use" };
    expect(
      await weChatSays(id, "/cgi-bin/component/setprivacysetting", { privacy_ver: 2, owner_setting: { contact_email: owner.contact_email } }),
    ).toEqual({
      errcode: 86069,
      message: WECHAT_ERRORS[86069],
    });
    expect(
      await weChatSays(id, "/cgi-bin/component/setprivacysetting", {
        privacy_ver: 2,
        owner_setting: { notice_method: "A pop-up" },
        setting_list: settingList,
      }),
    ).toMatchObject({ errcode: 86069 });
    expect(
      await weChatSays(id, "/cgi-bin/component/setprivacysetting", {
        privacy_ver: 2,
        owner_setting: owner,
        setting_list: [{ privacy_key: "UserInfo" }],
      }),
    ).toMatchObject({ errcode: 40097 });
    expect(await weChatSays(id, "/cgi-bin/component/setprivacysetting", { privacy_ver: 1, owner_setting: owner, setting_list: settingList })).toEqual(
      {
        errcode: 86074,
        message: WECHAT_ERRORS[86074],
      },
    );
    expect(await weChatSays(id, "/cgi-bin/component/setprivacysetting", { privacy_ver: 2, owner_setting: owner, setting_list: settingList })).toEqual(
      {
        errcode: 0,
        message: "",
      },
    );
  });
});

describe("domains and categories", () => {
  it("refuses domains WeChat refuses before calling it, and keeps what it takes", async () => {
    const { id } = await authorizedMiniprogram(key, "Domain Shop");
    const bad: [Record<string, unknown>, string][] = [
      [{ requestDomains: ["http://api.shop.example"] }, "must start with https://"],
      [{ requestDomains: ["https://10.0.0.1"] }, "is an IP address or localhost: WeChat takes host names only"],
      [{ requestDomains: ["https://*.shop.example"] }, "no wildcards"],
      [{ requestDomains: ["https://api.shop.example/v1"] }, "without a path"],
      [{ socketDomains: ["https://live.shop.example"] }, "must start with wss://"],
      [{ requestDomains: Array.from({ length: 201 }, (_, i) => `https://a${i}.shop.example`) }, "At most 200 domains in requestDomains"],
      [{ requestDomains: ["https://a.shop.example", "https://a.shop.example"] }, "A domain appears twice in requestDomains"],
    ];
    for (const [lists, message] of bad) {
      const res = await deposits("/wxa/domain/server", key, { id, action: "add", ...lists });
      expect(res.status, message).toBe(400);
      expect(res.body.error!.message).toContain(message);
    }
    expect(
      (await deposits("/wxa/domain/prefetch", key, { id, domains: Array.from({ length: 6 }, (_, i) => `https://p${i}.shop.example`) })).status,
    ).toBe(400);

    const added = await deposits("/wxa/domain/server", key, {
      id,
      action: "add",
      requestDomains: ["https://api.shop.example"],
      socketDomains: ["wss://live.shop.example"],
    });
    expect(added.body.data).toMatchObject({ errcode: 0 });
    await deposits("/wxa/domain/webview", key, { id, action: "set", domains: ["https://www.shop.example"] });
    await deposits("/wxa/domain/prefetch", key, { id, domains: ["https://api.shop.example"] });
    expect((await deposits("/wxa/domain/get", key, { id })).body.data).toEqual({
      errcode: 0,
      errmsg: "ok",
      server: { requestdomain: ["https://api.shop.example"], wsrequestdomain: ["wss://live.shop.example"], uploaddomain: [], downloaddomain: [] },
      webview: ["https://www.shop.example"],
      prefetch: ["https://api.shop.example"],
    });
    // WeChat's bound is on all it keeps: two adds of 150 pass our check one by one and WeChat refuses the second (85016).
    const many = (from: number) => Array.from({ length: 150 }, (_, i) => `https://d${from + i}.shop.example`);
    expect((await deposits("/wxa/domain/server", key, { id, action: "add", downloadDomains: many(0) })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/domain/server", key, { id, action: "add", downloadDomains: many(150) })).body.data).toEqual({
      errcode: 85016,
      errmsg: "exceed valid domain count",
      message: WECHAT_ERRORS[85016],
    });
  });

  it("lists, adds, refuses and deletes categories with WeChat's codes, and records the category audit's push", async () => {
    const { id } = await authorizedMiniprogram(key, "Category Shop");
    const all = await deposits<{ categories: { id: number; sensitive_type: number }[] }>("/wxa/category/all", key, { id });
    expect(all.body.data.categories.find((c) => c.id === 102)).toMatchObject({ sensitive_type: 1 });
    expect((await deposits("/wxa/category/add", key, { id, categories: [{ first: 1, second: 102 }] })).body.data).toMatchObject({
      errcode: 53303,
      message: WECHAT_ERRORS[53303],
    });
    expect((await deposits("/wxa/category/add", key, { id, categories: [{ first: 2, second: 201 }] })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/category/add", key, { id, categories: [{ first: 2, second: 201 }] })).body.data).toMatchObject({
      errcode: 53304,
      message: WECHAT_ERRORS[53304],
    });
    const licensed = await deposits("/wxa/category/add", key, {
      id,
      categories: [{ first: 1, second: 102, certificates: [{ key: "Food business licence", value: "sbxmedia_licence" }] }],
    });
    expect(licensed.body.data).toMatchObject({ errcode: 0 });
    const held = await deposits<{ categories: { second: number; audit_status: number }[] }>("/wxa/category/get", key, { id });
    expect(held.body.data.categories.map((c) => [c.second, c.audit_status])).toEqual([
      [201, 3],
      [102, 3],
    ]);
    expect((await stepsOf(id)).steps.find((s) => s.step === "category_audit")?.answer).toMatchObject({
      Event: "wxa_category_audit",
      ret: "3",
      second: "102",
    });
    expect((await deposits("/wxa/category/delete", key, { id, first: 2, second: 201 })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/category/add", key, { id, categories: [] })).status).toBe(400);
  });
});

describe("audit: withdraw, quota, expedite", () => {
  it("withdraws a running audit, expedites the next, and counts both against the platform's quota", async () => {
    const { id, appId } = await committed("Audit Shop");
    await readyForAudit(key, id);
    expect((await deposits("/wxa/audit/withdraw", key, { id })).status).toBe(409);
    const before = (await deposits<{ rest: number; speedup_rest: number }>("/wxa/audit/quota", key, { id })).body.data;
    await steerAudit(appId, "pass", 600);
    await deposits("/wxa/submitaudit", key, { id });
    expect((await deposits("/wxa/audit/withdraw", key, { id })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    expect((await deposits("/wxa/auditstate", key, { id })).body.data).toMatchObject({ status: 3 });
    // Withdrawn, it may be submitted again; expedited, it is decided at once.
    await steerAudit(appId, "pass", 600);
    expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/audit/speedup", key, { id })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    expect((await deposits("/wxa/auditstate", key, { id })).body.data).toMatchObject({ status: 0 });
    const after = (await deposits<{ rest: number; speedup_rest: number }>("/wxa/audit/quota", key, { id })).body.data;
    // Other files share the sandbox's platform: at least this file's two submissions and one expedite are counted.
    expect(after.rest).toBeLessThanOrEqual(before.rest - 2);
    expect(after.speedup_rest).toBeLessThanOrEqual(before.speedup_rest - 1);
    expect((await deposits("/wxa/audit/speedup", key, { id })).status).toBe(409);
  });

  it("names a used-up quota in the preflight and refuses the submission before WeChat (85085 from WeChat itself)", async () => {
    const { id } = await committed("Quota Shop");
    await readyForAudit(key, id);
    // A month of its own, so that no other file's submission meets the empty quota.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-03-10T10:00:00Z") });
    await sandbox("/quota", { rest: 0 });
    expect((await deposits("/wxa/audit/quota", key, { id })).body.data).toMatchObject({ rest: 0 });
    const refused = await deposits("/wxa/submitaudit", key, { id });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toContain("quota: The platform's audit quota for this month is used up (WeChat refuses with 85085)");
    const ctx = miniprogramContext();
    const mp = await miniprogramOf(ctx.db, { userId: key.userId, keyId: key.keyId }, id);
    expect(await submitAudit(ctx, { userId: key.userId, keyId: key.keyId }, mp)).toMatchObject({ errcode: 85085, message: WECHAT_ERRORS[85085] });
  });
});

describe("the sandbox's speedupaudit, as WeChat documents it", () => {
  it("answers 89402 with no audit in the queue, 89404 for a second expedite, 89405 once the month's expedites are used up", async () => {
    const { id, appId } = await committed("Expedite Codes Shop");
    await readyForAudit(key, id);
    // A month of its own, so that no other file's expedite meets the empty quota.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-04-10T10:00:00Z") });
    await steerAudit(appId, "pass", 600);
    const auditid = Number((await deposits<{ auditid: string }>("/wxa/submitaudit", key, { id })).body.data.auditid);
    expect(await weChatSays(id, "/wxa/speedupaudit", { auditid: auditid + 1000 })).toEqual({ errcode: 89402, message: WECHAT_ERRORS[89402] });

    await sandbox("/quota", { speedupRest: 0 });
    // Through D: WeChat's refusal kept as it came, with our words for it.
    expect((await deposits("/wxa/audit/speedup", key, { id })).body.data).toEqual({
      errcode: 89405,
      errmsg: "本月加急额度不足",
      message: WECHAT_ERRORS[89405],
    });
    await sandbox("/quota", { speedupRest: 1 });
    expect(await weChatSays(id, "/wxa/speedupaudit", { auditid })).toEqual({ errcode: 0, message: "" });
    expect(await weChatSays(id, "/wxa/speedupaudit", { auditid })).toEqual({ errcode: 89404, message: WECHAT_ERRORS[89404] });
  });
});

describe("release: phased, rollback, visit status", () => {
  it("releases in phases, reverts, finishes, rolls back once, and closes the mini-program", async () => {
    const { id, appId } = await committed("Phased Shop");
    await readyForAudit(key, id);
    const pass = async () => {
      await steerAudit(appId, "pass", 0);
      expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
      expect((await deposits("/wxa/auditstate", key, { id })).body.data).toMatchObject({ status: 0 });
    };
    await pass();
    // The first version has nothing online to phase from (85079).
    expect((await deposits("/wxa/release/phased", key, { id, percentage: 10 })).body.data).toEqual({
      errcode: 85079,
      errmsg: "no online version, a phased release needs one",
      message: WECHAT_ERRORS[85079],
    });
    expect((await deposits("/wxa/release/rollback", key, { id })).status).toBe(409);
    await deposits("/wxa/release", key, { id });
    await deposits("/wxa/codecommit", key, { id, tplId: 102 });
    await pass();

    expect((await deposits("/wxa/release/phased", key, { id, percentage: 10 })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    expect((await stepsOf(id)).stage).toBe("phased_release");
    expect((await deposits("/wxa/release/phased/plan", key, { id })).body.data).toMatchObject({
      gray_release_plan: { status: 1, gray_percentage: 10 },
    });
    expect((await deposits("/wxa/release/phased", key, { id, percentage: 5 })).body.data).toMatchObject({
      errcode: 85082,
      message: WECHAT_ERRORS[85082],
    });
    expect((await deposits("/wxa/release/phased", key, { id, percentage: 101 })).status).toBe(400);
    expect((await deposits("/wxa/release/rollback", key, { id })).status).toBe(409);
    expect((await deposits("/wxa/release/phased/revert", key, { id })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    expect((await stepsOf(id)).stage).toBe("audit_passed");
    expect((await deposits("/wxa/release/phased/plan", key, { id })).body.data).toMatchObject({ gray_release_plan: { status: 0 } });

    await deposits("/wxa/release/phased", key, { id, percentage: 50 });
    expect((await deposits("/wxa/release/phased", key, { id, percentage: 100 })).body.data).toMatchObject({ errcode: 0 });
    expect((await stepsOf(id)).stage).toBe("released");
    const history = await deposits<{ version_list: { app_version: number; user_version: string }[] }>("/wxa/release/history", key, { id });
    expect(history.body.data.version_list).toEqual([expect.objectContaining({ app_version: 1, user_version: "1.0.0" })]);
    expect((await deposits("/wxa/release/rollback", key, { id, appVersion: 9 })).body.data).toMatchObject({ errcode: 87012 });
    expect((await deposits("/wxa/release/rollback", key, { id })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    // One rollback per release.
    expect((await deposits("/wxa/release/rollback", key, { id })).body.data).toEqual({
      errcode: 87012,
      errmsg: "this version cannot be rolled back",
      message: WECHAT_ERRORS[87012],
    });
    expect((await deposits("/wxa/release/history", key, { id })).body.data).toMatchObject({ version_list: [] });
    expect((await deposits("/wxa/visitstatus", key, { id, action: "close" })).body.data).toEqual({ errcode: 0, errmsg: "ok" });
    expect((await deposits("/wxa/visitstatus", key, { id, action: "hide" })).status).toBe(400);
    const steps = (await stepsOf(id)).steps.map((s) => s.step);
    for (const step of ["phased", "phasedplan", "phasedrevert", "history", "rollback", "visitstatus"]) expect(steps).toContain(step);
  });
});

describe("WeChat's pushes for names, categories, privacy and delays", () => {
  it("records each as a step, and a rejected name is a blocking problem of the preflight", async () => {
    const { id, appId } = await committed("Pushed Name");
    await readyForAudit(key, id);
    await sandbox("/push-event", { appId, event: "wxa_nickname_audit", ret: 2, nickname: "Pushed Name", reason: "The name imitates a brand" });
    await sandbox("/push-event", { appId, event: "wxa_privacy_apply", api_name: "wx.getLocation", audit_result: 1 });
    const preflight = await deposits<{ ready: boolean; problems: { check: string; message: string }[] }>("/wxa/preflight", key, { id });
    expect(preflight.body.data.ready).toBe(false);
    expect(preflight.body.data.problems).toContainEqual({
      check: "name",
      blocking: true,
      message: "WeChat rejected the name Pushed Name: The name imitates a brand",
    });
    await steerAudit(appId, "pass", 600);
    await sandbox("/push-event", { appId, event: "wxa_nickname_audit", ret: 3, nickname: "Pushed Name" });
    expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
    await sandbox("/push-event", { appId, event: "weapp_audit_delay", Reason: "Busy week", DelayTime: 1764800000 });
    expect((await deposits("/wxa/auditstate", key, { id })).status).toBe(200);
    const steps = (await stepsOf(id)).steps;
    expect(steps.filter((s) => s.step === "name_audit").map((s) => s.answer.ret)).toEqual(["2", "3"]);
    expect(steps.find((s) => s.step === "privacy_apply")?.answer).toMatchObject({ api_name: "wx.getLocation" });
    expect(steps.some((s) => s.step === "audit_result" && s.answer.status === 4)).toBe(true);
    // Each in words, for a person reading the steps.
    const labels = new Map((await stepsOf(id)).steps.map((s) => [s.step, s.label]));
    expect(Object.fromEntries(["name_audit", "privacy_apply", "audit_result", "submitaudit"].map((s) => [s, labels.get(s)]))).toEqual({
      name_audit: "WeChat's answer on the name",
      privacy_apply: "WeChat's answer on a privacy interface",
      audit_result: "The audit's result",
      submitaudit: "D6 audit submission",
    });
  });
});

describe("who may call the new operations", () => {
  it("lets a read-only key read the preflight and quota but not set privacy, and hides another user's configuration", async () => {
    const { id } = await authorizedMiniprogram(key, "Guarded Shop");
    const reader = await miniprogramKey(["miniprogram:read"]);
    expect((await deposits("/wxa/audit/quota", reader, { id })).status).toBe(404);
    const other = await miniprogramKey();
    for (const path of ["/wxa/privacy/get", "/wxa/release/rollback", "/wxa/category/add", "/wxa/preflight"]) {
      const res = await deposits(path, other, { id, categories: [{ first: 2, second: 201 }] });
      expect([400, 404], path).toContain(res.status);
    }
    expect((await deposits("/wxa/privacy/get", other, { id })).body.error!.message).toBe(`No mini-program configuration ${id}`);
    const refused = await deposits("/wxa/privacy/set", reader, { id, ownerSetting: { contactQq: "12345", noticeMethod: "x" }, settings: [] });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.message).toBe("Insufficient permission: requires scope miniprogram:write");
    expect((await deposits("/wxa/preflight", reader, { id })).status).toBe(404);
  });
});
