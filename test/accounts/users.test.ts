import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountJson, createUser, sessionFor, userRow } from "../helpers/accounts";
import { userSchema } from "../../src/accounts/schema";
import { getWithSecret } from "../helpers/requests";
import { createTestKey } from "../helpers/credentials";

async function as(role: "user" | "admin" = "user") {
  const user = await createUser({ role });
  return { user, jwt: await sessionFor(user) };
}

describe("A8 me", () => {
  it("returns the caller's record with the interface's fields", async () => {
    const { user, jwt } = await as();
    const body = await (await accountJson("GET", "/api/users/me", jwt)).json();
    expect(body).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      full_name: null,
      casdoor_id: user.casdoorId,
      role: "user",
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });
});

describe("A8 me, against the document", () => {
  it("answers exactly the fields the document's User lists, derived from the table", async () => {
    const { jwt } = await as();
    const body: unknown = await (await accountJson("GET", "/api/users/me", jwt)).json();
    expect(userSchema.strict().safeParse(body).error).toBeUndefined();
  });
});

describe("A9 read a user", () => {
  it("is for admins", async () => {
    const [{ jwt }, other] = await Promise.all([as("admin"), as()]);
    const res = await accountJson("GET", `/api/users/${other.user.id}`, jwt);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: other.user.id });
  });

  it("is 403 for anyone else, even for their own id", async () => {
    const { user, jwt } = await as();
    const res = await accountJson("GET", `/api/users/${user.id}`, jwt);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: "Insufficient permissions" });
  });

  it("is 404 for an unknown id", async () => {
    const { jwt } = await as("admin");
    const res = await accountJson("GET", "/api/users/99999999", jwt);
    expect(await res.json()).toEqual({ detail: "Not found" });
  });
});

describe("A10 update a user", () => {
  it("lets users change their own name and email", async () => {
    const { user, jwt } = await as();
    const res = await accountJson("PUT", `/api/users/${user.id}`, jwt, { full_name: "Grace Hopper", email: "grace@example.com" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ full_name: "Grace Hopper", email: "grace@example.com" });
    expect(await userRow(user.id)).toMatchObject({ fullName: "Grace Hopper", email: "grace@example.com" });
  });

  it("lets an admin change anyone", async () => {
    const [{ jwt }, other] = await Promise.all([as("admin"), as()]);
    expect((await accountJson("PUT", `/api/users/${other.user.id}`, jwt, { full_name: "Set by admin", email: "x@example.com" })).status).toBe(200);
  });

  it("refuses a user changing another user, and changes nothing", async () => {
    const [{ jwt }, other] = await Promise.all([as(), as()]);
    const res = await accountJson("PUT", `/api/users/${other.user.id}`, jwt, { full_name: "Mallory", email: "m@example.com" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: "Insufficient permissions" });
    expect((await userRow(other.user.id))?.email).toBe(other.user.email);
  });

  it.each([
    ["an invalid email", { full_name: "A", email: "not-an-email" }, "email"],
    ["no email", { full_name: "A" }, "email"],
    ["an empty name", { full_name: "", email: "a@example.com" }, "full_name"],
    ["an extra field", { full_name: "A", email: "a@example.com", role: "admin" }, undefined],
  ])("answers 422 for %s", async (_, body, field) => {
    const { user, jwt } = await as();
    const res = await accountJson("PUT", `/api/users/${user.id}`, jwt, body);
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: string[] }[] }>();
    if (field) expect(detail[0]!.loc).toEqual(["body", field]);
    expect((await userRow(user.id))?.role).toBe("user");
  });
});

describe("A11 deactivate a user", () => {
  it("is for admins, and stops the user's keys and sessions at once", async () => {
    const { jwt } = await as("admin");
    const target = await as();
    const key = await createTestKey();
    await env.DB.prepare("UPDATE api_keys SET user_id = ? WHERE id = ?").bind(target.user.id, key.keyId).run();
    expect((await getWithSecret("/std/api/bigdata/taxrate/types", key)).status).toBe(200);

    const res = await accountJson("DELETE", `/api/users/${target.user.id}`, jwt);
    expect(await res.json()).toEqual({ success: true, message: "User deactivated" });
    expect((await userRow(target.user.id))?.isActive).toBe(false);
    expect((await getWithSecret("/std/api/bigdata/taxrate/types", key)).status).toBe(401);
    expect((await accountJson("GET", "/api/users/me", target.jwt)).status).toBe(401);
  });

  it("is 403 for a non-admin", async () => {
    const [{ jwt }, other] = await Promise.all([as(), as()]);
    expect((await accountJson("DELETE", `/api/users/${other.user.id}`, jwt)).status).toBe(403);
    expect((await userRow(other.user.id))?.isActive).toBe(true);
  });

  it("refuses to deactivate the last active admin", async () => {
    await env.DB.prepare("UPDATE users SET is_active = 0 WHERE role = 'admin'").run();
    const admin = await as("admin");
    const res = await accountJson("DELETE", `/api/users/${admin.user.id}`, admin.jwt);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ detail: "The last active admin cannot be deactivated" });
    expect((await userRow(admin.user.id))?.isActive).toBe(true);

    const second = await as("admin");
    expect((await accountJson("DELETE", `/api/users/${admin.user.id}`, second.jwt)).status).toBe(200);
  });
});
