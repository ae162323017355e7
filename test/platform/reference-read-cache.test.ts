import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../src/platform/database";
import { bumpDataVersion, dataVersion, forgetDataVersions } from "../../src/platform/read-cache";
import { createTestKey } from "../helpers/credentials";
import { call, getWithSecret, secretHeaders } from "../helpers/requests";

const COUNTRY_DE = "/std/api/bigdata/taxrate/country/DE";

describe("T and O answers kept under the data's version", () => {
  it("answers again from the cache, with an ETag, and 304 to a client that has it", async () => {
    const key = await createTestKey();
    const first = await getWithSecret(COUNTRY_DE, key);
    const second = await getWithSecret(COUNTRY_DE, key);
    expect(second.headers.get("X-Cache")).toBe("HIT");
    expect(await second.text()).toBe(await first.text());
    const etag = second.headers.get("ETag")!;
    expect(etag).toMatch(/^"v\d+-[0-9a-f]{16}"$/);
    const revalidated = await call(COUNTRY_DE, { headers: { ...secretHeaders(key), "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("ETag")).toBe(etag);
    expect(await revalidated.text()).toBe("");
  });

  it("keeps one answer for a query written in any order, and one for a path with or without an empty query", async () => {
    const key = await createTestKey();
    // A new version: no other test's answer is kept under it.
    forgetDataVersions();
    await bumpDataVersion(database(env));
    const LIST = "/std/api/bigdata/taxrate/list";
    const first = await getWithSecret(`${LIST}?page=0&size=7`, key);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const reordered = await getWithSecret(`${LIST}?size=7&page=0`, key);
    expect(reordered.headers.get("X-Cache")).toBe("HIT");
    expect(await reordered.text()).toBe(await first.text());
    expect((await getWithSecret(`${LIST}?page=1&size=7`, key)).headers.get("X-Cache")).toBe("MISS");
    expect((await getWithSecret("/std/api/bigdata/taxrate/types", key)).headers.get("X-Cache")).toBe("MISS");
    expect((await getWithSecret("/std/api/bigdata/taxrate/types?", key)).headers.get("X-Cache")).toBe("HIT");
  });

  it("sends a kept answer over a kilobyte gzipped once to a caller that accepts gzip", async () => {
    const key = await createTestKey();
    const LIST = "/std/api/bigdata/taxrate/list?page=0&size=20";
    const plain = await getWithSecret(LIST, key);
    const json = await plain.text();
    expect(json.length).toBeGreaterThan(1024);
    const gzipped = await call(LIST, { headers: { ...secretHeaders(key), "Accept-Encoding": "gzip" } });
    expect([gzipped.headers.get("Content-Encoding"), gzipped.headers.get("X-Cache"), gzipped.headers.get("Vary")]).toEqual([
      "gzip",
      "HIT",
      "Accept-Encoding",
    ]);
    expect(await gzipped.text()).toBe(json);
    // A short answer is not worth compressing: sent as it is, whatever the caller accepts.
    const TYPES = "/std/api/bigdata/taxrate/types";
    expect((await (await getWithSecret(TYPES, key)).text()).length).toBeLessThan(1024);
    const short = await call(TYPES, { headers: { ...secretHeaders(key), "Accept-Encoding": "gzip" } });
    expect([short.headers.get("Content-Encoding"), short.headers.get("Vary")]).toEqual([null, null]);
  });

  it("misses once a job run or seed bumps the version", async () => {
    const key = await createTestKey();
    const before = await getWithSecret(COUNTRY_DE, key);
    const db = database(env);
    forgetDataVersions();
    const version = await dataVersion(db);
    await bumpDataVersion(db);
    const after = await getWithSecret(COUNTRY_DE, key);
    expect(after.headers.get("X-Cache")).toBe("MISS");
    expect(after.headers.get("ETag")).toMatch(new RegExp(`^"v${version + 1}-`));
    expect(after.headers.get("ETag")).not.toBe(before.headers.get("ETag"));
  });

  it("checks who calls on every request, cached or not", async () => {
    const key = await createTestKey();
    await getWithSecret(COUNTRY_DE, key);
    expect((await call(COUNTRY_DE)).status).toBe(401);
    expect((await getWithSecret(COUNTRY_DE, { ...key, secret: "svc_ss_wrong" })).status).toBe(401);
    const other = await createTestKey({ scopes: ["reference:read"] });
    expect((await getWithSecret(COUNTRY_DE, other)).status).toBe(403);
  });

  it("keys a POST query on its business parameters, however they are encoded", async () => {
    const key = await createTestKey();
    const bizContent = { keywords: "steel tubes", size: 5 };
    const asJson = await call("/std/open/hs-code/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent }),
    });
    const asForm = await call("/std/open/hs-code/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ bizContent: JSON.stringify(bizContent) }).toString(),
    });
    expect(asForm.headers.get("X-Cache")).toBe("HIT");
    expect(await asForm.text()).toBe(await asJson.text());
    const other = await call("/std/open/hs-code/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: { keywords: "wooden chairs", size: 5 } }),
    });
    expect(other.headers.get("X-Cache")).toBe("MISS");
  });

  it("does not keep a refusal or a validation error", async () => {
    const key = await createTestKey();
    const bad = await call("/std/open/hs-code/list", {
      method: "POST",
      headers: { ...secretHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ bizContent: { size: 5000 } }),
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("X-Cache")).toBeNull();
  });
});
