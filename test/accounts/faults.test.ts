import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bearer, createUser, sessionFor } from "../helpers/accounts";
import { expectRetryLater, type Faults, forEachFault } from "../helpers/faults";
import { createTestKey } from "../helpers/credentials";
import { call, signedHeaders } from "../helpers/requests";

const UNAVAILABLE = { detail: "The service is temporarily unavailable; retry in a few seconds" };

const json = (method: string, jwt: string, body?: unknown): RequestInit => ({
  method,
  headers: { ...bearer(jwt), "Content-Type": "application/json" },
  body: body === undefined ? undefined : JSON.stringify(body),
});

async function count(sql: string, ...values: unknown[]): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${sql}`)
    .bind(...values)
    .first<{ n: number }>())!.n;
}

/**
 * One write at one failing call: the caller gets the answer or a 503 to retry, and once it has
 * retried (without faults) the work is stored exactly once.
 */
async function writeOnce(faults: Faults, path: string, init: RequestInit, done: number): Promise<void> {
  const res = await faults.fetch(path, init);
  if (res.status === done) return;
  expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
  expect((await call(path, init)).status).toBe(done);
}

describe("A writes while D1 or KV fails", () => {
  it("creates an API key all or nothing at every failing call, and a retry creates exactly one", async () => {
    const failed = await forEachFault(async (faults) => {
      const user = await createUser();
      await writeOnce(faults, "/api/tokens", json("POST", await sessionFor(user), { name: "ci", scopes: ["taxrate:read"] }), 201);
      expect(await count("api_keys WHERE user_id = ?", user.id)).toBe(1);
    });
    expect(failed.length).toBeGreaterThan(1);
  });

  it("revokes an API key at every failing call once retried", async () => {
    await forEachFault(async (faults) => {
      const user = await createUser();
      const jwt = await sessionFor(user);
      const { id } = await (await call("/api/tokens", json("POST", jwt, { name: "old" }))).json<{ id: number }>();
      await writeOnce(faults, `/api/tokens/${id}`, json("DELETE", jwt), 200);
      expect(await count("api_keys WHERE id = ? AND is_active = 0", id)).toBe(1);
    });
  });

  it("updates a user's name and e-mail together or not at all", async () => {
    await forEachFault(async (faults) => {
      const user = await createUser();
      const init = json("PUT", await sessionFor(user), { full_name: "Ada Lovelace", email: `ada-${user.id}@example.com` });
      const res = await faults.fetch(`/api/users/${user.id}`, init);
      const row = await env.DB.prepare("SELECT full_name, email FROM users WHERE id = ?")
        .bind(user.id)
        .first<{ full_name: string | null; email: string }>();
      if (res.status === 200) expect(row).toEqual({ full_name: "Ada Lovelace", email: `ada-${user.id}@example.com` });
      else {
        expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
        expect(row).toEqual({ full_name: user.fullName, email: user.email });
        expect((await call(`/api/users/${user.id}`, init)).status).toBe(200);
      }
    });
  });

  it("creates and revokes an app at every failing call, one app in the end", async () => {
    await forEachFault(async (faults) => {
      const user = await createUser({ plan: "basic" });
      const jwt = await sessionFor(user);
      await writeOnce(faults, "/api/apps", json("POST", jwt, { name: "warehouse", hot_api_key: "carrier-key-123" }), 201);
      expect(await count("apps WHERE user_id = ?", user.id)).toBe(1);
    });
    await forEachFault(async (faults) => {
      const jwt = await sessionFor(await createUser());
      const { id } = await (await call("/api/apps", json("POST", jwt, { name: "old" }))).json<{ id: number }>();
      await writeOnce(faults, `/api/apps/${id}`, json("DELETE", jwt), 200);
      expect(await count("apps WHERE id = ? AND is_active = 0", id)).toBe(1);
    });
  });

  it("keeps an Idempotency-Key's promise at every failing call: the retry with the same key creates no second key", async () => {
    await forEachFault(async (faults) => {
      const user = await createUser();
      const init = json("POST", await sessionFor(user), { name: "once" });
      init.headers = { ...(init.headers as Record<string, string>), "Idempotency-Key": `k-${user.id}` };
      const res = await faults.fetch("/api/tokens", init);
      if (res.status !== 201) {
        expect(await expectRetryLater(res)).toEqual(UNAVAILABLE);
        expect((await call("/api/tokens", init)).status).toBe(201);
      }
      expect(await count("api_keys WHERE user_id = ?", user.id)).toBe(1);
    });
  });

  it("answers a signed request whose nonce KV could not read or record with a 503, and never lets its nonce pass twice", async () => {
    const key = await createTestKey();
    const STANDARD_DE = "/std/api/bigdata/taxrate/country/DE/standard";
    await forEachFault(
      async (faults) => {
        const headers = await signedHeaders(key);
        const res = await faults.fetch(STANDARD_DE, { headers });
        if (res.status !== 200) {
          expect(await expectRetryLater(res)).toMatchObject({ code: 503, data: null });
        }
        // One nonce, three requests (the failed one and two sent at once later): at most one passes.
        const later = await Promise.all([call(STANDARD_DE, { headers }), call(STANDARD_DE, { headers })]);
        expect([res, ...later].filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
        expect(later.filter((answer) => answer.status === 401)).not.toEqual([]);
      },
      ["KV"],
    );
  });
});
