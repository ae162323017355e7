import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import { describe, expect, it } from "vitest";
import { createTestKey, deactivateUser, revokeKey } from "../helpers/credentials";
import { call, documentedSigningString, envelope, freshNonce, getWithSecret, hmacHex, signedHeaders } from "../helpers/requests";

const STANDARD_DE = "/std/api/bigdata/taxrate/country/DE/standard";

async function expectUnauthorized(res: Response, msg: string) {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ code: 401, msg, data: null });
}

describe("API2 · X-API-Key with X-API-Secret", () => {
  it("accepts the key with its secret", async () => {
    const key = await createTestKey();
    const res = await getWithSecret(STANDARD_DE, key);
    expect(res.status).toBe(200);
    expect((await envelope<{ rateValue: number }>(res)).data.rateValue).toBe(19);
  });

  it("refuses a request without X-API-Key, and says where the key goes when it came as a Bearer token", async () => {
    await expectUnauthorized(await call(STANDARD_DE), "X-API-Key header required");
    const key = await createTestKey();
    await expectUnauthorized(
      await call(STANDARD_DE, { headers: { Authorization: `Bearer ${key.token}` } }),
      "X-API-Key header required: these groups take the key as X-API-Key, with X-API-Secret or a signature, not as Authorization: Bearer",
    );
  });

  it("refuses an unknown key", async () => {
    const key = await createTestKey();
    await expectUnauthorized(
      await getWithSecret(STANDARD_DE, { token: `${key.token.slice(0, -1)}${key.token.endsWith("x") ? "y" : "x"}`, secret: key.secret }),
      "Invalid authentication credentials",
    );
  });

  it("says a key of another kind (a tenant's) is not a data-service key", async () => {
    const key = await createTestKey();
    await expectUnauthorized(
      await getWithSecret(STANDARD_DE, { token: "svc_tk_0123456789abcdefghijklmnopqrstuvwxyzABCD", secret: key.secret }),
      "Not a data-service key: these groups take a key that starts with svc_sk_, with X-API-Secret or a signature (a key of another kind, a tenant's, is for that group's API)",
    );
  });

  it("refuses a wrong secret", async () => {
    const key = await createTestKey();
    await expectUnauthorized(await getWithSecret(STANDARD_DE, { token: key.token, secret: `${key.secret}0` }), "Invalid authentication credentials");
  });

  it("refuses another key's secret", async () => {
    const [mine, theirs] = await Promise.all([createTestKey(), createTestKey()]);
    await expectUnauthorized(await getWithSecret(STANDARD_DE, { token: mine.token, secret: theirs.secret }), "Invalid authentication credentials");
  });

  it("refuses a key with neither secret nor signature", async () => {
    const key = await createTestKey();
    await expectUnauthorized(await call(STANDARD_DE, { headers: { "X-API-Key": key.token } }), "X-API-Secret or X-Signature header required");
  });

  it("refuses a revoked key on the next request", async () => {
    const key = await createTestKey();
    expect((await getWithSecret(STANDARD_DE, key)).status).toBe(200);
    await revokeKey(key.keyId);
    await expectUnauthorized(await getWithSecret(STANDARD_DE, key), "API key has been revoked");
  });

  it("refuses the key of a deactivated user", async () => {
    const key = await createTestKey();
    await deactivateUser(key.userId);
    await expectUnauthorized(await getWithSecret(STANDARD_DE, key), "Invalid authentication credentials");
  });

  it("refuses an expired key", async () => {
    const key = await createTestKey({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    await expectUnauthorized(await getWithSecret(STANDARD_DE, key), "API key has expired");
  });
});

describe("API5 · scopes", () => {
  it("refuses a key whose scopes do not cover tax rates, with 403", async () => {
    const key = await createTestKey({ scopes: ["reference:read"] });
    const res = await getWithSecret(STANDARD_DE, key);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, msg: "Insufficient permission: requires scope taxrate:read", data: null });
  });

  it.each([["taxrate:read"], ["taxrate:*"], ["*"]])("accepts a key with scope %s", async (scope) => {
    const key = await createTestKey({ scopes: [scope] });
    expect((await getWithSecret(STANDARD_DE, key)).status).toBe(200);
  });
});

