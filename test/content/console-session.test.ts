import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSIONS_PER_PERSON } from "../../src/content/tenancy/member-session";
import { createUser, sessionFor } from "../helpers/accounts";
import { deactivateUser } from "../helpers/credentials";
import { call } from "../helpers/requests";

async function startSession(jwt: string) {
  const res = await call("/admin/api/session", { method: "POST", headers: { Authorization: `Bearer ${jwt}` } });
  const cookie = res.headers.get("Set-Cookie")!;
  const { data } = await res.json<{ data: { csrfToken: string } }>();
  return { res, cookie, value: /gw_console=([^;]+)/.exec(cookie)![1]!, csrfToken: data.csrfToken };
}

const withCookie = (value: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  ({ ...init, headers: { Cookie: `gw_console=${value}`, ...(init.headers ?? {}) } }) as RequestInit;

const newTenant = () => JSON.stringify({ name: "Cookie Times", slug: `cookie-${Date.now()}-${Math.random().toString(36).slice(2, 7)}` });

describe("the console's cookie session", () => {
  it("starts from the JWT: an HttpOnly, SameSite=Lax, Secure cookie for /admin, and a CSRF token", async () => {
    const { res, cookie, csrfToken } = await startSession(await sessionFor(await createUser()));
    expect(res.status).toBe(200);
    expect(cookie).toMatch(/^gw_console=[^;]+; Max-Age=86400; Path=\/admin; HttpOnly; Secure; SameSite=Lax$/);
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reads with the cookie alone, and tells the CSRF token again", async () => {
    const user = await createUser();
    const session = await startSession(await sessionFor(user));
    const tenants = await call("/admin/api/tenants", withCookie(session.value));
    expect(tenants.status).toBe(200);
    const again = await (await call("/admin/api/session", withCookie(session.value))).json<{ data: { userId: number; csrfToken: string } }>();
    expect(again.data).toEqual({ userId: user.id, csrfToken: session.csrfToken });
  });

  it("refuses a write with the cookie but without its CSRF token, or with another session's", async () => {
    const session = await startSession(await sessionFor(await createUser()));
    const other = await startSession(await sessionFor(await createUser()));
    const write = (headers: Record<string, string>) =>
      call(
        "/admin/api/tenants",
        withCookie(session.value, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: newTenant() }),
      );
    for (const headers of <Record<string, string>[]>[{}, { "X-CSRF-Token": other.csrfToken }, { "X-CSRF-Token": "0".repeat(64) }]) {
      const res = await write(headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        success: false,
        error: { code: "forbidden", message: "A write with the console's session cookie needs its X-CSRF-Token" },
      });
    }
    expect((await write({ "X-CSRF-Token": session.csrfToken })).status).toBe(201);
  });

  it("refuses a forged or missing session, and ends one", async () => {
    const session = await startSession(await sessionFor(await createUser()));
    expect((await call("/admin/api/tenants", withCookie(`${session.value.slice(0, -4)}AAAA`))).status).toBe(401);
    expect((await call("/admin/api/tenants")).status).toBe(401);
    const ended = await call("/admin/api/session", withCookie(session.value, { method: "DELETE", headers: { "X-CSRF-Token": session.csrfToken } }));
    expect(ended.status).toBe(200);
    expect(ended.headers.get("Set-Cookie")).toMatch(/^gw_console=; Max-Age=0; Path=\/admin/);
  });

  it("needs the JWT in Authorization to start", async () => {
    const user = await createUser();
    const session = await startSession(await sessionFor(user));
    const res = await call("/admin/api/session", withCookie(session.value, { method: "POST", headers: { "X-CSRF-Token": session.csrfToken } }));
    expect(res.status).toBe(400);
  });
});

describe("API2 · console sessions end on the server", () => {
  afterEach(() => vi.useRealTimers());

  it("holds a random id in the cookie, not the JWT", async () => {
    const jwt = await sessionFor(await createUser());
    const session = await startSession(jwt);
    expect(session.value).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(session.value).not.toBe(jwt);
  });

  it("makes the cookie's value worthless after logout, on the admin API and as a bearer token", async () => {
    const session = await startSession(await sessionFor(await createUser()));
    expect((await call("/admin/api/tenants", withCookie(session.value))).status).toBe(200);
    await call("/admin/api/session", withCookie(session.value, { method: "DELETE", headers: { "X-CSRF-Token": session.csrfToken } }));
    const after = await call("/admin/api/tenants", withCookie(session.value));
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ success: false, error: { code: "unauthorized", message: "Invalid authentication credentials" } });
    expect((await call("/api/users/me", { headers: { Authorization: `Bearer ${session.value}` } })).status).toBe(401);
    expect((await call("/admin/api/tenants", { headers: { Authorization: `Bearer ${session.value}` } })).status).toBe(401);
  });

  it("ends a session when its user is deactivated", async () => {
    const user = await createUser();
    const session = await startSession(await sessionFor(user));
    await deactivateUser(user.id);
    expect((await call("/admin/api/tenants", withCookie(session.value))).status).toBe(401);
  });

  it("ends a session after 24 hours, whatever the cookie says", async () => {
    const session = await startSession(await sessionFor(await createUser()));
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 1000);
    expect((await call("/admin/api/tenants", withCookie(session.value))).status).toBe(401);
  });

  it("keeps one user's other sessions when one ends", async () => {
    const user = await createUser();
    const [laptop, phone] = [await startSession(await sessionFor(user)), await startSession(await sessionFor(user))];
    await call("/admin/api/session", withCookie(laptop.value, { method: "DELETE", headers: { "X-CSRF-Token": laptop.csrfToken } }));
    expect((await call("/admin/api/tenants", withCookie(phone.value))).status).toBe(200);
  });

  it("keeps a person's newest 50 sessions: one more ends the oldest, and no one else's", async () => {
    const [user, other] = [await createUser({ plan: "internal" }), await createUser()];
    const jwt = await sessionFor(user);
    const theirs = await startSession(await sessionFor(other));
    const sessions = [];
    for (let i = 0; i <= SESSIONS_PER_PERSON; i++) sessions.push(await startSession(jwt));
    const reads = (value: string) => call("/admin/api/tenants", withCookie(value)).then((res) => res.status);
    expect(await reads(sessions[0]!.value)).toBe(401);
    expect(await reads(sessions[1]!.value)).toBe(200);
    expect(await reads(sessions.at(-1)!.value)).toBe(200);
    expect(await reads(theirs.value)).toBe(200);
  });
});
