import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import { accessRuleFinder } from "../../src/platform/auth/access-policy";
import { database } from "../../src/platform/database";
import { pickupTasks } from "../../src/pickup/schema";
import { accountJson, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { createTestApp, pickup } from "../helpers/pickups";
import { type Credentials, expectRefused, type Route, securityCredentials, wrongCredentials } from "../helpers/security";

const ruleFor = accessRuleFinder(GROUPS.flatMap((g) => g.access));

/** Every route the service registers, once (Hono lists a route's middleware and validators beside its handler), with the rule that guards it. */
const ROUTES: Route[] = [...new Map(createApp(GROUPS, FALLBACK_SURFACES).routes.map((r) => [`${r.method} ${r.path}`, r])).values()]
  .filter((r) => r.method !== "ALL")
  .map((r) => {
    const path = r.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "1");
    return { method: r.method, path, rule: ruleFor(path)! };
  })
  .filter((r) => r.rule.credential !== "public");

let creds: Credentials;
beforeAll(async () => {
  creds = await securityCredentials();
});

describe("API2, API5 · every guarded route refuses every wrong credential", () => {
  it("guards more than fifty routes", () => {
    expect(ROUTES.length).toBeGreaterThan(50);
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))("%s", async (_name, route) => {
    const attempts = await wrongCredentials(route.rule, creds);
    expect(attempts.length).toBeGreaterThanOrEqual(6);
    for (const attempt of attempts) await expectRefused(route, attempt);
  });
});

describe("API1 · another owner's object is not found", () => {
  it("an API key of another user", async () => {
    const owner = await createTestKey();
    const other = await sessionFor(await createUser());
    for (const method of ["GET", "DELETE"]) {
      const res = await accountJson(method, `/api/tokens/${owner.keyId}`, other);
      expect(res.status, method).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found" });
    }
  });

  it("a pickup task of another app", async () => {
    const [mine, theirs] = [await createTestApp(), await createTestApp()];
    // Stored directly, as failed: no carrier call or webhook is set off in the shared test runtime.
    const address = { postal_code: "10115", country_code: "DE", city: "Berlin", address_1: "Invalidenstr. 1" };
    const window = { start_date: "2026-12-01", start_time: "09:00", end_date: "2026-12-01", end_time: "12:00" };
    const now = new Date().toISOString();
    const [task] = await database(env)
      .insert(pickupTasks)
      .values({
        appId: theirs.appId,
        requestId: `theirs-${now}`,
        referenceOrderNumber: `THEIRS-${now}`,
        serviceCode: "sandbox",
        authorizeId: "a",
        senderAddress: address,
        loadingAddress: address,
        consigneeAddress: address,
        loadingTime: window,
        deliveryTime: window,
        itemLines: [],
        webhookUrl: "https://receiver.test/hooks",
        signString: "s",
        process: "failed",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    for (const path of ["/pickup/re-send", "/pickup/re-create", "/pickup/authorize/refresh"]) {
      const res = await pickup(path, mine, { taskId: task!.id });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ code: 404, msg: "the task id is not exist", data: null });
    }
    const listed = await pickup("/pickup/list", mine, { pageNumber: 1, pageSize: 100 });
    expect((await listed.json<{ data: { data: { id: number }[] } }>()).data.data.map((t) => t.id)).not.toContain(task!.id);
  });
});
