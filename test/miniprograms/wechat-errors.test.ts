import { afterEach, describe, expect, it, vi } from "vitest";
import { callWeChat, WECHAT_API, type WeChatTransport } from "../../src/miniprograms/wechat/client";
import { WeChatError, WECHAT_ERRORS, WeChatUnavailable } from "../../src/miniprograms/wechat/errors";

/** WeChat at the HTTP boundary: each call answers the next of `answers`. */
function fakeWeChat(...answers: (Record<string, unknown> | number)[]) {
  const calls: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    const next = answers.shift() ?? { errcode: 0, errmsg: "ok" };
    return typeof next === "number" ? new Response("upstream down", { status: next }) : Response.json(next);
  });
  return { calls, spy };
}
const wechat: WeChatTransport = { base: WECHAT_API, fetch: (request) => fetch(request) };
afterEach(() => vi.restoreAllMocks());

describe("WeChat's error codes", () => {
  it.each(
    Object.keys(WECHAT_ERRORS)
      .map(Number)
      .filter((code) => code !== -1),
  )("maps %i to a clear message and keeps errcode and errmsg", async (code) => {
    fakeWeChat({ errcode: code, errmsg: `raw message ${code}` });
    const failure = await callWeChat(wechat, "/wxa/commit", { access_token: "t" }, {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WeChatError);
    expect(failure).toMatchObject({ errcode: code, errmsg: `raw message ${code}`, message: WECHAT_ERRORS[code] });
  });

  it("names an unmapped code with WeChat's own text", async () => {
    fakeWeChat({ errcode: 12345, errmsg: "something new" });
    await expect(callWeChat(wechat, "/wxa/release", { access_token: "t" }, {})).rejects.toThrow("WeChat answered errcode 12345: something new");
  });

  it("retries system busy (-1) and answers once WeChat does", async () => {
    const { calls } = fakeWeChat({ errcode: -1, errmsg: "system error" }, { errcode: 0, errmsg: "ok", auditid: 42 });
    expect(await callWeChat(wechat, "/wxa/submit_audit", { access_token: "t" }, {})).toEqual({ errcode: 0, errmsg: "ok", auditid: 42 });
    expect(calls).toEqual(["/wxa/submit_audit", "/wxa/submit_audit"]);
  });

  it("gives up on -1 after three tries with its message", async () => {
    const { calls } = fakeWeChat(
      { errcode: -1, errmsg: "system error" },
      { errcode: -1, errmsg: "system error" },
      { errcode: -1, errmsg: "system error" },
    );
    await expect(callWeChat(wechat, "/wxa/submit_audit", { access_token: "t" }, {})).rejects.toThrow(WECHAT_ERRORS[-1]);
    expect(calls).toHaveLength(3);
  });

  it("retries a 5xx and reports WeChat unavailable when it lasts", async () => {
    const { calls } = fakeWeChat(502, 503, 500);
    await expect(callWeChat(wechat, "/wxa/get_auditstatus", { access_token: "t" }, {})).rejects.toBeInstanceOf(WeChatUnavailable);
    expect(calls).toHaveLength(3);
  });

  it("puts the token in the query and the body as JSON, never the token in the body", async () => {
    const { spy } = fakeWeChat({ errcode: 0, errmsg: "ok" });
    await callWeChat(wechat, "/wxa/commit", { access_token: "secret-token" }, { template_id: 1, ext_json: "{}" });
    const request = spy.mock.calls[0]![0] as Request;
    expect(new URL(request.url).searchParams.get("access_token")).toBe("secret-token");
    expect(request.headers.get("Content-Type")).toBe("application/json");
    expect(await request.text()).toBe('{"template_id":1,"ext_json":"{}"}');
  });
});
