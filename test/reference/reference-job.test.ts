import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runJobNow, serveFeeds } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

describe("the reference job", () => {
  it("updates a changed currency symbol, adds a new language and deletes nothing", async () => {
    const rows = async (table: string) => (await env.DB.prepare(`SELECT * FROM ${table}`).all<Record<string, unknown>>()).results;
    const strip = ({ id: _id, ...rest }: Record<string, unknown>) => rest;
    const camel = (row: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
    const countries = (await rows("countries")).map(strip).map(camel);
    const currencies = (await rows("currencies"))
      .map(strip)
      .map(camel)
      .map((c) => (c.code === "GBP" ? { ...c, symbol: "GB£" } : c));
    const languages = [...(await rows("languages")).map(strip).map(camel), { code: "xx", name: "Testisch", nameEn: "Testish", baseCode: null }];
    serveFeeds({ "https://feeds.test/reference.json": JSON.stringify({ countries: countries.slice(1), currencies, languages }) });
    const run = await runJobNow("reference");
    expect(run).toMatchObject({ status: "succeeded", counts: { inserted: 1, updated: 1, closed: 0 } });
    expect(await env.DB.prepare("SELECT symbol FROM currencies WHERE code = 'GBP'").first()).toEqual({ symbol: "GB£" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM countries").first()).toEqual({ n: 249 });
  });

  it("keeps the seed's corrections a feed knows nothing of: withdrawn codes, new codes, numeric country codes", async () => {
    const rows = async (table: string) => (await env.DB.prepare(`SELECT * FROM ${table}`).all<Record<string, unknown>>()).results;
    const asFeed = (row: Record<string, unknown>, without: string[] = []) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([k]) => !["id", ...without].includes(k))
          .map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
      );
    // A feed of the old kind: no withdrawn dates, no numeric country codes, no XCG or XAD.
    const currencies = (await rows("currencies")).filter((c) => !["XCG", "XAD"].includes(c.code as string)).map((c) => asFeed(c, ["withdrawn"]));
    serveFeeds({
      "https://feeds.test/reference.json": JSON.stringify({
        countries: (await rows("countries")).map((c) => asFeed(c, ["numeric_code"])),
        currencies,
        languages: (await rows("languages")).map((l) => asFeed(l)),
      }),
    });
    expect(await runJobNow("reference")).toMatchObject({ status: "succeeded", counts: { inserted: 0, updated: 0, closed: 0 } });
    expect(
      await env.DB.prepare("SELECT code, withdrawn FROM currencies WHERE code IN ('ANG', 'XCG') ORDER BY code")
        .all()
        .then((r) => r.results),
    ).toEqual([
      { code: "ANG", withdrawn: "2025-03" },
      { code: "XCG", withdrawn: null },
    ]);
    expect(await env.DB.prepare("SELECT numeric_code FROM countries WHERE code = 'AT'").first()).toEqual({ numeric_code: "040" });
  });
});
