import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SELF } from "cloudflare:test";
import { WECHAT_ERRORS } from "../../src/miniprograms/wechat/errors";
import type { TestKey } from "../helpers/credentials";
import { authorizedMiniprogram, deposits, miniprogramKey, ORIGIN, readyForAudit, steerAudit } from "../helpers/miniprograms";

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

const profile = (id: string, name = "Harbour Shop") => ({
  id,
  name,
  icon: "https://assets.example.com/icon.png",
  license: "https://assets.example.com/license.png",
  licenseType: "business",
  explain: "Fresh fish from the harbour",
});

let key: TestKey;
beforeAll(async () => {
  key = await miniprogramKey();
});
afterEach(() => vi.restoreAllMocks());

describe("a mini-program from configuration to release, through the sandbox", () => {
  it("configures, authorizes, verifies its name, updates, commits, audits, releases, and records every step", async () => {
    const { id, appId } = await authorizedMiniprogram(key);
    expect(appId).toMatch(/^wxsbx/);

    const taken = await deposits("/wxa/nameverify", key, { id, name: "WeChat" });
    expect(taken.body).toEqual({
      success: true,
      data: { errcode: 0, errmsg: "ok", hitCondition: true, wording: expect.stringContaining("trademark") },
    });
    const blocked = await deposits("/wxa/update", key, profile(id));
    expect(blocked.status).toBe(409);
    expect(blocked.body.error!.message).toBe(`D4 profile update needs the stage name_verified; mini-program ${id} is at authorized`);

    const verified = await deposits("/wxa/nameverify", key, { id, name: "Harbour Shop" });
    expect(verified.body.data).toEqual({ errcode: 0, errmsg: "ok", hitCondition: false, wording: "" });

    serveImages();
    const updated = await deposits("/wxa/update", key, profile(id));
    expect(updated.body).toEqual({ success: true, data: { code: 200, msg: "success" } });

    const templates = await deposits<{ Total: number; Data: { Id: number; Version: string }[] }>("/minipram/tpls", key);
    expect(templates.body.data.Total).toBe(3);
    const committed = await deposits("/wxa/codecommit", key, { id, tplId: templates.body.data.Data[0]!.Id });
    expect(committed.body.data).toEqual({ errcode: 0, errmsg: "ok" });

    const codes = await deposits<{ test_qrcode: string; wxa_code: string; testers: string[] }>("/wxa/tester/infor", key, { id });
    expect(codes.body.data.test_qrcode).toMatch(new RegExp(`^${ORIGIN}/deposits/codes/${id}/test-[A-Za-z0-9]{20}\\.png$`));
    const image = await SELF.fetch(codes.body.data.test_qrcode);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    expect([...new Uint8Array(await image.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    // Stable: the same commit keeps the same addresses.
    expect((await deposits("/wxa/tester/infor", key, { id })).body.data).toMatchObject({
      test_qrcode: codes.body.data.test_qrcode,
      wxa_code: codes.body.data.wxa_code,
    });

    const bound = await deposits("/wxa/tester/bind", key, { id, messengerId: "harbour_tester" });
    expect(bound.body.data).toMatchObject({ errcode: 0, errmsg: "ok" });
    expect((await deposits<{ testers: string[] }>("/wxa/tester/infor", key, { id })).body.data.testers).toEqual(["harbour_tester"]);

    const early = await deposits("/wxa/release", key, { id });
    expect(early.status).toBe(409);
    expect(early.body.error!.message).toBe(`D9 release needs the stage audit_passed; mini-program ${id} is at code_committed`);

    await readyForAudit(key, id);
    await steerAudit(appId, "pass", 0);
    const submitted = await deposits<{ auditid: string }>("/wxa/submitaudit", key, { id });
    expect(submitted.body.data).toMatchObject({ errcode: 0, errmsg: "ok", auditid: expect.stringMatching(/^\d+$/) });
    const state = await deposits("/wxa/auditstate", key, { id });
    expect(state.body.data).toMatchObject({ status: 0, reason: "", auditid: submitted.body.data.auditid });

    const released = await deposits("/wxa/release", key, { id });
    expect(released.body.data).toEqual({ errcode: 0, errmsg: "ok" });

    const steps = await deposits<{ stage: string; steps: { step: string; actorKeyId: number | null }[] }>("/minipram/steps", key, { id });
    expect(steps.body.data.stage).toBe("released");
    expect(steps.body.data.steps.map((s) => s.step)).toEqual([
      "configured",
      "authorization_link",
      "authorized",
      "nameverify",
      "nameverify",
      "update",
      "codecommit",
      "bindtester",
      "privacyset",
      "categoryadd",
      "submitaudit",
      "audit_result",
      "release",
    ]);
    expect(steps.body.data.steps.find((s) => s.step === "release")!.actorKeyId).toBe(key.keyId);
  });

  it("shows a rejected audit with its reason, and takes the resubmission", async () => {
    const { id, appId } = await reachCommitted();
    await steerAudit(appId, "fail", 0, "The menu page is empty");
    await deposits("/wxa/submitaudit", key, { id });
    const rejected = await deposits("/wxa/auditstate", key, { id });
    expect(rejected.body.data).toMatchObject({ status: 1, reason: "The menu page is empty", screenshots: ["sbxmedia_screenshot_1"] });
    expect((await deposits("/wxa/release", key, { id })).status).toBe(409);
    await steerAudit(appId, "pass", 0);
    expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/auditstate", key, { id })).body.data).toMatchObject({ status: 0 });
  });

  it("keeps WeChat's errcode and errmsg in the answer, with what they mean", async () => {
    const { id, appId } = await reachCommitted();
    await steerAudit(appId, "pass", 600);
    expect((await deposits("/wxa/submitaudit", key, { id })).body.data).toMatchObject({ errcode: 0 });
    expect((await deposits("/wxa/auditstate", key, { id })).body.data).toMatchObject({ status: 2 });
    // WeChat refuses a second submission while one is audited (85009)…
    const again = await deposits("/wxa/submitaudit", key, { id: String(id) });
    expect(again.status).toBe(409);
    // …which the stages catch first; a tester id WeChat refuses comes back as WeChat said it.
    const tester = await deposits("/wxa/tester/bind", key, { id, messengerId: "1-not-an-id" });
    expect(tester.body).toEqual({ success: true, data: { errcode: 86004, errmsg: "invalid wechat id", message: WECHAT_ERRORS[86004] } });
  });

  async function reachCommitted() {
    const { id, appId } = await authorizedMiniprogram(key, "Second Shop");
    await deposits("/wxa/nameverify", key, { id, name: `Shop ${id}` });
    serveImages();
    await deposits("/wxa/update", key, profile(id, `Shop ${id}`));
    vi.restoreAllMocks();
    await deposits("/wxa/codecommit", key, { id, tplId: 101 });
    await readyForAudit(key, id);
    return { id, appId };
  }
});

describe("who may do what", () => {
  it("answers 404 for another user's configuration, read or write", async () => {
    const { id } = await authorizedMiniprogram(key, "Mine");
    const other = await miniprogramKey();
    for (const [path, body] of [
      ["/wxa/auditstate", { id }],
      ["/wxa/nameverify", { id, name: "Stolen" }],
      ["/minipram/steps", { id }],
    ] as const) {
      const res = await deposits(path, other, body);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "not_found", message: `No mini-program configuration ${id}` } });
    }
    expect((await deposits<{ Total: number }>("/minipram/list", other)).body.data.Total).toBe(0);
  });

  it("lets a read-only key read and not write", async () => {
    const reader = await miniprogramKey(["miniprogram:read"]);
    expect((await deposits("/minipram/list", reader)).status).toBe(200);
    const refused = await deposits("/minipram/create", reader, { name: "Nope" });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.message).toBe("Insufficient permission: requires scope miniprogram:write");
  });

  it("validates bodies: missing fields, a bad page size, an unknown field", async () => {
    const cases: [string, unknown, string][] = [
      ["/wxa/nameverify", { id: "1" }, "Name is required"],
      ["/minipram/list", { pageSize: 101 }, "Page size must be from 1 to 100"],
      ["/wxa/codecommit", { id: "x", tplId: 1 }, "Id must be a configuration id (digits)"],
      ["/wxa/release", { id: "1", extra: true }, "The body does not take the field extra"],
    ];
    for (const [path, body, message] of cases) {
      const res = await deposits(path, key, body);
      expect(res.status, path).toBe(400);
      expect(res.body.error!.message).toBe(message);
    }
  });

  it("takes D1 and D2 with no body, or an empty one labelled JSON, and refuses another media type", async () => {
    const empty = await SELF.fetch(`${ORIGIN}/deposits/minipram/tpls`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key.token}`, "Content-Type": "application/json" },
    });
    expect((await empty.json<{ data: { CurrPage: number } }>()).data.CurrPage).toBe(1);
    expect((await deposits("/minipram/list", key)).status).toBe(200);
    const text = await SELF.fetch(`${ORIGIN}/deposits/minipram/list`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key.token}`, "Content-Type": "text/plain" },
      body: "x",
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ success: false, error: { code: "unsupported_media_type", message: "Unsupported Media Type" } });
  });

  it("pages D1 by 20 and D2 by 15 unless asked", async () => {
    const lister = await miniprogramKey();
    for (let i = 0; i < 3; i++) await deposits("/minipram/create", lister, { name: `Config ${i}` });
    const first = await deposits<{ Total: number; CurrPage: number; Data: { Name: string }[] }>("/minipram/list", lister, { pageSize: 2 });
    expect(first.body.data).toMatchObject({ Total: 3, CurrPage: 1 });
    expect(first.body.data.Data.map((m) => m.Name)).toEqual(["Config 0", "Config 1"]);
    expect((await deposits<{ Data: unknown[] }>("/minipram/list", lister, { pageNumber: 2, pageSize: 2 })).body.data.Data).toHaveLength(1);
    expect((await deposits<{ Data: unknown[] }>("/minipram/list", lister)).body.data.Data).toHaveLength(3);
  });
});
