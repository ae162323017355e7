import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestKey } from "../helpers/credentials";
import { call, freezeClockEarlyInMinute, secretHeaders, signedHeaders } from "../helpers/requests";

const PATH = "/std/api/bigdata/taxrate/types";
const get = (headers: Record<string, string>) => call(PATH, { headers });
const randomAddress = () => `192.0.2.${Math.floor(Math.random() * 250) + 1}`;

async function expectThrottled(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
  expect(await res.json()).toMatchObject({
    code: 429,
    msg: expect.stringMatching(/^Too many failed authentications; retry after \d+ s$/),
    data: null,
  });
}

afterEach(() => vi.useRealTimers());

describe("API2 · failed authentications are throttled", () => {
  it("stops a key after 10 wrong secrets in a minute, before its secret is compared", async () => {
    freezeClockEarlyInMinute();
    const key = await createTestKey();
    for (let i = 0; i < 10; i++) expect((await get({ ...secretHeaders(key), "X-API-Secret": `svc_ss_guess${i}` })).status).toBe(401);
    // Even the right secret is not looked at now: a guesser learns nothing more this minute.
    await expectThrottled(await get(secretHeaders(key)));
    expect((await get(secretHeaders(await createTestKey()))).status).toBe(200);
  });

  it("counts wrong signatures as failures too", async () => {
    freezeClockEarlyInMinute();
    const key = await createTestKey();
    for (let i = 0; i < 10; i++) {
      const headers = await signedHeaders(key);
      expect((await get({ ...headers, "X-Signature": "0".repeat(64) })).status).toBe(401);
    }
    await expectThrottled(await get(await signedHeaders(key)));
  });

  it("stops an address after 30 failures in a minute, whichever keys it tries", async () => {
    freezeClockEarlyInMinute();
    const address = randomAddress();
    const good = await createTestKey();
    for (let i = 0; i < 30; i++) {
      const res = await get({ "X-API-Key": `svc_sk_unknown${i}`, "X-API-Secret": "svc_ss_x", "CF-Connecting-IP": address });
      expect(res.status).toBe(401);
    }
    await expectThrottled(await get({ ...secretHeaders(good), "CF-Connecting-IP": address }));
    expect((await get({ ...secretHeaders(good), "CF-Connecting-IP": "198.51.100.99" })).status).toBe(200);
    expect((await get({ ...secretHeaders(good), "CF-Connecting-IP": "x".repeat(2000) })).status).toBe(200);
  });
});
