import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EXPIRY_WARNING_DAYS, KEY_CACHE_MS } from "../../src/platform/auth/api-keys";
import { accountJson, bearer, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { call, getWithSecret, secretHeaders } from "../helpers/requests";

const STANDARD_DE = "/std/api/bigdata/taxrate/country/DE/standard";
const DAY = 86_400_000;

interface Issued {
  id: number;
  token: string;
  secret: string;
  masked_token: string;
  expires_at: string | null;
  allowed_ips: string[] | null;
  previous_valid_until?: string;
}

function later(ms: number) {
  const now = Date.now();
  vi.spyOn(Date, "now").mockReturnValue(now + ms);
}
afterEach(() => vi.restoreAllMocks());

let jwt: string;
beforeAll(async () => {
  jwt = await sessionFor(await createUser({ plan: "enterprise" }));
});

async function createKey(body: Record<string, unknown>): Promise<Issued> {
  const res = await accountJson("POST", "/api/tokens", jwt, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<Issued>();
}

const roll = (id: number, body: Record<string, unknown> = {}, token = jwt) => accountJson("POST", `/api/tokens/${id}/roll`, token, body);

async function detailOf(res: Response) {
  const { detail } = await res.json<{ detail: { loc: string[]; msg: string }[] | string }>();
  return detail;
}

describe("keys that expire", () => {
  it("refuses an expiry more than 730 days ahead, naming the field", async () => {
    const res = await accountJson("POST", "/api/tokens", jwt, { name: "x", expires_at: new Date(Date.now() + 731 * DAY).toISOString() });
    expect(res.status).toBe(422);
    expect(await detailOf(res)).toEqual([{ loc: ["body", "expires_at"], msg: "must be at most 730 days ahead" }]);
  });

  it(`warns with X-API-Key-Expires within ${EXPIRY_WARNING_DAYS} days of the expiry, on data and bearer routes, and says nothing before`, async () => {
    const expiresAt = new Date(Date.now() + 30 * DAY).toISOString();
    const key = await createKey({ name: "expiring", expires_at: expiresAt });
    const far = await getWithSecret(STANDARD_DE, key);
    expect(far.status).toBe(200);
    expect(far.headers.get("X-API-Key-Expires")).toBeNull();
    later(17 * DAY);
    const near = await getWithSecret(STANDARD_DE, key);
    expect(near.status).toBe(200);
    expect(near.headers.get("X-API-Key-Expires")).toBe(expiresAt);
    expect((await call("/api/tokens", { headers: bearer(key.token) })).headers.get("X-API-Key-Expires")).toBe(expiresAt);
  });

  it("refuses the key once expired, even from the isolate's cache", async () => {
    const key = await createKey({ name: "short", expires_at: new Date(Date.now() + 5 * 60_000).toISOString() });
    expect((await getWithSecret(STANDARD_DE, key)).status).toBe(200);
    later(5 * 60_000 + 1);
    const after = await getWithSecret(STANDARD_DE, key);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ code: 401, msg: "API key has expired", data: null });
    const bearerAfter = await call("/api/tokens", { headers: bearer(key.token) });
    expect(await bearerAfter.json()).toEqual({ detail: "API key has expired" });
  });
});

