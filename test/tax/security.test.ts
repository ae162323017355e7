import { describe, expect, it } from "vitest";
import { createTestKey } from "../helpers/credentials";
import { call, getWithSecret } from "../helpers/requests";
import { TAX } from "./fixtures";

const ENDPOINTS = [
  "/list",
  "/country/DE",
  "/country/US/region/US-CA",
  "/country/DE/type/VAT",
  "/country/DE/standard",
  "/eu/all",
  "/oecd/VAT",
  "/taxnumber/DE136695976",
  "/types",
  "/levels",
  "/1",
];

describe.each(ENDPOINTS)("T endpoint %s", (path) => {
  it("refuses a request without a key", async () => {
    const res = await call(`${TAX}${path}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, msg: "X-API-Key header required", data: null });
  });

  it("refuses a wrong secret", async () => {
    const key = await createTestKey();
    const res = await getWithSecret(`${TAX}${path}`, { token: key.token, secret: "svc_ss_wrong" });
    expect(res.status).toBe(401);
  });

  it("refuses a key limited to other scopes", async () => {
    const key = await createTestKey({ scopes: ["ai:*"] });
    expect((await getWithSecret(`${TAX}${path}`, key)).status).toBe(403);
  });

  it("answers a key with the taxrate scope", async () => {
    const key = await createTestKey({ scopes: ["taxrate:read"] });
    expect((await getWithSecret(`${TAX}${path}`, key)).status).toBe(200);
  });
});
