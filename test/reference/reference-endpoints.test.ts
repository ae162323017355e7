import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestKey, type TestKey } from "../helpers/credentials";
import { HS_SECTIONS_CSV, HS_SECTIONS_URL, HS_URL, hsCsv, runJobNow, serveFeeds, UNITS_URL, unitsCsv } from "../helpers/feeds";
import { call, envelope, secretHeaders } from "../helpers/requests";

let key: TestKey;

beforeAll(async () => {
  key = await createTestKey({ scopes: ["reference:read"] });
  serveFeeds({ [HS_URL]: hsCsv(), [HS_SECTIONS_URL]: HS_SECTIONS_CSV, [UNITS_URL]: unitsCsv() });
  await runJobNow("hs");
  await runJobNow("units");
  vi.restoreAllMocks();
}, 60_000);
afterAll(() => vi.restoreAllMocks());

async function post<T = unknown>(path: string, bizContent: unknown, form = false) {
  const res = await call(`/std/open${path}`, {
    method: "POST",
    headers: { ...secretHeaders(key), "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json" },
    body: form ? new URLSearchParams({ bizContent: JSON.stringify(bizContent) }).toString() : JSON.stringify({ bizContent }),
  });
  return { status: res.status, body: await envelope<T>(res) };
}

type Page<T> = { total: number; page: number; size: number; items: T[] };

describe("O2 one country", () => {
  it("answers the country of a code, with its name filter", async () => {
    const { body } = await post("/country/special", { ccode: "JP", country: "japan", shipCountry: "DE" });
    expect(body.data).toMatchObject({ code: "JP", iso3: "JPN", numericCode: "392", phoneCode: "81", currencyCode: "JPY" });
  });

  it.each([
    ["AT", "040"],
    ["AF", "004"],
    ["BG", "100"],
    ["CW", "531"],
  ])("gives %s its three-digit ISO numeric code %s", async (ccode, numericCode) => {
    expect((await post("/country/special", { ccode })).body.data).toMatchObject({ code: ccode, numericCode });
  });

  it("gives Bulgaria the euro and Curaçao the Caribbean guilder", async () => {
    expect((await post("/country/special", { ccode: "BG" })).body.data).toMatchObject({ currencyCode: "EUR" });
    expect((await post("/country/special", { ccode: "CW" })).body.data).toMatchObject({ currencyCode: "XCG" });
  });

  it.each([
    [{ ccode: "XX" }, 404, "No country with code XX"],
    [{ ccode: "JP", country: "France" }, 404, 'Country JP is Japan, which does not match "France"'],
    [{ ccode: "JP", shipCountry: "QQ" }, 404, "No country with code QQ"],
    [{ ccode: "jp" }, 400, "bizContent.ccode must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE"],
    [{}, 400, "bizContent.ccode: is required"],
  ])("answers %j with %i", async (bizContent, status, msg) => {
    const res = await post("/country/special", bizContent);
    expect(res.status).toBe(status);
    expect(res.body.msg).toBe(msg);
  });
});

describe("O3 and O4 zones", () => {
  it("lists the 249 countries as top-level zones", async () => {
    const { body } = await post<{ code: string; parsent: number; nameEN: string; name: string }[]>("/zone/list", {});
    expect(body.data).toHaveLength(249);
    expect(body.data.every((z) => z.parsent === 0)).toBe(true);
    expect(body.data.find((z) => z.code === "DE")).toMatchObject({ name: "Deutschland", nameEN: "Germany" });
  });

  it("lists a country's subdivisions by its zone id", async () => {
    const germany = (await post<Page<{ id: number }>>("/zone/query", { code: "DE" })).body.data.items[0]!;
    const { body } = await post<Page<{ code: string; nameEN: string; name: string; parsent: number }>>("/zone/query", { parsent: germany.id });
    expect(body.data.total).toBe(16);
    expect(body.data.items.find((z) => z.code === "DE-BY")).toMatchObject({ nameEN: "Bavaria", name: "Bayern", parsent: germany.id });
  });

  it("finds zones by English name, and takes the parent id as a string too", async () => {
    const { body } = await post<Page<{ code: string }>>("/zone/query", { name_en: "Quebec" });
    expect(body.data.items.map((z) => z.code)).toContain("CA-QC");
    const china = (await post<Page<{ id: number }>>("/zone/query", { code: "CN" })).body.data.items[0]!;
    const provinces = await post<Page<unknown>>("/zone/query", { parsent: String(china.id), size: 5, page: 2 });
    expect(provinces.body.data).toMatchObject({ page: 2, size: 5 });
    expect(provinces.body.data.items).toHaveLength(5);
  });

  it.each([
    [{ parsent: -1 }, "bizContent.parsent: must be at least 0"],
    [{ parsent: "x" }, "bizContent.parsent: must be an integer"],
    [{ size: 5000 }, "bizContent.size: must be at most 1000"],
    [{ code: "de-by" }, "bizContent.code must be an ISO 3166-1 or 3166-2 code in upper case"],
  ])("refuses %j", async (bizContent, msg) => {
    const res = await post("/zone/query", bizContent);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
  });
});

