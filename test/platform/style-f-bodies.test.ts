import { beforeAll, describe, expect, it } from "vitest";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { call, secretHeaders } from "../helpers/requests";

let key: TestKey;
beforeAll(async () => {
  key = await createTestKey({ scopes: ["reference:read", "ai:read"] });
});

const post = (path: string, contentType: string, body: BodyInit) =>
  call(path, { method: "POST", headers: { ...secretHeaders(key), "Content-Type": contentType }, body });

// One style F endpoint of each envelope: O answers { code, msg, data }, I adds timestamp.
const ENDPOINTS = ["/std/open/currency/list", "/std/ai/language/detect"];

describe("API8 · style F bodies the parser cannot read are a 400, never a 500", () => {
  it.each(ENDPOINTS)("%s: multipart whose body is not multipart", async (path) => {
    const res = await post(path, "multipart/form-data; boundary=X", "bizContent=%7B%7D");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, msg: "Request body is not valid multipart/form-data", data: null });
  });

  it.each(ENDPOINTS)("%s: multipart without a boundary", async (path) => {
    const res = await post(path, "multipart/form-data", '--X\r\nContent-Disposition: form-data; name="bizContent"\r\n\r\n{}\r\n--X--\r\n');
    expect(res.status).toBe(400);
  });

  it.each(ENDPOINTS)("%s: bizContent sent as a file", async (path) => {
    const form = new FormData();
    form.append("bizContent", new File(["{}"], "biz.json", { type: "application/json" }));
    const res = await call(path, { method: "POST", headers: secretHeaders(key), body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, msg: "bizContent must be a form field holding JSON, not a file" });
  });

  it("still reads well-formed multipart", async () => {
    const form = new FormData();
    form.append("bizContent", JSON.stringify({ text: "Das ist ein schöner Tag in Berlin und wir gehen spazieren." }));
    const res = await call("/std/ai/language/detect", { method: "POST", headers: secretHeaders(key), body: form });
    expect(res.status).toBe(200);
    expect((await res.json<{ data: { detectedLanguage: string } }>()).data.detectedLanguage).toBe("de");
  });
});
