import { afterEach, describe, expect, it, vi } from "vitest";
import { createTenant } from "../../src/content/admin/tenants";
import { contentSettings } from "../../src/content/settings";
import { DEFAULT_CONSOLE_REQUESTS_PER_MINUTE } from "../../src/content/tenancy/member-session";
import { database } from "../../src/platform/database";
import { env } from "cloudflare:test";
import { admin, createTestTenant } from "../helpers/content";
import { freezeClockEarlyInMinute } from "../helpers/requests";

afterEach(() => vi.useRealTimers());

/** `count` admin calls at once, by tens, as a console clicked through briskly makes them; their statuses. */
async function burst(count: number, path: string, session: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let done = 0; done < count; done += 10) {
    const batch = Array.from({ length: Math.min(10, count - done) }, () => admin("GET", path, session));
    statuses.push(...(await Promise.all(batch)).map((res) => res.status));
  }
  return statuses;
}

describe("API4 · the console is limited as a person, not by the plan of API keys", () => {
  it("answers a free-plan member past the plan's 60 a minute: a person clicking is never stopped", async () => {
    freezeClockEarlyInMinute();
    const tenant = await createTestTenant({ plan: "free" });
    const statuses = await burst(100, `/tenants/${tenant.tenantId}/sites`, tenant.session);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("sizes the limit for people: 600 a minute by default, never below 60", () => {
    expect(DEFAULT_CONSOLE_REQUESTS_PER_MINUTE).toBe(600);
    expect(contentSettings.safeParse({ CONSOLE_REQUESTS_PER_MINUTE: "59" }).error?.issues[0]?.message).toBe(
      "must be at least 60, or the console locks people out",
    );
  });

  it("refuses a script holding a session past the people's limit, in words that name no plan, per tenant", async () => {
    freezeClockEarlyInMinute();
    const tenant = await createTestTenant({ plan: "free" });
    const other = await createTenant(database(env), tenant.ownerId, { name: "Second desk", slug: `second-${tenant.tenantId}` });
    // The pool sets CONSOLE_REQUESTS_PER_MINUTE to 120 (vitest.config.ts).
    const statuses = await burst(120, `/tenants/${tenant.tenantId}/sites`, tenant.session);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const refused = await admin("GET", `/tenants/${tenant.tenantId}/sites`, tenant.session);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const { error } = await refused.json<{ error: { message: string } }>();
    expect(error.message).toMatch(/^Too many requests from this session in a minute; the console retries by itself after \d+ s$/);
    expect(error.message).not.toMatch(/plan/);

    // The same person in another tenant, and the session itself, go on.
    expect((await admin("GET", `/tenants/${other.id}/sites`, tenant.session)).status).toBe(200);
    expect((await admin("GET", "/session", tenant.session)).status).toBe(200);
  });
});
