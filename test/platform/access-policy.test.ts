import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { accessRuleFinder } from "../../src/platform/auth/access-policy";
import type { GroupModule } from "../../src/platform/group";
import { createRouter } from "../../src/platform/openapi";
import { service } from "../../src/service";

// The sites' media are public by design: their keys are random (docs/content.md). The console's
// page and files hold no data (docs/console.md).
const PUBLIC = [
  "/health",
  "/openapi.json",
  "/docs",
  "/docs/",
  "/docs/*",
  "/auth/login",
  "/auth/callback",
  "/auth/refresh",
  "/media/1/1/1",
  "/admin/*",
  "/admin/assets/*",
  // Group D: WeChat's pushes (signed), the owner's redirect (bound to the link's state), the code images (random keys).
  "/wechat/component/events",
  "/wechat/miniprogram/events/1",
  "/wechat/authorized/1/1",
  "/deposits/codes/1/1",
];
const ruleFor = accessRuleFinder(GROUPS.flatMap((g) => g.access));

/** Hono's pattern of a registered route, written as a request path (`:id` → `1`). */
const concrete = (pattern: string) => pattern.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "1");

describe("API5 · access policy", () => {
  it("covers every registered route, and only the expected ones are public", () => {
    const routes = createApp(GROUPS, FALLBACK_SURFACES).routes.filter((r) => r.method !== "ALL");
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) expect(ruleFor(concrete(route.path)), `${route.method} ${route.path}`).toBeDefined();
    const publicPaths = new Set(routes.map((r) => concrete(r.path)).filter((path) => ruleFor(path)!.credential === "public"));
    expect([...publicPaths].sort()).toEqual([...PUBLIC].sort());
  });

  it("gives an MCP endpoint its own rule, and the REST paths below it theirs", () => {
    expect(ruleFor("/api/mcp")).toMatchObject({ exact: true, credential: "tenant-key" });
    expect(ruleFor("/api/mcp")?.resource).toBeUndefined();
    expect(ruleFor("/api/mcp/contents")).toMatchObject({ credential: "tenant-key", resource: "content" });
    expect(ruleFor("/api/mcp/contents")?.exact).toBeUndefined();
    expect(ruleFor("/std/mcp")).toMatchObject({ exact: true, credential: "data-key-secret" });
    expect(ruleFor("/std/mcp/x")).toBeUndefined();
  });

  it("matches whole path segments only", () => {
    expect(ruleFor("/api/tokens/5")?.resource).toBe("tokens");
    expect(ruleFor("/api/tokensx")).toBeUndefined();
    expect(ruleFor("/healthz")).toBeUndefined();
  });

  it("closes a route that a group forgot to give a rule: 401, never the handler", async () => {
    const careless: GroupModule = {
      name: "careless",
      title: "a group without rules",
      surfaces: [{ prefix: "/careless", envelope: "tenant" }],
      access: [],
      mount: "/careless",
      router: () => {
        const router = createRouter();
        router.get("/secret", (c) => c.json({ leaked: true }));
        return router;
      },
    };
    const app = createApp([service, careless]);
    const res = await app.request("https://gateway.test/careless/secret", {}, env, createExecutionContext());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: { code: "unauthorized", message: "Authentication required" } });
    expect((await app.request("https://gateway.test/health", {}, env, createExecutionContext())).status).toBe(200);
  });

  it("refuses to build when a rule names a credential no group brings", () => {
    const confused: GroupModule = { ...service, name: "confused", access: [{ prefix: "/confused", credential: "tenant-key" }] };
    expect(() => createApp([service, confused])).toThrow("access rules name unknown credentials: /confused → tenant-key");
  });
});