describe("API2 · signed requests", () => {
  it("accepts the HMAC-SHA256 signature over the sorted query", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { params: { page: "1", size: "5" } });
    const res = await call("/std/api/bigdata/taxrate/list?size=5&page=1", { headers });
    expect(res.status).toBe(200);
    expect((await envelope<{ number: number; size: number }>(res)).data).toMatchObject({ number: 1, size: 5 });
  });

  it("signs a POST's array in bizContent as compact JSON, as documented, and a query parameter sent twice value by value", async () => {
    const key = await createTestKey();
    const timestamp = String(Date.now());
    const post = async (canonical: string, nonce = freshNonce()) =>
      call("/std/open/country/special", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-API-Key": key.token,
          "X-Timestamp": timestamp,
          "X-Nonce": nonce,
          "X-Signature": await hmacHex(key.secret, `${canonical}&timestamp=${timestamp}&nonce=${nonce}`),
        },
        body: JSON.stringify({ bizContent: { fields: ["flag", "capital"], ccode: "JP" } }),
      });
    expect((await post('ccode=JP&fields=["flag","capital"]')).status).toBe(200);
    expect((await post("ccode=JP&fields=capital&fields=flag")).status).toBe(401);
    const nonce = freshNonce();
    const signature = await hmacHex(key.secret, `page=1&size=5&size=6&timestamp=${timestamp}&nonce=${nonce}`);
    const twice = await call("/std/api/bigdata/taxrate/list?size=6&page=1&size=5", {
      headers: { "X-API-Key": key.token, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": signature },
    });
    expect(twice.status).not.toBe(401);
  });

  it("accepts the plain SHA-256 of the string followed by the secret", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { method: "sha256" });
    expect((await call(STANDARD_DE, { headers })).status).toBe(200);
  });

  it("accepts an upper-case hex signature", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key);
    headers["X-Signature"] = headers["X-Signature"].toUpperCase();
    expect((await call(STANDARD_DE, { headers })).status).toBe(200);
  });

  it("refuses a signature over other parameters than those sent", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { params: { page: "1" } });
    await expectUnauthorized(await call("/std/api/bigdata/taxrate/list?page=2", { headers }), "Invalid signature");
  });

  it("binds method and path with X-Signature-Version 2, so a signature cannot be replayed elsewhere", async () => {
    const key = await createTestKey();
    // Written from docs/authentication.md: "METHOD\npath\n" before the version 1 string.
    const v2 = async (path: string, method = "GET") => {
      const timestamp = String(Date.now());
      const nonce = freshNonce();
      const signature = await hmacHex(key.secret, `${method}\n${path}\n${documentedSigningString({}, timestamp, nonce)}`);
      return { "X-API-Key": key.token, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": signature, "X-Signature-Version": "2" };
    };
    expect((await call(STANDARD_DE, { headers: await v2(STANDARD_DE) })).status).toBe(200);
    // The same parameters (none) on another GET: valid under version 1, refused under version 2.
    const other = "/std/api/bigdata/taxrate/country/FR/standard";
    await expectUnauthorized(await call(other, { headers: await v2(STANDARD_DE) }), "Invalid signature");
    const v1 = await signedHeaders(key);
    expect((await call(other, { headers: v1 })).status).toBe(200);
    await expectUnauthorized(
      await call(STANDARD_DE, { headers: { ...(await v2(STANDARD_DE)), "X-Signature-Version": "3" } }),
      "X-Signature-Version must be 1 or 2",
    );
  });

  it("refuses a signature made with another secret", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders({ token: key.token, secret: "svc_ss_not-the-secret" });
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "Invalid signature");
  });

  it.each([
    ["more than 300 s old", () => String(Date.now() - 301_000)],
    ["more than 300 s ahead", () => String(Date.now() + 301_000)],
  ])("refuses a timestamp %s", async (_, timestamp) => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { timestamp: timestamp() });
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "X-Timestamp is more than 300 seconds away from server time");
  });

  it("says so when the timestamp is in seconds", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { timestamp: String(Math.floor(Date.now() / 1000)) });
    await expectUnauthorized(
      await call(STANDARD_DE, { headers }),
      "X-Timestamp is more than 300 seconds away from server time: it is in seconds; send epoch milliseconds (date +%s%3N)",
    );
  });

  it("accepts a timestamp 290 s old", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { timestamp: String(Date.now() - 290_000) });
    expect((await call(STANDARD_DE, { headers })).status).toBe(200);
  });

  it.each([["1700000000000.5"], ["yesterday"], [""]])("refuses the timestamp %j", async (timestamp) => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { timestamp });
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "X-Timestamp header required: epoch milliseconds as a string");
  });

  it.each([["short"], ["has spaces in it"], [""]])("refuses the nonce %j", async (nonce) => {
    const key = await createTestKey();
    const headers = await signedHeaders(key, { nonce });
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "X-Nonce header required: 8 to 64 letters, digits, '-' or '_'");
  });

  it("refuses a nonce the second time and keeps it in KV for 600 s", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key);
    expect((await call(STANDARD_DE, { headers })).status).toBe(200);
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "Nonce has already been used");
    const stored = await env.KV.getWithMetadata(`nonce:${key.keyId}:${headers["X-Nonce"]}`);
    expect(stored.value).toBe("1");
  });

  it("refuses a nonce another isolate recorded in KV", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key);
    await env.KV.put(`nonce:${key.keyId}:${headers["X-Nonce"]}`, "1", { expirationTtl: 600 });
    await expectUnauthorized(await call(STANDARD_DE, { headers }), "Nonce has already been used");
  });

  it("does not spend a nonce on a request with a bad signature", async () => {
    const key = await createTestKey();
    const good = await signedHeaders(key);
    await call(STANDARD_DE, { headers: { ...good, "X-Signature": "0".repeat(64) } });
    expect((await call(STANDARD_DE, { headers: good })).status).toBe(200);
  });

  it("lets only one of two requests with one nonce pass when they arrive at the same moment", async () => {
    const key = await createTestKey();
    const headers = await signedHeaders(key);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call(STANDARD_DE, { headers })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it("refuses version 1 signatures where the operator set SIGNATURE_VERSIONS to 2, and takes version 2", async () => {
    const key = await createTestKey();
    const onlyV2 = { ...env, SIGNATURE_VERSIONS: "2" };
    const ask = async (headers: Record<string, string>) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`https://gateway.test${STANDARD_DE}`, { headers }), onlyV2, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    await expectUnauthorized(
      await ask(await signedHeaders(key)),
      "X-Signature-Version: 2 is required: this service no longer accepts version 1 signatures, which do not bind the method and path",
    );
    const timestamp = String(Date.now());
    const nonce = freshNonce();
    const signature = await hmacHex(key.secret, `GET\n${STANDARD_DE}\n${documentedSigningString({}, timestamp, nonce)}`);
    expect(
      (await ask({ "X-API-Key": key.token, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": signature, "X-Signature-Version": "2" }))
        .status,
    ).toBe(200);
  });

  it("lets two keys use the same nonce", async () => {
    const [a, b] = await Promise.all([createTestKey(), createTestKey()]);
    const nonce = "shared-nonce-1234";
    expect((await call(STANDARD_DE, { headers: await signedHeaders(a, { nonce }) })).status).toBe(200);
    expect((await call(STANDARD_DE, { headers: await signedHeaders(b, { nonce }) })).status).toBe(200);
  });
});

describe("API2 · credentials at rest", () => {
  it("stores neither the token nor the secret in clear", async () => {
    const key = await createTestKey();
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(key.keyId).first<Record<string, unknown>>();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(key.token);
    expect(stored).not.toContain(key.secret);
    expect(stored).not.toContain(key.secret.slice(7));
    expect(row!.masked_token).toMatch(/^svc_sk_[0-9A-Za-z]{4}\*{8}[0-9A-Za-z]{4}$/);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
