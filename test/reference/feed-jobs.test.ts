import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HS_SECTIONS_CSV, HS_SECTIONS_URL, HS_URL, hsCsv, runJobNow, serveFeeds, UNITS_URL, unitsCsv } from "../helpers/feeds";

afterEach(() => vi.restoreAllMocks());

const hsCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM hs_codes").first<{ n: number }>())!.n;
const hsRow = (code: string) => env.DB.prepare("SELECT code, description, parent, level, section FROM hs_codes WHERE code = ?").bind(code).first();

describe("the HS job", () => {
  it("loads the codes with their sections, then changes nothing on the same feed", async () => {
    serveFeeds({ [HS_URL]: hsCsv(), [HS_SECTIONS_URL]: HS_SECTIONS_CSV });
    const first = await runJobNow("hs");
    expect(first.status).toBe("succeeded");
    expect(first.counts).toEqual({ inserted: 97 * 2 + 1 + 2, updated: 0, closed: 0, unchanged: 0 });
    expect(await hsRow("09")).toEqual({ code: "09", description: "Goods of 09", parent: "I", level: 2, section: "I" });
    expect(await hsRow("II")).toEqual({ code: "II", description: "Vegetable products", parent: null, level: 0, section: "II" });

    const second = await runJobNow("hs");
    expect(second.counts).toEqual({ inserted: 0, updated: 0, closed: 0, unchanged: 197 });
  });

  it("updates a changed description, keeps the search index in step, and leaves sections alone without their feed", async () => {
    serveFeeds({ [HS_URL]: hsCsv({ description: (code) => (code === "42" ? "Leather articles; saddlery" : `Goods of ${code}`) }) });
    const run = await runJobNow("hs");
    expect(run.counts).toEqual({ inserted: 0, updated: 1, closed: 0, unchanged: 194 });
    expect(await hsRow("II")).not.toBeNull();
    const { results } = await env.DB.prepare(
      "SELECT h.code FROM hs_codes_fts f JOIN hs_codes h ON h.id = f.rowid WHERE hs_codes_fts MATCH 'saddlery'",
    ).all();
    expect(results).toEqual([{ code: "42" }]);
  });

  it.each([
    [
      "a CSV without the expected columns",
      "code,text\n01,Animals",
      "the HS feed is malformed: missing the columns section, hscode, description, parent, level",
    ],
    ["a code whose level does not fit", "section,hscode,description,parent,level\nI,011,Odd,01,4", 'the HS feed is malformed at code "011"'],
    ["a partial feed", hsCsv({ chapters: 40 }), "the HS feed is partial: 40 chapters of 97"],
  ])("fails on %s and changes nothing", async (_, csv, error) => {
    const before = await hsCount();
    serveFeeds({ [HS_URL]: csv });
    expect(await runJobNow("hs")).toMatchObject({ status: "failed", error });
    expect(await hsCount()).toBe(before);
  });

  it("refuses a feed that would remove most of the codes", async () => {
    const before = await hsCount();
    serveFeeds({
      [HS_URL]: hsCsv()
        .split("\n")
        .filter((line) => !/^I,\d{4},/.test(line))
        .join("\n"),
    });
    const run = await runJobNow("hs");
    expect(run.status).toBe("refused");
    // The 97 headings go, and chapter 42 returns to its old description.
    expect(run.error).toMatch(/^would change or retire 98 of 195 records/);
    expect(await hsCount()).toBe(before);
  });
});

describe("the units job", () => {
  it("loads active units, marks the commerce units with their reference and factor, and is idempotent", async () => {
    serveFeeds({ [UNITS_URL]: unitsCsv() });
    const first = await runJobNow("units");
    expect(first.status).toBe("succeeded");
    expect(first.counts!.inserted).toBe(1007);
    const pound = await env.DB.prepare(
      "SELECT u.origin, u.kind, u.factor, u.name_zh, r.code AS ref FROM units u JOIN units r ON r.id = u.ref_unit WHERE u.code = 'LBR'",
    ).first();
    expect(pound).toEqual({ origin: "base", kind: "mass", factor: "0.45359237", name_zh: "磅", ref: "KGM" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM units WHERE code = '05'").first()).toEqual({ n: 0 });
    expect((await runJobNow("units")).counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 1007 });
  });

  it("fails on a partial feed", async () => {
    serveFeeds({ [UNITS_URL]: unitsCsv(10) });
    expect(await runJobNow("units")).toMatchObject({ status: "failed", error: "the units feed is partial: 17 active units" });
  });
});

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
