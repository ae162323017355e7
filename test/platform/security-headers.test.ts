import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { accountJson, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { call, getWithSecret } from "../helpers/requests";

describe("API8 · headers every answer carries", () => {
  it("JSON answers, errors included, are never content-sniffed", async () => {
    const key = await createTestKey();
    for (const res of [await getWithSecret("/std/api/bigdata/taxrate/types", key), await call("/std/nothing"), await call("/api/users/me")]) {
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("the docs page loads from its own origin only and is never framed", async () => {
    const res = await call("/docs");
    const policy = res.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("an answer holding a new secret is never stored by a cache", async () => {
    const session = await sessionFor(await createUser());
    const created = await accountJson("POST", "/api/tokens", session, { name: "ci" });
    expect(created.status).toBe(201);
    expect(created.headers.get("Cache-Control")).toBe("no-store");
    const app = await accountJson("POST", "/api/apps", session, { name: "warehouse" });
    expect(app.status).toBe(201);
    expect(app.headers.get("Cache-Control")).toBe("no-store");
  });

  it("sends HSTS in production only", async () => {
    const app = createApp(GROUPS, FALLBACK_SURFACES);
    const inProduction = await app.request("https://gateway.test/health", {}, { ...env, ENVIRONMENT: "production" }, createExecutionContext());
    expect(inProduction.headers.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect((await call("/health")).headers.get("Strict-Transport-Security")).toBeNull();
  });

  it("a static asset the Worker fetched, whose headers cannot change, carries them too", async () => {
    const asset = await call("/docs/reference.css");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(asset.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives each answer its own request id, a kept answer's too", async () => {
    const key = await createTestKey();
    const [first, second] = [await getWithSecret("/std/api/bigdata/taxrate/types", key), await getWithSecret("/std/api/bigdata/taxrate/types", key)];
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    const mine = await call("/health", { headers: { "X-Request-Id": "trace-1" } });
    expect(mine.headers.get("X-Request-Id")).toBe("trace-1");
    expect((await call("/health")).headers.get("X-Request-Id")).not.toBe("trace-1");
  });
});
