import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { keyUpkeep } from "../../src/accounts/keys";
import { forgetPendingKeyUsage, USAGE_FLUSH_MS } from "../../src/platform/auth/key-usage";
import type { User } from "../../src/platform/auth/tables";
import { database } from "../../src/platform/database";
import { accountJson, bearer, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { call, callWorker, getWithSecret } from "../helpers/requests";

const STANDARD_DE = "/std/api/bigdata/taxrate/country/DE/standard";

interface Issued {
  id: number;
  token: string;
  secret: string;
}
interface AuditPage {
  data: {
    id: number;
    action: string;
    actor_user_id: number | null;
    actor_key_id: number | null;
    key_id: number | null;
    detail: Record<string, unknown>;
  }[];
  total: number;
  page: number;
  size: number;
}
interface Usage {
  key_id: number;
  since: string;
  total_requests: number;
  data: { day: string; group: string; status: number; requests: number }[];
}

afterEach(() => vi.restoreAllMocks());

let owner: User;
let jwt: string;
let adminJwt: string;
beforeAll(async () => {
  owner = await createUser({ plan: "enterprise" });
  [jwt, adminJwt] = await Promise.all([sessionFor(owner), createUser({ role: "admin" }).then(sessionFor)]);
});

const auditOf = async (userId: number, token: string, query = "") => accountJson("GET", `/api/users/${userId}/audit${query}`, token);

describe("the account audit log", () => {
  it("records keys created, rolled, revoked (once) and expired, and the user changed, with who acted, newest first", async () => {
    const { id } = await (await accountJson("POST", "/api/tokens", jwt, { name: "audited", scopes: ["taxrate:read"] })).json<Issued>();
    const actingKey = await (await accountJson("POST", "/api/tokens", jwt, { name: "actor" })).json<Issued>();
    expect((await accountJson("POST", `/api/tokens/${id}/roll`, actingKey.token, { overlap_seconds: 60 })).status).toBe(200);
    expect((await accountJson("DELETE", `/api/tokens/${id}`, jwt)).status).toBe(200);
    expect((await accountJson("DELETE", `/api/tokens/${id}`, jwt)).status).toBe(200);
    expect((await accountJson("PUT", `/api/users/${owner.id}`, adminJwt, { full_name: "Ada Audited", email: owner.email })).status).toBe(200);
    const expiring = await (
      await accountJson("POST", "/api/tokens", jwt, { name: "expiring", expires_at: new Date(Date.now() + 60_000).toISOString() })
    ).json<Issued>();
    // A refused create writes no event.
    expect((await accountJson("POST", "/api/tokens", jwt, { name: "" })).status).toBe(422);

    vi.spyOn(Date, "now").mockReturnValue(Date.now() + 61_000);
    await keyUpkeep(database(env));
    await keyUpkeep(database(env));
    vi.restoreAllMocks();

    const page = await (await auditOf(owner.id, jwt)).json<AuditPage>();
    const mine = page.data.filter((e) => e.key_id === id || e.key_id === expiring.id || e.action.startsWith("user."));
    expect(mine.map((e) => e.action)).toEqual(["key.expired", "key.created", "user.updated", "key.revoked", "key.rolled", "key.created"]);
    const [expired, , updated, revoked, rolled, created] = mine;
    expect(expired).toMatchObject({ key_id: expiring.id, actor_user_id: null, detail: { name: "expiring" } });
    expect(updated).toMatchObject({ key_id: null, detail: { to: { full_name: "Ada Audited" } } });
    expect(updated!.actor_user_id).not.toBe(owner.id);
    expect(revoked).toMatchObject({ actor_user_id: owner.id, actor_key_id: null });
    expect(rolled).toMatchObject({
      actor_user_id: owner.id,
      actor_key_id: actingKey.id,
      detail: { name: "audited", previous_valid_until: expect.any(String) },
    });
    expect(created).toMatchObject({ detail: { name: "audited", scopes: ["taxrate:read"], expires_at: null, allowed_ips: null } });
    expect(JSON.stringify(page)).not.toContain(actingKey.token);
  });

  it("records a deactivation, readable by an admin", async () => {
    const user = await createUser();
    expect((await accountJson("DELETE", `/api/users/${user.id}`, adminJwt)).status).toBe(200);
    const page = await (await auditOf(user.id, adminJwt)).json<AuditPage>();
    expect(page.data.map((e) => e.action)).toEqual(["user.deactivated"]);
  });

  it("pages by page and size", async () => {
    const user = await createUser({ plan: "enterprise" });
    const session = await sessionFor(user);
    for (const name of ["a", "b", "c"]) await accountJson("POST", "/api/tokens", session, { name });
    const first = await (await auditOf(user.id, session, "?size=2")).json<AuditPage>();
    const second = await (await auditOf(user.id, session, "?size=2&page=1")).json<AuditPage>();
    expect(first).toMatchObject({ total: 3, page: 0, size: 2 });
    expect(first.data.map((e) => e.detail.name)).toEqual(["c", "b"]);
    expect(second.data.map((e) => e.detail.name)).toEqual(["a"]);
  });

  it("is refused to another user (403), to a key without users:read (403), and answers 404 for no such user and 422 for a page too large", async () => {
    const other = await sessionFor(await createUser());
    const refused = await auditOf(owner.id, other);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "Insufficient permissions" });
    const tokensOnly = await (await accountJson("POST", "/api/tokens", jwt, { name: "tokens only", scopes: ["tokens:*"] })).json<Issued>();
    expect((await auditOf(owner.id, tokensOnly.token)).status).toBe(403);
    expect((await auditOf(2_000_000_000, adminJwt)).status).toBe(404);
    const tooLarge = await auditOf(owner.id, jwt, "?size=101");
    expect(tooLarge.status).toBe(422);
    expect(await tooLarge.json()).toEqual({ detail: [{ loc: ["size"], msg: "size must be at most 100" }] });
  });
});

