import { describe, expect, it } from "vitest";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { call, envelope, secretHeaders, signedHeaders } from "../helpers/requests";

const PATH = "/std/open/country/list";
type Country = { id: number; code: string; name: string; iso3: string; phoneCode: string | null; currencyCode: string | null };

let shared: Promise<TestKey> | undefined;
const key = () => (shared ??= createTestKey({ scopes: ["reference:read"] }));

async function post(body: BodyInit, contentType: string, headers?: Record<string, string>) {
  return call(PATH, {
    method: "POST",
    headers: { ...(headers ?? secretHeaders(await key())), "Content-Type": contentType },
    body,
  });
}

function expectAllCountries(countries: Country[]) {
  expect(countries).toHaveLength(249);
  expect(countries.find((c) => c.code === "DE")).toMatchObject({ name: "Germany", iso3: "DEU", phoneCode: "49", currencyCode: "EUR" });
}

describe("O1 country list", () => {
  it("answers GET with all 249 ISO 3166-1 countries", async () => {
    const res = await call(PATH, { headers: secretHeaders(await key()) });
    expect(res.status).toBe(200);
    expectAllCountries((await envelope<Country[]>(res)).data);
  });

  it.each([
    ["?region=Europe", "GET takes no parameters (region): send them in bizContent with POST"],
    [`?bizContent=${encodeURIComponent('{"region":"Europe"}')}`, "GET takes no parameters (bizContent): send them in bizContent with POST"],
  ])("refuses GET %s rather than answer every country, pointing to POST", async (query, msg) => {
    const res = await call(`${PATH}${query}`, { headers: secretHeaders(await key()) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, msg, data: null });
  });

  it("accepts bizContent as a JSON object", async () => {
    const res = await post(JSON.stringify({ bizContent: {} }), "application/json");
    expect(res.status).toBe(200);
    expectAllCountries((await envelope<Country[]>(res)).data);
  });

  it("accepts bizContent as a JSON string inside JSON", async () => {
    const res = await post(JSON.stringify({ bizContent: "{}" }), "application/json");
    expect(res.status).toBe(200);
  });

  it("accepts bizContent as a urlencoded form field", async () => {
    const res = await post(new URLSearchParams({ bizContent: "{}" }).toString(), "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
  });

  it("accepts bizContent as a multipart form field", async () => {
    const form = new FormData();
    form.set("bizContent", "{}");
    const res = await call(PATH, { method: "POST", headers: secretHeaders(await key()), body: form });
    expect(res.status).toBe(200);
  });

  it.each([
    ["no bizContent", JSON.stringify({}), "application/json", "bizContent is required"],
    ["an empty body", "", "application/json", "Request body is not valid JSON"],
    ["a body that is not JSON", "{bizContent:", "application/json", "Request body is not valid JSON"],
    ["bizContent that is not JSON", JSON.stringify({ bizContent: "{nope" }), "application/json", "bizContent is not valid JSON"],
    ["bizContent that is an array", JSON.stringify({ bizContent: [1] }), "application/json", "bizContent must be a JSON object"],
    ["bizContent that is a number", JSON.stringify({ bizContent: 5 }), "application/json", "bizContent must be a JSON object"],
    ["a form without bizContent", "other=1", "application/x-www-form-urlencoded", "bizContent is required"],
    // What `curl -d '{…}'` sends without -H "Content-Type: application/json".
    [
      "JSON sent as a form",
      JSON.stringify({ bizContent: {} }),
      "application/x-www-form-urlencoded",
      "The body is JSON sent as application/x-www-form-urlencoded: send it with Content-Type: application/json",
    ],
  ])("refuses %s with a 400", async (_, body, contentType, msg) => {
    const res = await post(body, contentType);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, msg, data: null });
  });

  it("refuses a body of a type it does not read with a 415 that says which it reads", async () => {
    const res = await post(JSON.stringify({ bizContent: {} }), "text/plain");
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      code: 415,
      msg: 'A body of type text/plain is not read: send {"bizContent": {…}} as application/json, or bizContent as a form field',
      data: null,
    });
  });

  it("refuses a parameter O1 does not take, naming it", async () => {
    const res = await post(JSON.stringify({ bizContent: { ccode: "DE" } }), "application/json");
    expect(res.status).toBe(400);
    expect((await envelope(res)).msg).toMatch(/^bizContent: .*ccode/);
  });

  it("refuses a key without the reference scope", async () => {
    const taxOnly = await createTestKey({ scopes: ["taxrate:read"] });
    const res = await call(PATH, { headers: secretHeaders(taxOnly) });
    expect(res.status).toBe(403);
  });

  it("refuses a request without a key", async () => {
    const res = await call(PATH, { method: "POST" });
    expect(res.status).toBe(401);
  });
});

describe("signed style F requests", () => {
  it("accepts a signature over an empty bizContent", async () => {
    const k = await key();
    const res = await post(JSON.stringify({ bizContent: {} }), "application/json", await signedHeaders(k));
    expect(res.status).toBe(200);
  });

  it("signs the top-level bizContent keys, so a verified request reaches validation", async () => {
    const k = await key();
    const bizContent = { ccode: "DE", country: "Germany" };
    const headers = await signedHeaders(k, { params: bizContent });
    const res = await post(new URLSearchParams({ bizContent: JSON.stringify(bizContent) }).toString(), "application/x-www-form-urlencoded", headers);
    // Past authentication: O1 itself refuses the parameters it does not take.
    expect(res.status).toBe(400);
  });

  it("refuses a signature over other bizContent than the one sent", async () => {
    const k = await key();
    const headers = await signedHeaders(k, { params: { ccode: "FR" } });
    const res = await post(JSON.stringify({ bizContent: { ccode: "DE" } }), "application/json", headers);
    expect(res.status).toBe(401);
    expect((await envelope(res)).msg).toBe("Invalid signature");
  });

  it("signs nested values as compact JSON", async () => {
    const k = await key();
    const bizContent = { filter: { a: 1, b: [1, 2] } };
    const headers = await signedHeaders(k, { params: { filter: '{"a":1,"b":[1,2]}' } });
    const res = await post(JSON.stringify({ bizContent }), "application/json", headers);
    expect(res.status).toBe(400);
    expect((await envelope(res)).msg).toMatch(/^bizContent: /);
  });
});
