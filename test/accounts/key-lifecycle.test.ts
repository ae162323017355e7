import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountJson, bearer, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { call, getWithSecret } from "../helpers/requests";

const STANDARD_DE = "/std/api/bigdata/taxrate/country/DE/standard";

interface Created {
  id: number;
  token: string;
  secret: string;
  name: string;
  user_id: number;
  masked_token: string;
  scopes: string[];
  is_active: boolean;
  expires_at: string | null;
}

async function session() {
  const user = await createUser();
  return { user, jwt: await sessionFor(user) };
}

async function createKey(jwt: string, body: Record<string, unknown> = { name: "ci" }) {
  const res = await accountJson("POST", "/api/tokens", jwt, body);
  return { res, key: await res.clone().json<Created>() };
}

describe("A4–A7 key lifecycle", () => {
  it("creates a key that works at once, lists and shows it masked, and revokes it for the next request", async () => {
    const { user, jwt } = await session();
    const { res, key } = await createKey(jwt, { name: "billing", description: "nightly job", scopes: ["taxrate:read"] });
    expect(res.status).toBe(201);
    expect(key).toMatchObject({ name: "billing", user_id: user.id, is_active: true, scopes: ["taxrate:read"], expires_at: null });
    expect(key.token).toMatch(/^svc_sk_[0-9A-Za-z]{40}$/);
    expect(key.secret).toMatch(/^svc_ss_[0-9A-Za-z]{40}$/);
    expect(key.masked_token).toBe(`svc_sk_${key.token.slice(7, 11)}********${key.token.slice(-4)}`);

    expect((await getWithSecret(STANDARD_DE, key)).status).toBe(200);

    const list = await (await accountJson("GET", "/api/tokens", jwt)).json<{ data: Record<string, unknown>[]; total: number }>();
    expect(list.total).toBe(1);
    expect(list.data[0]).toEqual({
      id: key.id,
      name: "billing",
      masked_token: key.masked_token,
      created_at: expect.any(String),
      last_used: expect.any(String),
      is_active: true,
    });
    expect(JSON.stringify(list)).not.toContain(key.token);

    const detail = await (await accountJson("GET", `/api/tokens/${key.id}`, jwt)).json();
    expect(detail).toMatchObject({ id: key.id, description: "nightly job", scopes: ["taxrate:read"], masked_token: key.masked_token });
    expect(JSON.stringify(detail)).not.toContain(key.secret);

    const revoked = await accountJson("DELETE", `/api/tokens/${key.id}`, jwt);
    expect(await revoked.json()).toEqual({ success: true, message: "API key revoked" });
    const after = await getWithSecret(STANDARD_DE, key);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ code: 401, msg: "API key has been revoked", data: null });
    expect((await call("/api/tokens", { headers: bearer(key.token) })).status).toBe(401);
  });

  it("records last_used, at most once a minute", async () => {
    const { jwt } = await session();
    const { key } = await createKey(jwt);
    await getWithSecret(STANDARD_DE, key);
    const read = () => env.DB.prepare("SELECT last_used FROM api_keys WHERE id = ?").bind(key.id).first<{ last_used: string | null }>();
    let first: string | null = null;
    for (let i = 0; i < 20 && !first; i++) {
      first = (await read())!.last_used;
      if (!first) await new Promise((r) => setTimeout(r, 25));
    }
    expect(first).not.toBeNull();
    await getWithSecret(STANDARD_DE, key);
    await new Promise((r) => setTimeout(r, 100));
    expect((await read())!.last_used).toBe(first);
  });

  it("lets an API key manage keys over Bearer", async () => {
    const key = await createTestKey();
    const res = await accountJson("POST", "/api/tokens", key.token, { name: "made by a key" });
    expect(res.status).toBe(201);
  });

  it("accepts an expiry and refuses the key after it", async () => {
    const { jwt } = await session();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const { key } = await createKey(jwt, { name: "short", expires_at: soon });
    expect(key.expires_at).toBe(soon);
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), key.id)
      .run();
    expect(await (await getWithSecret(STANDARD_DE, key)).json()).toEqual({ code: 401, msg: "API key has expired", data: null });
  });

  const scopeRule = /^must be <resource>:<action> with resource one of tokens, users, .* and action read, write or \*; or \* alone$/;
  it.each([
    ["no name", {}, ["body", "name"], "is required"],
    ["an empty name", { name: "  " }, ["body", "name"], "must not be empty"],
    ["an unknown scope resource", { name: "x", scopes: ["payroll:read"] }, ["body", "scopes", "0"], scopeRule],
    ["a malformed scope", { name: "x", scopes: ["taxrate"] }, ["body", "scopes", "0"], scopeRule],
    ["an unknown action", { name: "x", scopes: ["taxrate:delete"] }, ["body", "scopes", "0"], scopeRule],
    ["an expiry in the past", { name: "x", expires_at: "2020-01-01T00:00:00Z" }, ["body", "expires_at"], "must be in the future"],
    [
      "an expiry that is no date",
      { name: "x", expires_at: "tomorrow" },
      ["body", "expires_at"],
      "must be an ISO 8601 date-time, e.g. 2027-01-01T00:00:00Z",
    ],
    ["an unknown field", { name: "x", plan: "enterprise" }, ["body"], "does not take the field plan"],
  ])("answers 422 for %s, naming the field and saying what is wrong in words", async (_, body, loc, said) => {
    const { jwt } = await session();
    const res = await accountJson("POST", "/api/tokens", jwt, body);
    expect(res.status).toBe(422);
    const { detail } = await res.json<{ detail: { loc: string[]; msg: string }[] }>();
    expect(detail[0]!.loc).toEqual(loc);
    expect(detail[0]!.msg).toMatch(said);
  });

  it("answers 400 for malformed JSON and 415 for a body that is not JSON", async () => {
    const { jwt } = await session();
    const malformed = await call("/api/tokens", { method: "POST", headers: { ...bearer(jwt), "Content-Type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ detail: "Request body is not valid JSON" });
    const form = await call("/api/tokens", { method: "POST", headers: bearer(jwt), body: "name=x" });
    expect(form.status).toBe(415);
  });

  it("hides another user's key: 404 on read and revoke", async () => {
    const [mine, theirs] = await Promise.all([session(), session()]);
    const { key } = await createKey(theirs.jwt);
    for (const method of ["GET", "DELETE"]) {
      const res = await accountJson(method, `/api/tokens/${key.id}`, mine.jwt);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found" });
    }
    expect((await getWithSecret(STANDARD_DE, key)).status).toBe(200);
  });

  it("answers 422 for an id that is not a number", async () => {
    const { jwt } = await session();
    expect((await accountJson("GET", "/api/tokens/abc", jwt)).status).toBe(422);
  });
});

describe("API5 · key scopes", () => {
  it("lets a key with tokens:read list but not create", async () => {
    const key = await createTestKey({ scopes: ["tokens:read"] });
    expect((await call("/api/tokens", { headers: bearer(key.token) })).status).toBe(200);
    const res = await accountJson("POST", "/api/tokens", key.token, { name: "x" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: "Insufficient permissions" });
  });

  it("refuses a key without the tokens scope", async () => {
    const key = await createTestKey({ scopes: ["taxrate:read"] });
    const res = await call("/api/tokens", { headers: bearer(key.token) });
    expect(await res.json()).toEqual({ detail: "Insufficient permissions" });
  });

  it("does not let a scoped key create a key with more power than itself", async () => {
    const key = await createTestKey({ scopes: ["tokens:*", "taxrate:read"] });
    for (const scopes of [[], ["*"], ["ai:read"], ["taxrate:*"]]) {
      const res = await accountJson("POST", "/api/tokens", key.token, { name: "wider", scopes });
      expect(res.status, JSON.stringify(scopes)).toBe(403);
    }
    expect((await accountJson("POST", "/api/tokens", key.token, { name: "narrower", scopes: ["taxrate:read"] })).status).toBe(201);
  });
});

describe("API6 · how many keys a user may hold", () => {
  it("allows a free user 5 active keys; a revoked one frees its place", async () => {
    const session = await sessionFor(await createUser());
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await accountJson("POST", "/api/tokens", session, { name: `key ${i}` });
      expect(res.status).toBe(201);
      ids.push((await res.json<Created>()).id);
    }
    const refused = await accountJson("POST", "/api/tokens", session, { name: "one too many" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ detail: "Key limit reached: the free plan allows 5 active keys; revoke one first" });

    expect((await accountJson("DELETE", `/api/tokens/${ids[0]}`, session)).status).toBe(200);
    expect((await accountJson("POST", "/api/tokens", session, { name: "in its place" })).status).toBe(201);
  });
});