describe("O5 units", () => {
  it("lists the commerce units by default, with reference unit and factor", async () => {
    const { body } = await post<
      Page<{ code: string; origin: string; nameZH: string | null; refUnit: number | null; factor: string | null; id: number }>
    >("/unit/list", {});
    expect(body.data.items.every((u) => u.origin === "base")).toBe(true);
    const kilogram = body.data.items.find((u) => u.code === "KGM")!;
    expect(body.data.items.find((u) => u.code === "LBR")).toMatchObject({ nameZH: "磅", factor: "0.45359237", refUnit: kilogram.id });
    const byRef = await post<Page<{ code: string }>>("/unit/list", { ref_unit_id: kilogram.id });
    expect(byRef.body.data.items.map((u) => u.code).sort()).toEqual(["GRM", "KGM", "LBR"]);
  });

  it("lists the rest of Recommendation 20 as origin unece", async () => {
    const { body } = await post<Page<{ origin: string }>>("/unit/list", { origin: "unece", size: 10 });
    expect(body.data.total).toBe(1000);
    expect(body.data.items.every((u) => u.origin === "unece")).toBe(true);
  });

  it.each([[{ origin: "imperial" }], [{ code: "kgm" }], [{ id: 0 }]])("refuses %j", async (bizContent) => {
    expect((await post("/unit/list", bizContent)).status).toBe(400);
  });
});

describe("O6 HS codes", () => {
  it("finds heading 0901 with the keyword coffee", async () => {
    const { body } = await post<Page<{ code: string; level: number }>>("/hs-code/list", { keywords: "coffee" });
    expect(body.data.items.map((h) => h.code)).toEqual(["0901", "090111"]);
  });

  it("takes the edition as a number or a string", async () => {
    for (const version of [2022, "2022"]) expect((await post("/hs-code/list", { version, keywords: "coffee", size: 1 })).status).toBe(200);
  });

  it("walks the tree by level and parent", async () => {
    const chapters = await post<Page<{ code: string }>>("/hs-code/list", { level: 2, size: 200 });
    expect(chapters.body.data.total).toBe(97);
    const children = await post<Page<{ code: string }>>("/hs-code/list", { parent: "0901" });
    expect(children.body.data.items.map((h) => h.code)).toEqual(["090111"]);
  });

  it("treats search syntax in the keywords as words", async () => {
    const { status, body } = await post<Page<{ code: string }>>("/hs-code/list", { keywords: 'coffee" NOT "goods' });
    expect(status).toBe(200);
    // NOT is a word like the others, not an operator that would drop the coffee codes.
    expect(body.data.items.map((h) => h.code).slice(0, 2)).toEqual(["0901", "090111"]);
  });

  it.each([
    [{ version: "2017" }, "bizContent.version must be one of 2022"],
    [{ version: 2017 }, "bizContent.version must be one of 2022"],
    [{ type: "national" }, "bizContent.type must be base: the international six-digit nomenclature"],
    [{ level: 3 }, "bizContent.level must be 0 (section), 2, 4 or 6"],
    [{ keywords: "!!!" }, "bizContent.keywords: must contain a letter or digit"],
    [{ parent: "0901x" }, "bizContent.parent must be a section (I to XXI), chapter or heading code"],
  ])("refuses %j", async (bizContent, msg) => {
    const res = await post("/hs-code/list", bizContent);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(msg);
  });
});

describe("O7 and O8 languages", () => {
  it("lists the ISO 639-1 languages, and the locales with subLanguage", async () => {
    const base = await post<{ code: string }[]>("/language/list", {});
    expect(base.body.data).toHaveLength(183);
    const all = await post<{ code: string; baseCode: string | null }[]>("/language/list", { subLanguage: true });
    expect(all.body.data.find((l) => l.code === "pt-BR")).toMatchObject({ baseCode: "pt" });
    expect(all.body.data.map((l) => l.code)).toContain("zh-CN");
  });

  it("answers one language or locale", async () => {
    expect((await post("/language/special", { code: "de" })).body.data).toMatchObject({ name: "Deutsch", nameEn: "German" });
    expect((await post("/language/special", { code: "pt-BR" })).body.data).toMatchObject({ nameEn: "Brazilian Portuguese" });
  });

  it.each([
    [{ code: "qq" }, 404],
    [{ code: "DE" }, 400],
    [{ subLanguage: "yes" }, 400],
  ])("answers %j with %i", async (bizContent, status) => {
    const path = "subLanguage" in bizContent ? "/language/list" : "/language/special";
    expect((await post(path, bizContent)).status).toBe(status);
  });
});

