import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { tenantInvitations } from "../../src/content/schema";
import { MAX_PENDING_INVITATIONS } from "../../src/content/tenancy/invitations";
import { database } from "../../src/platform/database";
import { createUser, fakeIdentityProvider, sessionFor, uniqueTag, type ProviderProfile } from "../helpers/accounts";
import { admin, createTestTenant, memberWith, type TestTenant } from "../helpers/content";
import { call } from "../helpers/requests";

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };
const send = async <T = unknown>(tenant: TestTenant, method: string, path: string, session: string, body?: unknown) => {
  const res = await admin(method, `/tenants/${tenant.tenantId}${path}`, session, body);
  return { status: res.status, body: await res.json<Envelope<T>>() };
};
interface Invitation {
  id: number;
  email: string;
  role: string;
  expiresAt: string;
  expired: boolean;
  invitedBy: { email: string };
}
interface Member {
  userId: number;
  email: string;
  fullName: string | null;
  role: string;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const newEmail = () => `invited-${uniqueTag()}@example.com`.toLowerCase();

/** The whole browser login (A1, the provider, A2) with the provider faked at its boundary; each from an address of its own, so no login limit is shared. */
async function signInAs(profile: ProviderProfile): Promise<{ status: number; userId: number; token: string }> {
  const provider = fakeIdentityProvider(profile);
  const headers = { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
  const start = await call("/auth/login", { redirect: "manual", headers });
  const location = new URL(start.headers.get("Location")!);
  provider.challenge = location.searchParams.get("code_challenge")!;
  const cookie = start.headers.get("Set-Cookie")!.split(";")[0]!;
  const params = new URLSearchParams({ code: "good-code", state: location.searchParams.get("state")! });
  const done = await call(`/auth/callback?${params.toString()}`, { redirect: "manual", headers: { ...headers, Cookie: cookie } });
  vi.restoreAllMocks();
  const target = new URL(done.headers.get("Location") ?? "http://none/");
  return { status: done.status, userId: Number(target.searchParams.get("user_id")), token: target.searchParams.get("token") ?? "" };
}
const person = (email: string, overrides: Partial<ProviderProfile> = {}): ProviderProfile => ({
  sub: `idp-${uniqueTag()}`,
  email,
  preferred_username: email.split("@")[0],
  name: "Grace Hopper",
  email_verified: true,
  ...overrides,
});

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTestTenant();
});

