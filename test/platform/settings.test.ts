import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import worker from "../../src/index";
import type { Bindings } from "../../src/platform/env";

const app = createApp(GROUPS, FALLBACK_SURFACES);

/** A fresh env object: the settings are checked once per env, as once per isolate in production. */
const request = (path: string, overrides: Record<string, unknown>) =>
  app.request(`https://gateway.test${path}`, {}, { ...env, ...overrides }, createExecutionContext());

describe("API8, API7 · settings checked before any request is answered", () => {
  it.each([
    ["RATE_LIMITS", "{not json"],
    ["RATE_LIMITS", JSON.stringify({ perMinute: { free: -1 } })],
    ["JOB_MAX_CHANGE_SHARE", "1.5"],
    ["JOB_MAX_CHANGE_SHARE", "0"],
    ["JOB_MAX_CHANGE_SHARE", "a quarter"],
    ["KEY_ENCRYPTION_KEY", "c2hvcnQ="],
    ["ENVIRONMENT", "staging"],
    ["EU_VAT_FEED_URL", "http://feeds.test/rates.json"],
    ["CARRIER_API_URL", "not a url"],
    ["OIDC_DISCOVERY", "yes"],
    ["JWT_SECRET", undefined],
  ])("a bad %s answers 503 naming it, in the envelope of the path", async (name, value) => {
    const data = await request("/std/api/bigdata/taxrate/types", { [name]: value });
    expect(data.status).toBe(503);
    expect(await data.json()).toEqual({ code: 503, msg: `service misconfigured: ${name}`, data: null });
    const account = await request("/api/users/me", { [name]: value });
    expect(account.status).toBe(503);
    expect(await account.json()).toEqual({ detail: `service misconfigured: ${name}` });
  });

  it("serves when every setting is well formed, optional ones absent", async () => {
    const res = await request("/health", { RATE_LIMITS: undefined, JOB_MAX_CHANGE_SHARE: "0.5", EU_VAT_FEED_URL: undefined });
    expect(res.status).toBe(200);
  });

  it.each([
    ["LIBRETRANSLATE_URL", "http://localhost:5000"],
    ["CASDOOR_ENDPOINT", "http://127.0.0.1:8000"],
    ["OPENAI_BASE_URL", "https://llm.internal/v1"],
    ["EU_VAT_FEED_URL", "https://[::ffff:a9fe:a9fe]/latest/meta-data"],
    ["CARRIER_API_URL", "https://10.0.0.7/api"],
    ["DOH_RESOLVER_URL", "https://[fd00::53]/dns-query"],
    ["HS_FEED_URL", "https://printer.local/hs.csv"],
  ])("in production, %s on a local or private host (%s) answers 503 naming it", async (name, value) => {
    const res = await request("/std/api/bigdata/taxrate/types", { ENVIRONMENT: "production", [name]: value });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 503, msg: `service misconfigured: ${name}`, data: null });
  });

  it("in development, a provider on localhost is the usual setup and is served", async () => {
    const res = await request("/health", {
      ENVIRONMENT: "development",
      LIBRETRANSLATE_URL: "http://localhost:5000",
      CASDOOR_ENDPOINT: "http://localhost:8000",
    });
    expect(res.status).toBe(200);
  });

  it("in production, public provider hosts and a browser redirect to localhost are served", async () => {
    const res = await request("/health", {
      ENVIRONMENT: "production",
      CASDOOR_ENDPOINT: "https://login.example.com",
      LIBRETRANSLATE_URL: "https://translate.example.com",
      FRONTEND_CALLBACK_URL: "http://localhost:3000/auth/callback",
    });
    expect(res.status).toBe(200);
  });

  it("leaves queue messages for a retry while the settings are wrong", async () => {
    const batch = createMessageBatch("gateway-pickups", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { taskId: 1, action: "create" } }]);
    const ctx = createExecutionContext();
    await (worker as ExportedHandler<Bindings>).queue!(batch, { ...env, KEY_ENCRYPTION_KEY: "" }, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(true);
    expect(result.explicitAcks).toEqual([]);
  });
});