describe("rolling a key", () => {
  it("gives a new token and secret; both pairs work during the overlap, then only the new one", async () => {
    const old = await createKey({ name: "rolled", scopes: ["taxrate:read"] });
    const res = await roll(old.id, { overlap_seconds: 3600 });
    expect(res.status).toBe(200);
    const rolled = await res.json<Issued>();
    expect(rolled.id).toBe(old.id);
    expect(rolled.token).toMatch(/^svc_sk_[0-9A-Za-z]{40}$/);
    expect(rolled.token).not.toBe(old.token);
    expect(rolled.secret).not.toBe(old.secret);
    expect(rolled.masked_token).not.toBe(old.masked_token);
    expect(Date.parse(rolled.previous_valid_until!) - Date.now()).toBeGreaterThan(3590_000);

    expect((await getWithSecret(STANDARD_DE, old)).status).toBe(200);
    expect((await getWithSecret(STANDARD_DE, rolled)).status).toBe(200);
    expect(old.previous_valid_until).toBeUndefined();
    // The old token goes with its own secret only: the new secret does not open the old token, nor the old secret the new one.
    expect((await getWithSecret(STANDARD_DE, { token: old.token, secret: rolled.secret })).status).toBe(401);
    expect((await getWithSecret(STANDARD_DE, { token: rolled.token, secret: old.secret })).status).toBe(401);
    const shown = await (await accountJson("GET", `/api/tokens/${old.id}`, jwt)).json<Issued>();
    expect(shown).toMatchObject({ masked_token: rolled.masked_token, previous_valid_until: rolled.previous_valid_until });

    // Cached in this isolate from the requests above: the cache must not keep the old pair past its window.
    later(3600_000 + 1);
    const after = await getWithSecret(STANDARD_DE, old);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      code: 401,
      msg: "API key has been rolled: this token stopped working when its overlap ended; use the new one",
      data: null,
    });
    expect((await call("/api/tokens", { headers: bearer(old.token) })).status).toBe(401);
    expect((await getWithSecret(STANDARD_DE, rolled)).status).toBe(200);
  });

  it("warns with X-API-Key-Expires on the old token during the overlap", async () => {
    const old = await createKey({ name: "warned" });
    const rolled = await (await roll(old.id, { overlap_seconds: 600 })).json<Issued>();
    const res = await getWithSecret(STANDARD_DE, old);
    expect(res.headers.get("X-API-Key-Expires")).toBe(rolled.previous_valid_until);
    expect((await getWithSecret(STANDARD_DE, rolled)).headers.get("X-API-Key-Expires")).toBeNull();
  });

  it("is refused by the old token in another isolate once the window ends (the cache holds a row for 10 s only)", async () => {
    const old = await createKey({ name: "elsewhere" });
    expect((await getWithSecret(STANDARD_DE, old)).status).toBe(200);
    // Another isolate rolls it: this isolate's cached row still says the old token is the current one.
    const rolled = await (await roll(old.id, { overlap_seconds: 60 })).json<Issued>();
    expect(KEY_CACHE_MS).toBeLessThan(60_000);
    later(60_001);
    expect((await getWithSecret(STANDARD_DE, old)).status).toBe(401);
    expect((await getWithSecret(STANDARD_DE, rolled)).status).toBe(200);
  });

  it("defaults to a day's overlap, and a second roll stops the first pair at once", async () => {
    const first = await createKey({ name: "twice" });
    const second = await (await roll(first.id)).json<Issued>();
    expect(Math.abs(Date.parse(second.previous_valid_until!) - Date.now() - DAY)).toBeLessThan(60_000);
    const third = await (await roll(first.id, { overlap_seconds: 60 })).json<Issued>();
    expect((await getWithSecret(STANDARD_DE, first)).status).toBe(401);
    expect((await getWithSecret(STANDARD_DE, second)).status).toBe(200);
    expect((await getWithSecret(STANDARD_DE, third)).status).toBe(200);
  });

  it("never ends the overlap after the key's own expiry", async () => {
    const expiresAt = new Date(Date.now() + 120_000).toISOString();
    const key = await createKey({ name: "ending", expires_at: expiresAt });
    const rolled = await (await roll(key.id, { overlap_seconds: 3600 })).json<Issued>();
    expect(rolled.previous_valid_until).toBe(expiresAt);
    expect(rolled.expires_at).toBe(expiresAt);
  });

  it.each([
    ["an overlap too long", { overlap_seconds: 7 * 86_400 + 1 }, "must be at most 604800 seconds (7 days)"],
    ["an overlap too short", { overlap_seconds: 59 }, "must be at least 60 seconds; revoke the key to stop it at once"],
    ["an overlap that is no number", { overlap_seconds: "1h" }, "must be a number of seconds"],
    ["an unknown field", { overlap: 60 }, expect.any(String)],
  ])("answers 422 for %s", async (_, body, msg) => {
    const key = await createKey({ name: "bad roll" });
    const res = await roll(key.id, body);
    expect(res.status).toBe(422);
    expect((await detailOf(res))[0]).toMatchObject({ msg });
  });

  it("hides another account's key (404), and refuses a revoked or expired key (409) and a key with fewer scopes (403)", async () => {
    const theirs = await createTestKey();
    expect(await detailOf(await roll(theirs.keyId))).toBe("Not found");
    expect((await getWithSecret(STANDARD_DE, theirs)).status).toBe(200);

    const revoked = await createKey({ name: "revoked" });
    await accountJson("DELETE", `/api/tokens/${revoked.id}`, jwt);
    const refused = await roll(revoked.id);
    expect(refused.status).toBe(409);
    expect(await detailOf(refused)).toBe("A revoked key cannot be rolled; create a new key");

    const expiring = await createKey({ name: "expired", expires_at: new Date(Date.now() + 60_000).toISOString() });
    later(60_001);
    expect(await detailOf(await roll(expiring.id))).toBe("An expired key cannot be rolled; create a new key");
    vi.restoreAllMocks();

    const wide = await createKey({ name: "wide" });
    const narrow = await createKey({ name: "narrow", scopes: ["tokens:*"] });
    const escalation = await roll(wide.id, {}, narrow.token);
    expect(escalation.status).toBe(403);
    const readOnly = await createKey({ name: "reader", scopes: ["tokens:read"] });
    expect((await roll(readOnly.id, {}, readOnly.token)).status).toBe(403);
  });

  it("keeps only the hash of the new token and the secret sealed", async () => {
    const key = await createKey({ name: "sealed" });
    const rolled = await (await roll(key.id)).json<Issued>();
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(key.id).first();
    const stored = JSON.stringify(row);
    for (const clear of [key.token, key.secret, rolled.token, rolled.secret]) expect(stored).not.toContain(clear);
  });
});

