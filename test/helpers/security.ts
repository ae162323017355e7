import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { FALLBACK_SURFACES, GROUPS } from "../../src/groups";
import type { AccessRule } from "../../src/platform/auth/access-policy";
import { apps } from "../../src/pickup/schema";
import { database } from "../../src/platform/database";
import { surfaceResolver } from "../../src/platform/group";
import { createUser, sessionFor } from "./accounts";
import { createTestKey, deactivateUser, revokeKey, type TestKey } from "./credentials";
import { createTestTenant, deactivateTenant, revokeTenantKeys, tenantKey } from "./content";
import { createTestApp, type TestApp } from "./pickups";
import { callWorker } from "./requests";

const envelopeOf = surfaceResolver([...FALLBACK_SURFACES, ...GROUPS.flatMap((g) => g.surfaces)], "data");

export interface Route {
  method: string;
  /** A request path for the route: each `:param` filled with 1. */
  path: string;
  rule: AccessRule;
}

export interface Credentials {
  /** Scoped to a resource no route of the gateway's groups uses for its own checks. */
  otherScope: TestKey;
  revoked: TestKey;
  deactivated: TestKey;
  nonAdmin: TestKey;
  app: TestApp;
  revokedApp: TestApp;
  deactivatedApp: TestApp;
  session: string;
  /** Group C: a tenant with a full key, a key of another scope, a revoked key, a deactivated tenant's key. */
  tenantKey: string;
  tenantOtherScope: string;
  tenantRevoked: string;
  tenantDeactivated: string;
}

export async function securityCredentials(): Promise<Credentials> {
  const revoked = await createTestKey();
  await revokeKey(revoked.keyId);
  const deactivated = await createTestKey();
  await deactivateUser(deactivated.userId);
  const revokedApp = await createTestApp();
  await database(env).update(apps).set({ isActive: false }).where(eq(apps.id, revokedApp.appId));
  const deactivatedApp = await createTestApp();
  const [owner] = await database(env).select({ userId: apps.userId }).from(apps).where(eq(apps.id, deactivatedApp.appId));
  await deactivateUser(owner!.userId);
  return {
    // A scope of a resource no key-guarded route asks for (group C's routes take tenant keys).
    otherScope: await createTestKey({ scopes: ["content:read"] }),
    revoked,
    deactivated,
    nonAdmin: await createTestKey(),
    app: await createTestApp(),
    revokedApp,
    deactivatedApp,
    session: await sessionFor(await createUser()),
    ...(await tenantKeys()),
  };
}

async function tenantKeys() {
  const tenant = await createTestTenant();
  const revokedTenant = await createTestTenant();
  await revokeTenantKeys(revokedTenant.tenantId);
  const deactivated = await createTestTenant();
  await deactivateTenant(deactivated.tenantId);
  return {
    tenantKey: tenant.token,
    tenantOtherScope: await tenantKey(tenant, { scopes: ["miniprogram:read"] }),
    tenantRevoked: revokedTenant.token,
    tenantDeactivated: deactivated.token,
  };
}

export interface Attempt {
  name: string;
  headers: Record<string, string>;
  status: 401 | 403;
}

/** A rule that names no scope (an MCP endpoint: each tool call checks its route's) has no wrong scope. */
const wrongScope = (rule: AccessRule, attempt: Attempt): Attempt[] => (rule.resource ? [attempt] : []);

/**
 * The ways a caller can hold the wrong credential for a rule, with the status each must get. The
 * wrong secret is tried on a key of its own, as ten failures a minute throttle a key.
 */