describe("usage per key", () => {
  const usageOf = (id: number, token = jwt, query = "") => accountJson("GET", `/api/tokens/${id}/usage${query}`, token);

  it("counts a key's requests by day, group and status, written after the answers", async () => {
    // Its key's id past any other file of this workerd takes: after a rollback of the storage the
    // ids are used again, and another file's counts, written after its answers, can land under one.
    await env.DB.prepare("UPDATE sqlite_sequence SET seq = seq + 10000 WHERE name = 'api_keys'").run();
    const key = await (await accountJson("POST", "/api/tokens", jwt, { name: "counted" })).json<Issued>();
    // The interval starts now, whenever an earlier test in this isolate moved the clock and wrote.
    forgetPendingKeyUsage();
    await getWithSecret(STANDARD_DE, key);
    await getWithSecret(STANDARD_DE, key);
    await getWithSecret("/std/api/bigdata/taxrate/country/XX/standard", key);
    await call("/api/tokens", { headers: bearer(key.token) });
    // The next request after the flush interval adds what this isolate counted; it answers here
    // once that write is done (a busy machine took over a second).
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + USAGE_FLUSH_MS + 1);
    await callWorker("/api/tokens", { headers: bearer(key.token) });
    vi.restoreAllMocks();

    const today = new Date().toISOString().slice(0, 10);
    const usage = await (await usageOf(key.id)).json<Usage>();
    expect(usage.key_id).toBe(key.id);
    expect(usage.total_requests, JSON.stringify(usage)).toBe(5);
    expect(usage.data).toEqual(
      expect.arrayContaining([
        { day: today, group: "tax", status: 200, requests: 2 },
        { day: today, group: "tax", status: 404, requests: 1 },
        { day: today, group: "accounts", status: 200, requests: 2 },
      ]),
    );
  });

  it("hides another account's key (404) and refuses more than 90 days (422)", async () => {
    const theirs = await createTestKey();
    const res = await usageOf(theirs.keyId);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not found" });
    const { id } = await (await accountJson("POST", "/api/tokens", jwt, { name: "ninety" })).json<Issued>();
    expect((await usageOf(id, jwt, "?days=91")).status).toBe(422);
    expect((await usageOf(id, jwt, "?days=7")).status).toBe(200);
  });

  it("keeps 90 days: the upkeep deletes older counts", async () => {
    const { id } = await (await accountJson("POST", "/api/tokens", jwt, { name: "old usage" })).json<Issued>();
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    for (const ago of [89, 95]) {
      await env.DB.prepare("INSERT INTO key_usage_daily (key_id, day, route_group, status, requests) VALUES (?, ?, 'tax', 200, 3)")
        .bind(id, day(ago))
        .run();
    }
    await keyUpkeep(database(env));
    // Only the days this test wrote: the pool reuses key ids after a rollback, and another test's
    // counts of today, written after the answer, can land under this id.
    const { results } = await env.DB.prepare("SELECT day FROM key_usage_daily WHERE key_id = ? AND day < ?").bind(id, day(0)).all<{ day: string }>();
    expect(results.map((r) => r.day)).toEqual([day(89)]);
    const shown = (await (await usageOf(id)).json<Usage>()).data.filter((row) => row.day < day(0));
    expect(shown).toEqual([{ day: day(89), group: "tax", status: 200, requests: 3 }]);
  });
});