describe("keys limited to IP ranges", () => {
  const from = (key: Issued, address?: string) =>
    call(STANDARD_DE, { headers: { ...secretHeaders(key), ...(address ? { "CF-Connecting-IP": address } : {}) } });

  it("work from inside the ranges only, IPv4 and IPv6, and are refused where the address is unknown", async () => {
    const key = await createKey({ name: "office", allowed_ips: ["203.0.113.0/24", "2001:db8:abcd::/48", "198.51.100.7"] });
    expect(key.allowed_ips).toEqual(["203.0.113.0/24", "2001:db8:abcd::/48", "198.51.100.7"]);
    for (const inside of ["203.0.113.9", "2001:db8:abcd:12::1", "198.51.100.7", "::ffff:203.0.113.200"]) {
      expect((await from(key, inside)).status, inside).toBe(200);
    }
    for (const outside of ["203.0.114.1", "2001:db8:abce::1", "198.51.100.8", undefined]) {
      const res = await from(key, outside);
      expect(res.status, outside).toBe(403);
      expect(await res.json()).toEqual({ code: 403, msg: "This API key may not be used from this IP address", data: null });
    }
    const bearerOutside = await call("/api/tokens", { headers: { ...bearer(key.token), "CF-Connecting-IP": "192.0.2.1" } });
    expect(bearerOutside.status).toBe(403);
    expect(await bearerOutside.json()).toEqual({ detail: "This API key may not be used from this IP address" });
    expect((await accountJson("GET", `/api/tokens/${key.id}`, jwt)).ok).toBe(true);
  });

  it("keep their ranges through a roll", async () => {
    const key = await createKey({ name: "office roll", allowed_ips: ["203.0.113.0/24"] });
    const rolled = await (await roll(key.id)).json<Issued>();
    expect(rolled.allowed_ips).toEqual(["203.0.113.0/24"]);
    expect((await from(rolled, "192.0.2.1")).status).toBe(403);
  });

  it.each([
    ["a range that is no range", ["10.0.0.0/33"], ["body", "allowed_ips", "0"]],
    ["an address that is no address", ["example.com"], ["body", "allowed_ips", "0"]],
    ["a prefix with a sign", ["10.0.0.0/+8"], ["body", "allowed_ips", "0"]],
    ["an empty list", [], ["body", "allowed_ips"]],
    ["too many ranges", Array.from({ length: 21 }, (_, i) => `10.0.${i}.0/24`), ["body", "allowed_ips"]],
  ])("answers 422 for %s", async (_, ranges, loc) => {
    const res = await accountJson("POST", "/api/tokens", jwt, { name: "x", allowed_ips: ranges });
    expect(res.status).toBe(422);
    expect((await detailOf(res))[0]).toMatchObject({ loc });
  });
});
