import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { AUDIT_STATES, miniprograms } from "../../src/miniprograms/schema";
import { applyAuditResult } from "../../src/miniprograms/service";
import { upstreamOf } from "../../src/miniprograms/upstream";
import { database } from "../../src/platform/database";
import { encryptMessage, messageSignature, querySignature, xmlOf } from "../../src/miniprograms/wechat/message-crypto";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, componentAppId, deposits, miniprogramKey, push, pushTicket } from "../helpers/miniprograms";

const sealedTicket = async () =>
  (await env.DB.prepare("SELECT sealed_value, updated_at FROM wechat_credentials WHERE name = 'component_verify_ticket'").first<{
    sealed_value: string;
    updated_at: string;
  }>())!;
const now = () => Math.floor(Date.now() / 1000);

let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
});

describe("WeChat's pushes", () => {
  it("stores a verify ticket sealed, and answers the plain text success", async () => {
    const ticket = `ticket@@@sandbox-${crypto.randomUUID()}`;
    const res = await push("/wechat/component/events", {
      AppId: componentAppId(),
      CreateTime: now(),
      InfoType: "component_verify_ticket",
      ComponentVerifyTicket: ticket,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("success");
    const stored = await sealedTicket();
    expect(stored.sealed_value).toMatch(/^v1\./);
    expect(stored.sealed_value).not.toContain(ticket);
  });

  it("refuses a bad signature, a missing one, and a message sealed for another app id, changing nothing", async () => {
    await pushTicket();
    const before = await sealedTicket();
    const event = {
      AppId: componentAppId(),
      CreateTime: now(),
      InfoType: "component_verify_ticket",
      ComponentVerifyTicket: "ticket@@@sandbox-forged",
    };
    const forged = await push("/wechat/component/events", event, (m) => (m.query.msg_signature = "0".repeat(40)));
    expect(forged.status).toBe(401);
    expect(await forged.text()).toBe("The push's msg_signature does not match");
    const unsigned = await push("/wechat/component/events", event, (m) => delete m.query.msg_signature);
    expect(unsigned.status).toBe(400);
    const oversized = await push("/wechat/component/events", event, (m) => (m.query.nonce = "n".repeat(65)));
    expect(oversized.status).toBe(400);
    expect(await oversized.text()).toMatch(/^nonce: /);
    // Signed with our token, but sealed for another app id: as if meant for another platform.
    const { component } = upstreamOf(env, () => {});
    const otherApp = await encryptMessage(xmlOf(event), "wxsomeoneelse0001", component.encodingAesKey);
    const timestamp = String(now());
    const query = new URLSearchParams({
      timestamp,
      nonce: "n",
      signature: await querySignature(component.messageToken, timestamp, "n"),
      msg_signature: await messageSignature(component.messageToken, timestamp, "n", otherApp),
    });
    const wrongApp = await SELF.fetch(`https://gateway.test/wechat/component/events?${query.toString()}`, {
      method: "POST",
      body: xmlOf({ AppId: "wxsomeoneelse0001", Encrypt: otherApp }),
    });
    expect(wrongApp.status).toBe(401);
    expect(await wrongApp.text()).toBe("The push could not be opened: the message is for app id wxsomeoneelse0001, not ours");
    expect(await sealedTicket()).toEqual(before);
  });

  it("moves the audit state on weapp_audit_fail, _delay and _success", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Pushed Shop");
    await env.DB.prepare("UPDATE miniprograms SET stage = 'audit_submitted', audit_id = '7', audit_status = 2 WHERE id = ?").bind(Number(id)).run();
    const event = (name: string, more: Record<string, string | number> = {}) =>
      push(`/wechat/miniprogram/events/${appId}`, {
        ToUserName: "gh_x",
        FromUserName: "o_x",
        CreateTime: now(),
        MsgType: "event",
        Event: name,
        ...more,
      });
    const stage = async () =>
      (await env.DB.prepare("SELECT stage, audit_status, audit_reason FROM miniprograms WHERE id = ?").bind(Number(id)).first())!;
    expect(await (await event("weapp_audit_fail", { Reason: "Blurry icon", FailTime: now(), ScreenShot: "m1|m2" })).text()).toBe("success");
    expect(await stage()).toEqual({ stage: "audit_submitted", audit_status: 1, audit_reason: "Blurry icon" });
    await event("weapp_audit_delay", { Reason: "Holiday", DelayTime: now() });
    expect(await stage()).toMatchObject({ audit_status: 4 });
    await event("weapp_audit_success", { SuccTime: now() });
    expect(await stage()).toMatchObject({ stage: "audit_passed", audit_status: 0 });
    const steps = await deposits<{ steps: { step: string; request: { source: string } }[] }>("/minipram/steps", key, { id });
    expect(steps.body.data.steps.filter((s) => s.step === "audit_result").map((s) => s.request.source)).toEqual(["push", "push", "push"]);
  });

  it("keeps a mini-program in phased release or released when its audit's success is pushed again late", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Released Shop");
    const succeeded = () =>
      push(`/wechat/miniprogram/events/${appId}`, {
        ToUserName: "gh_x",
        FromUserName: "o_x",
        CreateTime: now(),
        MsgType: "event",
        Event: "weapp_audit_success",
        SuccTime: now(),
      });
    const stage = async () => (await env.DB.prepare("SELECT stage, audit_status FROM miniprograms WHERE id = ?").bind(Number(id)).first())!;
    // WeChat sends a push again when the first answer was late: the phased release has begun by then.
    for (const released of ["phased_release", "released"]) {
      await env.DB.prepare("UPDATE miniprograms SET stage = ?, audit_id = '8', audit_status = 0 WHERE id = ?").bind(released, Number(id)).run();
      expect(await (await succeeded()).text()).toBe("success");
      expect(await stage()).toEqual({ stage: released, audit_status: 0 });
    }
    // A push that read the row while the audit was still running, and writes after the release began.
    const [read] = await database(env)
      .select()
      .from(miniprograms)
      .where(eq(miniprograms.id, Number(id)));
    await env.DB.prepare("UPDATE miniprograms SET stage = 'phased_release' WHERE id = ?").bind(Number(id)).run();
    await applyAuditResult(
      database(env),
      { ...read!, stage: "audit_submitted", auditStatus: AUDIT_STATES.auditing },
      { status: AUDIT_STATES.passed },
      "push",
    );
    expect(await stage()).toEqual({ stage: "phased_release", audit_status: 0 });
  });

  it("records one authorization when the owner's redirect and WeChat's push bring the same code at once", async () => {
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Twice Told Shop" });
    const id = String(created.body.data.id);
    const link = new URL((await deposits<{ authorizeUrl: string }>("/minipram/authorize", key, { id })).body.data.authorizeUrl);
    const consent = await SELF.fetch(link.href, { redirect: "manual" });
    const back = consent.headers.get("Location")!;
    const code = new URL(back).searchParams.get("auth_code")!;
    const [redirect, pushed] = await Promise.all([
      SELF.fetch(back),
      push("/wechat/component/events", {
        AppId: componentAppId(),
        CreateTime: now(),
        InfoType: "authorized",
        AuthorizerAppid: code.split("@@@")[1]!,
        AuthorizationCode: code,
        PreAuthCode: link.searchParams.get("pre_auth_code")!,
      }),
    ]);
    expect([redirect.status, await pushed.text()]).toEqual([200, "success"]);
    await new Promise((r) => setTimeout(r, 200)); // the sandbox's own push, sent in the background
    const steps = await deposits<{ stage: string; steps: { step: string }[] }>("/minipram/steps", key, { id });
    expect(steps.body.data.stage).toBe("authorized");
    expect(steps.body.data.steps.filter((s) => s.step === "authorized")).toHaveLength(1);
  });

  it("refuses an owner's redirect for a configuration that never made a link, or with another link's state", async () => {
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "Never Linked" });
    const never = await SELF.fetch(`https://gateway.test/wechat/authorized/${created.body.data.id}/${"0".repeat(64)}?auth_code=x`);
    expect(never.status).toBe(404);
    expect(await never.text()).toBe("No mini-program waits for this authorization");
    await deposits("/minipram/authorize", key, { id: String(created.body.data.id) });
    const forged = await SELF.fetch(`https://gateway.test/wechat/authorized/${created.body.data.id}/${"0".repeat(64)}?auth_code=x`);
    expect(forged.status).toBe(404);
    const row = await env.DB.prepare("SELECT stage FROM miniprograms WHERE id = ?").bind(created.body.data.id).first<{ stage: string }>();
    expect(row!.stage).toBe("configured");
  });

  it("takes back an authorization on unauthorized: tokens gone, stage configured", async () => {
    const { id, appId } = await authorizedMiniprogram(key, "Leaving Shop");
    await push("/wechat/component/events", { AppId: componentAppId(), CreateTime: now(), InfoType: "unauthorized", AuthorizerAppid: appId });
    const row = (await env.DB.prepare("SELECT stage, authorizer_app_id, authorizer_refresh_token FROM miniprograms WHERE id = ?")
      .bind(Number(id))
      .first())!;
    expect(row).toEqual({ stage: "configured", authorizer_app_id: null, authorizer_refresh_token: null });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM wechat_credentials WHERE name = ?").bind(`authorizer_access_token:${appId}`).first("n"),
    ).toBe(0);
    const refused = await deposits("/wxa/nameverify", key, { id, name: "Any" });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe(`D3 name verification needs the stage authorized; mini-program ${id} is at configured`);
  });
});
