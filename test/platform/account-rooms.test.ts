import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountJson, createUser, sessionFor } from "../helpers/accounts";
import { createTestKey } from "../helpers/credentials";
import { deposits } from "../helpers/miniprograms";

// Anyone can sign up: what an account piles up (keys it revokes, apps it deletes, configurations)
// is bounded, counted in the write's own batch. Large counts are written in one statement here.

/** `n` rows for `userId` in one statement: `values` is a row's values with `i` its number. */
async function rowsOf(table: string, columns: string, values: string, userId: number, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE numbers(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM numbers WHERE i < ?2)
     INSERT INTO ${table} (${columns}) SELECT ${values} FROM numbers`,
  )
    .bind(userId, n)
    .run();
}

const revokedKeys = (userId: number, n: number) =>
  rowsOf(
    "api_keys",
    "user_id, name, token_hash, masked_token, encrypted_secret, is_active",
    `?1, 'old ' || i, 'hash-' || ?1 || '-' || i, 'svc_sk_…', 'sealed', 0`,
    userId,
    n,
  );
const count = async (sql: string, userId: number) => (await env.DB.prepare(sql).bind(userId).first<{ n: number }>())!.n;

describe("API4 · an account's API keys, revoked ones included", () => {
  it("keeps at most 1,000: the one past them is refused in A's words, and nothing of it is written", async () => {
    const user = await createUser({ plan: "basic" });
    const session = await sessionFor(user);
    await revokedKeys(user.id, 998);
    expect((await accountJson("POST", "/api/tokens", session, { name: "the 999th" })).status).toBe(201);
    expect((await accountJson("POST", "/api/tokens", session, { name: "the 1,000th" })).status).toBe(201);
    const refused = await accountJson("POST", "/api/tokens", session, { name: "one too many" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ detail: "An account keeps at most 1,000 API keys, revoked ones included: ask the operator for more" });
    expect(await count("SELECT count(*) AS n FROM api_keys WHERE user_id = ?", user.id)).toBe(1_000);
    expect(await count("SELECT count(*) AS n FROM account_audit_events WHERE user_id = ? AND action = 'key.created'", user.id)).toBe(2);
    // Another account is not counted.
    expect((await accountJson("POST", "/api/tokens", await sessionFor(await createUser()), { name: "theirs" })).status).toBe(201);
  });

  it("lets exactly the plan's allowance through when keys are created at the same moment", async () => {
    const session = await sessionFor(await createUser({ plan: "free" }));
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => accountJson("POST", "/api/tokens", session, { name: `burst ${i}` })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    for (const res of answers.filter((answer) => answer.status === 409)) {
      expect(await res.json()).toEqual({ detail: "Key limit reached: the free plan allows 5 active keys; revoke one first" });
    }
  });
});

describe("API4 · an account's pickup apps, deleted ones included", () => {
  it("keeps at most 100, and apps created at the same moment pass only as far as there is room", async () => {
    const user = await createUser();
    const session = await sessionFor(user);
    await rowsOf(
      "apps",
      "user_id, name, token_hash, masked_token, encrypted_webhook_secret, is_active",
      `?1, 'old ' || i, 'app-' || ?1 || '-' || i, 'svc_at_…', 'sealed', 0`,
      user.id,
      97,
    );
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => accountJson("POST", "/api/apps", session, { name: `burst ${i}` })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409]);
    // The apps are made through group A: its envelope.
    expect(await answers.find((res) => res.status === 409)!.json()).toEqual({
      detail: "An account keeps at most 100 pickup apps, deleted ones included: ask the operator for more",
    });
    expect(await count("SELECT count(*) AS n FROM apps WHERE user_id = ?", user.id)).toBe(100);
    const list = await (await accountJson("GET", "/api/apps", session)).json<{ total: number }>();
    expect(list.total).toBe(100);
  });
});

describe("API4 · an account's mini-program configurations", () => {
  it("keeps at most 1,000: the one past them is refused in D's envelope, with no step left of it", async () => {
    const key = await createTestKey({ scopes: ["miniprogram:write"] });
    await rowsOf("miniprograms", "owner_id, name", `?1, 'old ' || i`, key.userId, 999);
    const created = await deposits<{ id: number }>("/minipram/create", key, { name: "The 1,000th" });
    expect(created.status).toBe(200);
    const refused = await deposits("/minipram/create", key, { name: "One too many" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      error: { message: "An account keeps at most 1,000 mini-program configurations: ask the operator for more" },
    });
    expect(await count("SELECT count(*) AS n FROM miniprograms WHERE owner_id = ?", key.userId)).toBe(1_000);
    const steps = await env.DB.prepare(
      "SELECT count(*) AS n FROM miniprogram_steps WHERE miniprogram_id IN (SELECT id FROM miniprograms WHERE owner_id = ?)",
    )
      .bind(key.userId)
      .first<{ n: number }>();
    expect(steps!.n).toBe(1);
  });
});
