import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { scopeSchema } from "../../src/accounts/schema";
import { z } from "zod";
import { createApp } from "../../src/app";
import type { GroupModule } from "../../src/platform/group";
import { createRouter } from "../../src/platform/openapi";
import { settingsOf } from "../../src/platform/settings";
import { service } from "../../src/service";
import { bearer } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";

const notesSettings = z.object({ NOTES_PAGE_SIZE: z.coerce.number().int().min(1, { error: "must be at least 1" }).optional() });

/** A group no platform file knows of: what it declares is all the service learns of it. */
const notes: GroupModule = {
  name: "notes",
  title: "N notes",
  surfaces: [{ prefix: "/api/notes", envelope: "tenant" }],
  scopes: ["notes"],
  access: [{ prefix: "/api/notes", credential: "bearer", resource: "notes", hourly: "notes" }],
  hourlyLimits: { notes: 2 },
  securitySchemes: { NotesKey: { type: "apiKey", in: "header", name: "X-Notes-Key", description: "a notes key" } },
  settings: notesSettings,
  mount: "/api/notes",
  router: () => {
    const router = createRouter();
    router.get("/", (c) => c.json({ success: true, data: [] }));
    router.get("/page-size", (c) => c.json({ success: true, data: settingsOf(c.env, notesSettings).NOTES_PAGE_SIZE ?? 20 }));
    return router;
  },
};

const app = createApp([service, notes]);
const get = (path: string, token: string, overrides: Record<string, unknown> = {}) =>
  app.request(`https://gateway.test${path}`, { headers: bearer(token) }, { ...env, ...overrides }, createExecutionContext());

describe("a group declares itself", () => {
  it("its hourly limit applies to the routes its rules name", async () => {
    const key = await createTestKey({ plan: "free" });
    for (let i = 0; i < 2; i++) expect((await get("/api/notes", key.token)).status).toBe(200);
    const spent = await get("/api/notes", key.token);
    expect(spent.status).toBe(429);
    expect(spent.headers.get("RateLimit-Policy")).toContain('"hour";q=2;w=3600');
  });

  it("its scope resource guards its routes, and keys may be granted it", async () => {
    expect((await get("/api/notes", (await createTestKey({ scopes: ["notes:read"] })).token)).status).toBe(200);
    const refused = await get("/api/notes", (await createTestKey({ scopes: ["content:read"] })).token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      success: false,
      error: { code: "forbidden", message: "Insufficient permission: requires scope notes:read" },
    });
    expect(scopeSchema.safeParse("notes:write").success).toBe(true);
    expect(scopeSchema.safeParse("payroll:write").error?.issues[0]?.message).toMatch(/^must be <resource>:<action> with resource one of .*\bnotes\b/);
  });

  it("its security scheme is in the API document, beside the platform's", async () => {
    const doc = await (
      await app.request("https://gateway.test/openapi.json", {}, env, createExecutionContext())
    ).json<{
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(doc.components.securitySchemes.NotesKey).toEqual({ type: "apiKey", in: "header", name: "X-Notes-Key", description: "a notes key" });
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(["DataKey", "Bearer"]));
  });

  it("its settings are checked before any request and read, parsed, from one parse per env", async () => {
    const key = await createTestKey();
    expect(await (await get("/api/notes/page-size", key.token, { NOTES_PAGE_SIZE: "7" })).json()).toEqual({ success: true, data: 7 });
    expect(await (await get("/api/notes/page-size", key.token)).json()).toEqual({ success: true, data: 20 });
    const bad = await get("/api/notes/page-size", key.token, { NOTES_PAGE_SIZE: "0" });
    expect(bad.status).toBe(503);
    expect(await bad.json()).toEqual({ success: false, error: { code: "unavailable", message: "service misconfigured: NOTES_PAGE_SIZE" } });
    const configured = { ...env, NOTES_PAGE_SIZE: "9" };
    expect(settingsOf(configured, notesSettings)).toBe(settingsOf(configured, notesSettings));
  });

  it("refuses to build when a rule names a scope resource no group declares", () => {
    const careless: GroupModule = { ...notes, scopes: undefined };
    expect(() => createApp([service, careless])).toThrow("access rules name undeclared scope resources: /api/notes → notes");
  });

  it("refuses to build when a rule names an hourly limit no group declares", () => {
    const careless: GroupModule = { ...notes, hourlyLimits: undefined };
    expect(() => createApp([service, careless])).toThrow("access rules name undeclared hourly limits: /api/notes → notes");
  });
});
