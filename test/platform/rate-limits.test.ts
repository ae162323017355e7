import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../src/platform/auth/api-keys";
import { database } from "../../src/platform/database";
import { GROUPS } from "../../src/groups";
import { consumeRateLimit, DEFAULT_PER_MINUTE, rateLimits } from "../../src/platform/rate-limit";
import { bearer, createUser, sessionFor, uniqueTag } from "../helpers/accounts";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { callAi } from "../helpers/intelligence";
import { call, getWithSecret } from "../helpers/requests";

const TYPES = "/std/api/bigdata/taxrate/types";
const COUNTRIES = "/std/open/country/list";
const MINUTE_START = Date.parse("2031-03-01T10:00:00Z");

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(MINUTE_START + 10_000);
});
afterEach(() => vi.useRealTimers());

async function spend(key: TestKey, path: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await getWithSecret(path, key);
    if (res.status !== 200) throw new Error(`request ${i + 1} answered ${res.status}`);
  }
}

describe("API4 · per-minute limits by plan", () => {
  it("counts every one of the requests that open a window together: a burst gets no more than the limit", async () => {
    const windows = [{ name: "minute" as const, seconds: 60, limit: 5 }];
    const kept: Promise<unknown>[] = [];
    const subject = `burst:${uniqueTag()}`;
    const decisions = await Promise.all(Array.from({ length: 8 }, () => consumeRateLimit(env.KV, (work) => kept.push(work), subject, windows)));
    await Promise.all(kept);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false, false]);
  });

  it("lets a free key make 60 requests a minute, then answers 429 until the next minute", async () => {
    const key = await createTestKey({ plan: "free" });
    const first = await getWithSecret(TYPES, key);
    expect(first.headers.get("RateLimit-Policy")).toBe('"minute";q=60;w=60');
    expect(first.headers.get("RateLimit")).toBe('"minute";r=59;t=50');
    await spend(key, TYPES, 59);

    const refused = await getWithSecret(TYPES, key);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ code: 429, msg: "Rate limit exceeded for the free plan; retry after 50 s", data: null });
    expect(refused.headers.get("Retry-After")).toBe("50");
    expect(refused.headers.get("RateLimit")).toBe('"minute";r=0;t=50');

    vi.setSystemTime(MINUTE_START + 60_000);
    const next = await getWithSecret(TYPES, key);
    expect(next.status).toBe(200);
    expect(next.headers.get("RateLimit")).toBe('"minute";r=59;t=60');
  });

  it.each([
    ["basic", 300],
    ["enterprise", 1000],
  ] as const)("gives the %s plan %i a minute", async (plan, limit) => {
    const key = await createTestKey({ plan });
    expect((await getWithSecret(TYPES, key)).headers.get("RateLimit-Policy")).toBe(`"minute";q=${limit};w=60`);
  });

  it("does not limit the internal plan", async () => {
    const key = await createTestKey({ plan: "internal" });
    const res = await getWithSecret(TYPES, key);
    expect(res.headers.get("RateLimit-Policy")).toBeNull();
    expect(res.headers.get("RateLimit")).toBeNull();
  });

  it("counts a user's keys together: a second key buys no more requests", async () => {
    const first = await createTestKey({ plan: "free" });
    const second = await issueApiKey(database(env), env.KEY_ENCRYPTION_KEY, { userId: first.userId, name: "second", plan: "free" });
    await spend(first, TYPES, 40);
    await spend({ ...first, token: second.token, secret: second.secret }, TYPES, 20);
    const refused = await getWithSecret(TYPES, { token: second.token, secret: second.secret });
    expect(refused.status).toBe(429);
    expect((await getWithSecret(TYPES, first)).status).toBe(429);
  });

  it("counts what other isolates flushed to KV", async () => {
    const key = await createTestKey({ plan: "free" });
    await env.KV.put(`rl:user:${key.userId}:free:minute:${MINUTE_START + 60_000}`, "58");
    await spend(key, TYPES, 2);
    expect((await getWithSecret(TYPES, key)).status).toBe(429);
  });

  it("flushes its own count to KV", async () => {
    const key = await createTestKey({ plan: "free" });
    await spend(key, TYPES, 3);
    const counter = `rl:user:${key.userId}:free:minute:${MINUTE_START + 60_000}`;
    let stored: string | null = null;
    for (let i = 0; i < 40 && stored === null; i++) {
      stored = await env.KV.get(counter);
      if (stored === null) await new Promise((r) => setTimeout(r, 25));
    }
    expect(Number(stored)).toBeGreaterThanOrEqual(1);
  });

  it("limits a web session per user, in the account envelope", async () => {
    const user = await createUser();
    const jwt = await sessionFor(user);
    for (let i = 0; i < 60; i++) expect((await call("/api/users/me", { headers: bearer(jwt) })).status).toBe(200);
    const refused = await call("/api/users/me", { headers: bearer(jwt) });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ detail: "Rate limit exceeded for the free plan; retry after 50 s" });
  });
});