describe("invitations: someone who has never signed in joins at their first sign-in", () => {
  it("lists a new invitation as pending for seven days, then makes its address a member with its role at the first sign-in", async () => {
    const email = newEmail();
    const created = await send<Invitation>(tenant, "POST", "/invitations", tenant.session, { email: email.toUpperCase(), role: "editor" });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email, role: "editor", expired: false });
    const days = (Date.parse(created.body.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const listed = await send<Invitation[]>(tenant, "GET", "/invitations", tenant.session);
    expect(listed.body.data.find((i) => i.email === email)).toMatchObject({
      role: "editor",
      expired: false,
      invitedBy: { email: expect.any(String) },
    });

    const login = await signInAs(person(email.replace("invited", "Invited")));
    expect(login.status).toBe(302);
    const members = await send<Member[]>(tenant, "GET", "/members", tenant.session);
    expect(members.body.data).toContainEqual({
      userId: login.userId,
      email: email.replace("invited", "Invited"),
      fullName: "Grace Hopper",
      role: "editor",
    });
    expect((await send<Invitation[]>(tenant, "GET", "/invitations", tenant.session)).body.data.some((i) => i.email === email)).toBe(false);
    // Their JWT reaches the tenant at once, as an editor.
    const tenants = await (await admin("GET", "/tenants", login.token)).json<Envelope<{ id: number; role: string }[]>>();
    expect(tenants.data).toContainEqual(expect.objectContaining({ id: tenant.tenantId, role: "editor" }));
  });

  it("is not accepted by a sign-in with another address, nor with an address the provider has not verified", async () => {
    const email = newEmail();
    await send(tenant, "POST", "/invitations", tenant.session, { email, role: "owner" });
    const other = await signInAs(person(`x${email}`));
    const unverified = await signInAs(person(email, { email_verified: false }));
    const unsaid = await signInAs(person(email, { email_verified: undefined }));
    const members = (await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data;
    for (const login of [other, unverified, unsaid]) {
      expect(login.status).toBe(302);
      expect(members.some((m) => m.userId === login.userId)).toBe(false);
    }
    expect((await send<Invitation[]>(tenant, "GET", "/invitations", tenant.session)).body.data.some((i) => i.email === email)).toBe(true);
  });

  it("does nothing once expired, and is listed as expired", async () => {
    const email = newEmail();
    const { body } = await send<Invitation>(tenant, "POST", "/invitations", tenant.session, { email, role: "author" });
    // Seven days and a minute later, as far as the invitation can tell.
    await database(env)
      .update(tenantInvitations)
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where(eq(tenantInvitations.id, body.data.id));
    const login = await signInAs(person(email));
    expect(login.status).toBe(302);
    expect((await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data.some((m) => m.userId === login.userId)).toBe(false);
    expect((await send<Invitation[]>(tenant, "GET", "/invitations", tenant.session)).body.data.find((i) => i.email === email)).toMatchObject({
      expired: true,
    });
  });

  it("does nothing once withdrawn", async () => {
    const email = newEmail();
    const { body } = await send<Invitation>(tenant, "POST", "/invitations", tenant.session, { email, role: "viewer" });
    const withdrawn = await send(tenant, "DELETE", `/invitations/${body.data.id}`, tenant.session);
    expect(withdrawn).toEqual({ status: 200, body: { success: true, data: { deleted: true } } });
    expect((await send(tenant, "DELETE", `/invitations/${body.data.id}`, tenant.session)).status).toBe(404);
    // The audit log has both, once: the second withdrawal found nothing and wrote nothing.
    const audit = await send<{ action: string; subject: string }[]>(tenant, "GET", "/audit", tenant.session);
    expect(audit.body.data.filter((entry) => entry.subject === `${email} as viewer`).map((entry) => entry.action)).toEqual([
      "withdraw-invitation",
      "invite",
    ]);
    const login = await signInAs(person(email));
    expect((await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data.some((m) => m.userId === login.userId)).toBe(false);
  });

  it("grants nothing when its inviter is no longer an owner of the tenant by the time it is accepted", async () => {
    const own = await createTestTenant();
    const coOwner = await createUser();
    await send(own, "PUT", "/members", own.session, { email: coOwner.email, role: "owner" });
    const email = newEmail();
    expect((await send(own, "POST", "/invitations", await sessionFor(coOwner), { email, role: "owner" })).status).toBe(201);
    await send(own, "PUT", "/members", own.session, { email: coOwner.email, role: "viewer" });
    const login = await signInAs(person(email));
    expect((await send<Member[]>(own, "GET", "/members", own.session)).body.data.some((m) => m.userId === login.userId)).toBe(false);
  });

  it("a member keeps their role when an invitation to their address is accepted, and inviting a member is refused", async () => {
    const email = newEmail();
    const first = await signInAs(person(email));
    await send(tenant, "PUT", "/members", tenant.session, { email, role: "viewer" });
    const refused = await send(tenant, "POST", "/invitations", tenant.session, { email, role: "owner" });
    expect(refused.status).toBe(409);
    const said = `${email} is already a member: change their role in the list instead`;
    // At the email field too, where the invitation form shows it.
    expect(refused.body.error).toMatchObject({ message: said, fields: [{ field: "body.email", message: said }] });
    expect((await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data.find((m) => m.userId === first.userId)!.role).toBe("viewer");
  });
});

describe("invitations: an attacker", () => {
  it("as an editor, author or viewer, may not invite, list or withdraw invitations", async () => {
    const { body } = await send<Invitation>(tenant, "POST", "/invitations", tenant.session, { email: newEmail(), role: "viewer" });
    for (const role of ["editor", "author", "viewer"] as const) {
      const member = await memberWith(tenant, role);
      const invited = await send(tenant, "POST", "/invitations", member.session, { email: newEmail(), role: "owner" });
      expect(invited.status).toBe(403);
      expect(invited.body.error!.message).toBe(`This needs the owner role; you are ${role === "viewer" ? "a" : "an"} ${role}`);
      // The role is checked before the body: a refused member learns that, not what the body lacks.
      const unchecked = await send(tenant, "POST", "/invitations", member.session, { emial: "x" });
      expect([unchecked.status, unchecked.body.error!.message]).toEqual([403, invited.body.error!.message]);
      expect((await send(tenant, "GET", "/invitations", member.session)).status).toBe(403);
      expect((await send(tenant, "DELETE", `/invitations/${body.data.id}`, member.session)).status).toBe(403);
    }
  });

  it("names a malformed tenant id in the path, whoever asks", async () => {
    const res = await admin("POST", "/tenants/abc/invitations", tenant.session, { email: newEmail(), role: "viewer" });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { message: string } }>()).error.message).toMatch(/^tenantId /);
  });

  it("as an editor, may neither demote nor remove the owner", async () => {
    const editor = await memberWith(tenant, "editor");
    const members = (await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data;
    const owner = members.find((m) => m.userId === tenant.ownerId)!;
    expect((await send(tenant, "PUT", "/members", editor.session, { email: owner.email, role: "viewer" })).status).toBe(403);
    expect((await send(tenant, "DELETE", `/members/${tenant.ownerId}`, editor.session)).status).toBe(403);
    expect((await send<Member[]>(tenant, "GET", "/members", tenant.session)).body.data).toContainEqual(owner);
  });

  it("cannot see, withdraw or be invited through another tenant's invitations and members", async () => {
    const other = await createTestTenant();
    const email = newEmail();
    const { body } = await send<Invitation>(tenant, "POST", "/invitations", tenant.session, { email, role: "editor" });
    expect((await send(other, "DELETE", `/invitations/${body.data.id}`, other.session)).status).toBe(404);
    const audits = await Promise.all([tenant, other].map((of) => send<{ subject: string }[]>(of, "GET", "/audit", of.session)));
    expect(audits.map((audit) => audit.body.data.filter((entry) => entry.subject.startsWith(email)).length)).toEqual([1, 0]);
    expect((await send<Invitation[]>(other, "GET", "/invitations", other.session)).body.data.some((i) => i.email === email)).toBe(false);
    // Another tenant's paths answer as if the tenant did not exist.
    const foreign = await admin("GET", `/tenants/${tenant.tenantId}/invitations`, other.session);
    expect(foreign.status).toBe(404);
    expect((await admin("POST", `/tenants/${tenant.tenantId}/invitations`, other.session, { email: newEmail(), role: "owner" })).status).toBe(404);
    expect((await send(other, "DELETE", `/members/${tenant.ownerId}`, other.session)).status).toBe(404);
    // The invited person joins the tenant that invited them, not the other.
    const login = await signInAs(person(email));
    const tenants = await (await admin("GET", "/tenants", login.token)).json<Envelope<{ id: number }[]>>();
    expect(tenants.data.map((t) => t.id)).toEqual([tenant.tenantId]);
  });

  it(`holds at most ${MAX_PENDING_INVITATIONS} pending invitations a tenant; an address invited again is replaced, not counted twice`, async () => {
    const crowded = await createTestTenant();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const db = database(env);
    const rows = Array.from({ length: MAX_PENDING_INVITATIONS - 1 }, (_, i) => ({
      tenantId: crowded.tenantId,
      email: `bulk-${i}@example.com`,
      role: "viewer" as const,
      invitedBy: crowded.ownerId,
      expiresAt,
    }));
    // D1 takes at most 100 bound values a statement: one row a statement, in one batch.
    const [first, ...more] = rows.map((row) => db.insert(tenantInvitations).values(row));
    await db.batch([first!, ...more]);
    expect((await send(crowded, "POST", "/invitations", crowded.session, { email: "last@example.com", role: "viewer" })).status).toBe(201);
    const over = await send(crowded, "POST", "/invitations", crowded.session, { email: "one-more@example.com", role: "viewer" });
    expect(over.status).toBe(409);
    expect(over.body.error!.message).toBe(
      `A tenant may have at most ${MAX_PENDING_INVITATIONS} pending invitations: withdraw some, or wait until they expire`,
    );
    const again = await send<Invitation>(crowded, "POST", "/invitations", crowded.session, { email: "bulk-3@example.com", role: "author" });
    expect(again.status).toBe(201);
    expect(again.body.data.role).toBe("author");
    const listed = (await send<Invitation[]>(crowded, "GET", "/invitations", crowded.session)).body.data;
    expect(listed).toHaveLength(MAX_PENDING_INVITATIONS);
    expect(listed.some((i) => i.email === "one-more@example.com")).toBe(false);
  });

  it("answers a bad address, an unknown role, an oversized address and unknown fields with a 400 in words", async () => {
    const cases: [unknown, string][] = [
      [{ email: "not an address", role: "editor" }, "Email must be an email address, such as name@example.com"],
      [{ email: newEmail(), role: "admin" }, "Role must be one of owner, editor, author, viewer"],
      [{ email: `${"a".repeat(250)}@example.com`, role: "editor" }, "Email must be at most 254 characters"],
    ];
    for (const [body, message] of cases) {
      const res = await send(tenant, "POST", "/invitations", tenant.session, body);
      expect(res.status).toBe(400);
      expect(res.body.error!.fields!.map((f) => f.message)).toContain(message);
    }
    expect((await send(tenant, "POST", "/invitations", tenant.session, { email: newEmail(), role: "viewer", tenantId: 1 })).status).toBe(400);
  });
});
