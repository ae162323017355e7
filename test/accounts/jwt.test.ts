import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { bearer, createUser, sessionFor } from "../helpers/accounts";
import { call } from "../helpers/requests";

const ME = "/api/users/me";
const secret = new TextEncoder().encode(env.JWT_SECRET);
const now = () => Math.floor(Date.now() / 1000);

function token(claims: { sub?: string; iss?: string; aud?: string; iat?: number; exp?: number }, key = secret) {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: "HS256" });
  if (claims.sub) jwt.setSubject(claims.sub);
  jwt.setIssuer(claims.iss ?? env.JWT_ISSUER).setAudience(claims.aud ?? env.JWT_AUDIENCE);
  jwt.setIssuedAt(claims.iat ?? now()).setExpirationTime(claims.exp ?? now() + 3600);
  return jwt.sign(key);
}

async function expect401(headers: Record<string, string>, detail: string) {
  const res = await call(ME, { headers });
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ detail });
}

describe("JWT sessions", () => {
  it("accepts the service's own token", async () => {
    const user = await createUser();
    const res = await call(ME, { headers: bearer(await sessionFor(user)) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: user.id, casdoor_id: user.casdoorId, is_active: true });
  });

  it("says 'Authorization header required' without the header", async () => {
    await expect401({}, "Authorization header required");
  });

  it("refuses another scheme", async () => {
    const user = await createUser();
    await expect401({ Authorization: `Token ${await sessionFor(user)}` }, "Invalid authentication credentials");
  });

  it("says 'Token has expired' for an expired token", async () => {
    const user = await createUser();
    await expect401(bearer(await token({ sub: user.casdoorId, iat: now() - 90_000, exp: now() - 3600 })), "Token has expired");
  });

  it("refuses a tampered payload", async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const [header, , signature] = (await sessionFor(user)).split(".");
    const forged = btoa(JSON.stringify({ sub: other.casdoorId, iss: env.JWT_ISSUER, aud: env.JWT_AUDIENCE, iat: now(), exp: now() + 60 }))
      .replaceAll("=", "")
      .replaceAll("+", "-")
      .replaceAll("/", "_");
    await expect401(bearer(`${header}.${forged}.${signature}`), "Invalid authentication credentials");
  });

  it("refuses a token signed with another secret", async () => {
    const user = await createUser();
    await expect401(bearer(await token({ sub: user.casdoorId }, new TextEncoder().encode("not-the-secret"))), "Invalid authentication credentials");
  });

  it("refuses a wrong issuer", async () => {
    const user = await createUser();
    await expect401(bearer(await token({ sub: user.casdoorId, iss: "someone-else" })), "Invalid authentication credentials");
  });

  it("refuses a wrong audience", async () => {
    const user = await createUser();
    await expect401(bearer(await token({ sub: user.casdoorId, aud: "another-api" })), "Invalid authentication credentials");
  });

  it("refuses a token whose sub is no user", async () => {
    await expect401(bearer(await token({ sub: "nobody-at-all" })), "Invalid authentication credentials");
  });

  it("refuses a token without sub", async () => {
    await expect401(bearer(await token({})), "Invalid authentication credentials");
  });

  it("refuses alg: none", async () => {
    const user = await createUser();
    const part = (o: object) => btoa(JSON.stringify(o)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
    const unsigned = `${part({ alg: "none", typ: "JWT" })}.${part({ sub: user.casdoorId, iss: env.JWT_ISSUER, aud: env.JWT_AUDIENCE, iat: now(), exp: now() + 60 })}.`;
    await expect401(bearer(unsigned), "Invalid authentication credentials");
  });

  it("stops working at once when the user is deactivated", async () => {
    const user = await createUser();
    const session = await sessionFor(user);
    await env.DB.prepare("UPDATE users SET is_active = 0 WHERE id = ?").bind(user.id).run();
    await expect401(bearer(session), "Invalid authentication credentials");
  });
});