describe("API4 · per-hour limits by endpoint group", () => {
  it("applies the O hourly limit next to the plan's minute limit, and resets it the next hour", async () => {
    const key = await createTestKey({ plan: "enterprise" });
    const first = await getWithSecret(COUNTRIES, key);
    expect(first.headers.get("RateLimit-Policy")).toBe('"minute";q=1000;w=60, "hour";q=5;w=3600');
    expect(first.headers.get("RateLimit")).toBe('"hour";r=4;t=3590');
    await spend(key, COUNTRIES, 4);

    const refused = await getWithSecret(COUNTRIES, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("3590");

    expect((await getWithSecret(TYPES, key)).status).toBe(200);

    vi.setSystemTime(MINUTE_START + 3_600_000);
    expect((await getWithSecret(COUNTRIES, key)).status).toBe(200);
  });

  it("counts each group's hour apart: O's calls spend none of group I's, nor I2's any of I1's", async () => {
    const key = await createTestKey({ plan: "enterprise", scopes: ["reference:read", "ai:read"] });
    await spend(key, COUNTRIES, 5);
    expect((await getWithSecret(COUNTRIES, key)).status).toBe(429);
    const detected = await callAi("/language/detect", { text: "Guten Morgen, wie geht es dir?" }, key);
    expect(detected.status).toBe(200);
    expect(detected.headers.get("RateLimit-Policy")).toBe('"minute";q=1000;w=60, "hour";q=10000;w=3600');
    const translated = await callAi("/translate/document", { documentBase64: "SGVsbG8=", fileType: "txt", targetLang: "de" }, key);
    expect(translated.headers.get("RateLimit")).toBe('"hour";r=49;t=3590');
  });

  it("does not apply to the internal plan", async () => {
    const key = await createTestKey({ plan: "internal" });
    await spend(key, COUNTRIES, 7);
  });
});

describe("configuration", () => {
  const declared = Object.fromEntries(GROUPS.flatMap((g) => Object.entries(g.hourlyLimits ?? {})));

  it("defaults to the interface's figures, the hourly ones as the groups declare them", () => {
    expect(rateLimits({}, declared)).toEqual({ perMinute: DEFAULT_PER_MINUTE, perHour: declared });
    expect(rateLimits({}, declared)).toEqual({
      perMinute: { free: 60, basic: 300, enterprise: 1000, internal: null },
      // The interface's figures, and group C's skills (docs/content.md says why these).
      perHour: { reference: 1000, ai: 10_000, "ai-translate": 50, "ai-qrcode": 500, "content-article": 20, "content-skills": 500 },
    });
  });

  it("takes overrides from RATE_LIMITS and keeps the rest", () => {
    const limits = rateLimits({ RATE_LIMITS: JSON.stringify({ perMinute: { free: 10 } }) }, declared);
    expect(limits.perMinute).toEqual({ free: 10, basic: 300, enterprise: 1000, internal: null });
    expect(limits.perHour.reference).toBe(1000);
  });

  it("refuses a malformed override instead of running without limits", () => {
    expect(() => rateLimits({ RATE_LIMITS: JSON.stringify({ perMinute: { free: -1 } }) }, declared)).toThrow();
  });
});