export async function wrongCredentials(rule: AccessRule, creds: Credentials): Promise<Attempt[]> {
  const dataKey = (key: TestKey) => ({ "X-API-Key": key.token, "X-API-Secret": key.secret });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  switch (rule.credential) {
    case "data-key":
    case "data-key-secret":
      return [
        { name: "no credential", headers: {}, status: 401 },
        { name: "malformed key", headers: { "X-API-Key": "not-a-key", "X-API-Secret": "x" }, status: 401 },
        { name: "wrong secret", headers: { ...dataKey(await createTestKey()), "X-API-Secret": "svc_ss_wrong" }, status: 401 },
        { name: "wrong credential kind (bearer)", headers: bearer(creds.nonAdmin.token), status: 401 },
        ...(rule.adminOnly
          ? [{ name: "a user's key on an admin route", headers: dataKey(creds.nonAdmin), status: 403 as const }]
          : wrongScope(rule, { name: "wrong scope", headers: dataKey(creds.otherScope), status: 403 })),
        { name: "revoked key", headers: dataKey(creds.revoked), status: 401 },
        { name: "deactivated user", headers: dataKey(creds.deactivated), status: 401 },
      ];
    case "bearer":
    case "session":
    case "member":
      return [
        { name: "no credential", headers: {}, status: 401 },
        { name: "malformed header", headers: { Authorization: "Basic dXNlcjpwYXNz" }, status: 401 },
        { name: "unknown key", headers: bearer("svc_sk_0000000000000000000000000000000000000000"), status: 401 },
        { name: "forged JWT", headers: bearer(`${creds.session.slice(0, -4)}AAAA`), status: 401 },
        { name: "wrong credential kind (appToken)", headers: { Authorization: `appToken ${creds.app.appToken}` }, status: 401 },
        rule.credential !== "bearer"
          ? { name: "an API key where a session is needed", headers: bearer(creds.nonAdmin.token), status: 401 }
          : { name: "wrong scope", headers: bearer(creds.otherScope.token), status: 403 },
        { name: "revoked key", headers: bearer(creds.revoked.token), status: 401 },
        { name: "deactivated user", headers: bearer(creds.deactivated.token), status: 401 },
      ];
    case "app-token":
      return [
        { name: "no credential", headers: {}, status: 401 },
        { name: "malformed header", headers: { Authorization: "appToken" }, status: 401 },
        { name: "unknown token", headers: { Authorization: "appToken svc_at_unknown" }, status: 401 },
        { name: "wrong credential kind (bearer key)", headers: bearer(creds.nonAdmin.token), status: 401 },
        { name: "revoked app", headers: { Authorization: `appToken ${creds.revokedApp.appToken}` }, status: 401 },
        { name: "deactivated user", headers: { Authorization: `appToken ${creds.deactivatedApp.appToken}` }, status: 401 },
      ];
    case "tenant-key":
      return [
        { name: "no credential", headers: {}, status: 401 },
        { name: "malformed key", headers: { "X-API-Key": "svc_tk_short" }, status: 401 },
        { name: "unknown key", headers: { "X-API-Key": `svc_tk_${"0".repeat(40)}` }, status: 401 },
        { name: "wrong credential kind (data key)", headers: dataKey(creds.nonAdmin), status: 401 },
        ...wrongScope(rule, { name: "wrong scope", headers: { "X-API-Key": creds.tenantOtherScope }, status: 403 }),
        { name: "revoked key", headers: { "X-API-Key": creds.tenantRevoked }, status: 401 },
        { name: "deactivated tenant", headers: { "X-API-Key": creds.tenantDeactivated }, status: 401 },
      ];
    case "public":
      return [];
    default:
      // A group that brings a credential kind brings its wrong-credential cases here too.
      throw new Error(`no wrong-credential cases for the credential ${rule.credential}`);
  }
}

/**
 * One wrong credential against one route: the documented status in the route's envelope, never
 * a 2xx and never a 5xx. The request goes to the Worker's handler itself, not through `SELF`:
 * the walk sends some 4,500 requests, and the binding's round trip took three quarters of its time.
 */
export async function expectRefused(route: Route, attempt: Attempt) {
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  const res = await callWorker(route.path, {
    method: route.method,
    headers: { ...attempt.headers, ...(hasBody ? { "Content-Type": "application/json" } : {}) },
    body: hasBody ? JSON.stringify({ bizContent: {} }) : undefined,
  });
  const label = `${route.method} ${route.path}: ${attempt.name}`;
  expect(res.status, label).toBe(attempt.status);
  const body = await res.json<Record<string, unknown>>();
  const envelope = envelopeOf(route.path);
  if (envelope === "account") expect(typeof body.detail, label).toBe("string");
  else if (envelope === "tenant") expect(body, label).toMatchObject({ success: false });
  else expect(body, label).toMatchObject({ code: attempt.status, data: null });
}