describe("O9 and O10 currencies", () => {
  it("lists every current ISO 4217 currency, by GET and by POST", async () => {
    const get = await call("/std/open/currency/list", { headers: secretHeaders(key) });
    const list = (await envelope<{ code: string; withdrawn: string | null }[]>(get)).data;
    expect(list).toHaveLength(178);
    expect(list.map((c) => c.code)).toEqual(expect.arrayContaining(["XAD", "XCG", "EUR"]));
    expect(list.map((c) => c.code)).not.toEqual(expect.arrayContaining(["ANG"]));
    expect(list.filter((c) => ["ANG", "BGN", "CUC"].includes(c.code) || c.withdrawn !== null)).toEqual([]);
    expect((await post<unknown[]>("/currency/list", {})).body.data).toEqual(list);
  });

  it.each([
    ["ANG", "2025-03"],
    ["BGN", "2026-01"],
    ["CUC", "2021-01"],
  ])("answers the withdrawn %s by code, with the month it was withdrawn", async (currency, withdrawn) => {
    const { status, body } = await post("/currency/special", { currency });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ code: currency, withdrawn });
  });

  it("answers the Caribbean guilder, current since 2025", async () => {
    expect((await post("/currency/special", { currency: "XCG" })).body.data).toMatchObject({
      code: "XCG",
      name: "Caribbean Guilder",
      numericCode: "532",
      minorUnits: 2,
      withdrawn: null,
    });
  });

  it.each(["XAU", "XAG", "XDR", "XXX", "XTS", "XUA"])("gives %s no minor unit (ISO says N.A.), not 0", async (currency) => {
    expect((await post("/currency/special", { currency })).body.data).toMatchObject({ code: currency, minorUnits: null });
  });

  it("keeps 0 for currencies without a minor unit in use", async () => {
    expect((await post("/currency/special", { currency: "JPY" })).body.data).toMatchObject({ minorUnits: 0 });
  });

  it("answers the euro with its symbol, in both bizContent forms", async () => {
    for (const form of [false, true]) {
      const { body } = await post("/currency/special", { currency: "EUR" }, form);
      expect(body.data).toMatchObject({ code: "EUR", name: "Euro", symbol: "€", numericCode: "978", minorUnits: 2 });
    }
  });

  it.each([
    [{ currency: "XYZ" }, 404],
    [{ currency: "eur" }, 400],
    [{ currency: "EUR", extra: 1 }, 400],
  ])("answers %j with %i", async (bizContent, status) => {
    expect((await post("/currency/special", bizContent)).status).toBe(status);
  });
});

describe("O11 to O13 platforms", () => {
  it("lists the platforms and answers one by code", async () => {
    const all = (await post<{ code: string }[]>("/manufacturer/all", {})).body.data;
    expect(all.map((p) => p.code)).toEqual(expect.arrayContaining(["amazon", "ebay", "shopify", "mercadolibre"]));
    expect((await post("/manufacturer/special", { code: "shopify" })).body.data).toMatchObject({ name: "Shopify", kind: "shop_system" });
    expect((await post("/manufacturer/special", { code: "nowhere" })).status).toBe(404);
    expect((await post("/manufacturer/special", { code: "Shopify" })).body.msg).toBe(
      "bizContent.code must be a platform code in lower case, such as amazon",
    );
  });

  it("answers a platform's purchase fields through the internal RPC service", async () => {
    const amazon = (await post<{ name: string; required: boolean; pattern?: string }[]>("/manufacturer/purchase/fields", { platform: "amazon" })).body
      .data;
    expect(amazon.find((f) => f.name === "order_id")).toMatchObject({ required: true, pattern: "^\\d{3}-\\d{7}-\\d{7}$" });
    const generic = (await post<{ name: string }[]>("/manufacturer/purchase/fields", { platform: "woocommerce" })).body.data;
    expect(generic.map((f) => f.name)).toEqual(["order_id", "purchase_date", "order_total", "currency"]);
  });

  it.each([
    [{ platform: "nowhere" }, 404],
    [{ platform: "Amazon!" }, 400],
    [{}, 400],
  ])("answers %j with %i", async (bizContent, status) => {
    expect((await post("/manufacturer/purchase/fields", bizContent)).status).toBe(status);
  });
});
