import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { GroupModule } from "../../src/platform/group";
import { createRouter } from "../../src/platform/openapi";
import { service } from "../../src/service";
import { bearer } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";

/** A group no platform file knows of: what it declares is all the service learns of it. */
const notes: GroupModule = {
  name: "notes",
  title: "N notes",
  surfaces: [{ prefix: "/api/notes", envelope: "tenant" }],
  access: [{ prefix: "/api/notes", credential: "bearer", hourly: "notes" }],
  hourlyLimits: { notes: 2 },
  mount: "/api/notes",
  router: () => {
    const router = createRouter();
    router.get("/", (c) => c.json({ success: true, data: [] }));
    return router;
  },
};

const app = createApp([service, notes]);
const get = (path: string, token: string) => app.request(`https://gateway.test${path}`, { headers: bearer(token) }, env, createExecutionContext());

describe("a group declares itself", () => {
  it("its hourly limit applies to the routes its rules name", async () => {
    const key = await createTestKey({ plan: "free" });
    for (let i = 0; i < 2; i++) expect((await get("/api/notes", key.token)).status).toBe(200);
    const spent = await get("/api/notes", key.token);
    expect(spent.status).toBe(429);
    expect(spent.headers.get("RateLimit-Policy")).toContain('"hour";q=2;w=3600');
  });

  it("refuses to build when a rule names an hourly limit no group declares", () => {
    const careless: GroupModule = { ...notes, hourlyLimits: undefined };
    expect(() => createApp([service, careless])).toThrow("access rules name undeclared hourly limits: /api/notes → notes");
  });
});
