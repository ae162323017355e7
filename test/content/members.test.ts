import { beforeAll, describe, expect, it } from "vitest";
import { admin, createTestTenant, installDefaultTheme, memberWith, seedContent, sitePage, type TestTenant, siteSlug } from "../helpers/content";
import { createUser, sessionFor } from "../helpers/accounts";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
const send = async <T = unknown>(tenant: TestTenant, method: string, path: string, session: string, body?: unknown) => {
  const res = await admin(method, `/tenants/${tenant.tenantId}${path}`, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
};
const LAST_OWNER = "A tenant needs at least one owner: make another member owner first";

let tenant: TestTenant;
let ownerEmail: string;
beforeAll(async () => {
  tenant = await createTestTenant();
  const members = await send<{ userId: number; email: string }[]>(tenant, "GET", "/members", tenant.session);
  ownerEmail = members.body.data.find((m) => m.userId === tenant.ownerId)!.email;
});

describe("API5 · members: a tenant always keeps an owner", () => {
  it("refuses the only owner demoting themself, and removing themself", async () => {
    const demoted = await send(tenant, "PUT", "/members", tenant.session, { email: ownerEmail, role: "editor" });
    expect(demoted.status).toBe(409);
    expect(demoted.body.error!.message).toBe(LAST_OWNER);
    const removed = await send(tenant, "DELETE", `/members/${tenant.ownerId}`, tenant.session);
    expect(removed.status).toBe(409);
    expect((await send(tenant, "GET", "/members", tenant.session)).body.data).toContainEqual(
      expect.objectContaining({ userId: tenant.ownerId, role: "owner" }),
    );
  });

  it("lets an owner step down once another member is owner", async () => {
    const other = await createTestTenant();
    const second = await createUser();
    expect((await send(other, "PUT", "/members", other.session, { email: second.email, role: "owner" })).status).toBe(200);
    const secondSession = await sessionFor(second);
    const firstEmail = (await send<{ userId: number; email: string }[]>(other, "GET", "/members", other.session)).body.data.find(
      (m) => m.userId === other.ownerId,
    )!.email;
    expect((await send(other, "PUT", "/members", secondSession, { email: firstEmail, role: "viewer" })).status).toBe(200);
    // Now the second is the only owner: their own demotion is refused.
    expect((await send(other, "PUT", "/members", secondSession, { email: second.email, role: "viewer" })).status).toBe(409);
  });

  it("never leaves a tenant without an owner when two owners demote each other at once", async () => {
    const pair = await createTestTenant();
    const second = await createUser();
    await send(pair, "PUT", "/members", pair.session, { email: second.email, role: "owner" });
    const firstEmail = (await send<{ userId: number; email: string }[]>(pair, "GET", "/members", pair.session)).body.data.find(
      (m) => m.userId === pair.ownerId,
    )!.email;
    await Promise.all([
      send(pair, "PUT", "/members", pair.session, { email: second.email, role: "editor" }),
      send(pair, "PUT", "/members", await sessionFor(second), { email: firstEmail, role: "editor" }),
    ]);
    const owners = (await send<{ role: string }[]>(pair, "GET", "/members", pair.session)).body.data.filter((m) => m.role === "owner");
    expect(owners.length).toBeGreaterThanOrEqual(1);
  });
});

describe("API5 · members: removal", () => {
  it("removes a member: their session no longer reaches the tenant", async () => {
    const editor = await memberWith(tenant, "editor");
    expect((await send(tenant, "GET", "/sites", editor.session)).status).toBe(200);
    const removed = await send(tenant, "DELETE", `/members/${editor.userId}`, tenant.session);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ deleted: true });
    expect((await send(tenant, "GET", "/sites", editor.session)).status).toBe(404);
  });

  it("answers 404 for a user who is no member, and 403 to a member who is not an owner", async () => {
    const stranger = await createUser();
    expect((await send(tenant, "DELETE", `/members/${stranger.id}`, tenant.session)).status).toBe(404);
    const editor = await memberWith(tenant, "editor");
    const viewer = await memberWith(tenant, "viewer");
    expect((await send(tenant, "DELETE", `/members/${viewer.userId}`, editor.session)).status).toBe(403);
  });
});

describe("a member's own name, as bylines show it", () => {
  it("is read and changed by the member, and the site's cached pages show the new byline at once", async () => {
    const own = await createTestTenant();
    await installDefaultTheme(own.siteId);
    const slug = await siteSlug(own.siteId);
    await seedContent(own, { title: "Ferries at dusk" });
    const before = await (await sitePage(slug, "/ferries-at-dusk")).text();
    expect(before).not.toContain("Mara Lind");

    const renamed = await admin("PATCH", "/me", own.session, { fullName: "  Mara Lind " });
    expect(renamed.status).toBe(200);
    expect((await renamed.json<Envelope<{ userId: number; fullName: string }>>()).data).toMatchObject({ userId: own.ownerId, fullName: "Mara Lind" });
    expect((await (await admin("GET", "/me", own.session)).json<Envelope<{ fullName: string }>>()).data.fullName).toBe("Mara Lind");
    // The page was kept under the site's version: the rename gave the site a new one.
    expect(await (await sitePage(slug, "/ferries-at-dusk")).text()).toContain("Mara Lind");
  });

  it("refuses an email address or an empty name, in words", async () => {
    const own = await createTestTenant();
    for (const [fullName, message] of [
      ["mara@example.com", "Full name must be a name, not an email address: bylines never show one"],
      ["   ", "Full name must not be empty"],
      ["M".repeat(101), "Full name must be at most 100 characters"],
    ]) {
      const res = await admin("PATCH", "/me", own.session, { fullName });
      expect(res.status, fullName).toBe(400);
      expect((await res.json<Envelope<never>>()).error!.message).toBe(message);
    }
  });
});
