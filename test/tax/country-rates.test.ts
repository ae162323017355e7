import { describe, expect, it } from "vitest";
import { taxRateSchema, type TaxRate } from "../../src/tax/schema";
import { getTax } from "./fixtures";

describe("T2 rates of a country", () => {
  it("returns Germany's current VAT and corporate tax, no history", async () => {
    const { res, body } = await getTax("/country/DE");
    expect(res.status).toBe(200);
    expect(body.data.every((r) => r.countryCode === "DE" && r.effectiveTo === null)).toBe(true);
    const vat = body.data.filter((r) => r.taxType === "VAT").map((r) => [r.rateLevel, r.rateValue]);
    expect(vat).toEqual([
      ["standard", 19],
      ["reduced", 7],
    ]);
    expect(body.data.find((r) => r.taxType === "CorporateTax")?.rateValue).toBe(30.06);
  });

  it("includes the states of the United States", async () => {
    const { body } = await getTax("/country/US");
    const california = body.data.find((r) => r.regionCode === "US-CA");
    expect(california).toMatchObject({ taxType: "SalesTax", rateValue: 7.25, regionName: "California", currencyCode: "USD" });
    expect(new Set(body.data.filter((r) => r.regionCode).map((r) => r.regionCode)).size).toBe(51);
  });

  it("answers 404 for a country without records, and says when the code names no country at all", async () => {
    const { res, body } = await getTax("/country/AQ");
    expect(res.status).toBe(404);
    expect(body).toEqual({ code: 404, msg: "No current tax rates for AQ", data: null });
    // A typo is not a country without taxes.
    for (const path of ["/country/XX", "/country/DX/standard", "/country/DX/type/VAT", "/country/DX/region/DX-BE"]) {
      const unknown = await getTax(path);
      expect(unknown.res.status, path).toBe(404);
      expect(unknown.body.msg, path).toBe("No country with code DX".replace("DX", path.split("/")[2]!));
    }
  });

  it.each([["de"], ["DEU"], ["D1"]])("refuses the country code %s", async (code) => {
    const { res, body } = await getTax(`/country/${code}`);
    expect(res.status).toBe(400);
    expect(body.msg).toBe("countryCode must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE");
  });
});

describe("T3 rates of a region", () => {
  it("returns California's state sales tax", async () => {
    const { res, body } = await getTax("/country/US/region/US-CA");
    expect(res.status).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ regionCode: "US-CA", rateValue: 7.25, dataSource: "CUSTOM" });
  });

  it("returns Quebec's QST and Ontario's HST", async () => {
    expect((await getTax("/country/CA/region/CA-QC")).body.data[0]).toMatchObject({ taxAbbr: "QST", rateValue: 9.975 });
    expect((await getTax("/country/CA/region/CA-ON")).body.data[0]).toMatchObject({ taxAbbr: "HST", rateValue: 13 });
  });

  it("refuses a region of another country", async () => {
    const { res, body } = await getTax("/country/DE/region/US-CA");
    expect(res.status).toBe(400);
    expect(body.msg).toBe("regionCode US-CA is not a region of DE");
  });

  it("refuses a malformed region code", async () => {
    const { res, body } = await getTax("/country/US/region/california");
    expect(res.status).toBe(400);
    expect(body.msg).toBe("regionCode must be an upper-case ISO 3166-2 code, e.g. US-CA");
  });

  it("answers 404 for a region without records", async () => {
    const { res } = await getTax("/country/US/region/US-ZZ");
    expect(res.status).toBe(404);
  });
});

describe("T4 rates of one type", () => {
  it("returns Japan's consumption tax levels", async () => {
    const { body } = await getTax("/country/JP/type/ConsumptionTax");
    expect(body.data.map((r) => [r.rateLevel, r.rateValue])).toEqual([
      ["standard", 10],
      ["reduced", 8],
    ]);
  });

  it("returns China's VAT levels", async () => {
    const { body } = await getTax("/country/CN/type/VAT");
    expect(body.data.map((r) => r.rateValue)).toEqual([13, 9, 6, 3, 0]);
  });

  it("refuses an unknown tax type, listing the allowed ones", async () => {
    const { res, body } = await getTax("/country/DE/type/vat");
    expect(res.status).toBe(400);
    expect(body.msg).toContain("taxType must be one of VAT, GST, SalesTax");
  });

  it("answers 404 when the country has no rate of that type", async () => {
    const { res, body } = await getTax("/country/DE/type/SalesTax");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("No current tax rates for SalesTax in DE");
  });
});

describe("T5 standard rate", () => {
  it.each([
    ["DE", "VAT", 19],
    ["FI", "VAT", 25.5],
    ["RO", "VAT", 21],
    ["AU", "GST", 10],
    ["JP", "ConsumptionTax", 10],
    ["CH", "VAT", 8.1],
    ["SG", "GST", 9],
  ])("returns the standard rate of %s", async (country, taxType, rate) => {
    const { res, body } = await getTax<TaxRate>(`/country/${country}/standard`);
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ countryCode: country, taxType, rateLevel: "standard", rateValue: rate, effectiveTo: null });
  });

  it("answers a record with exactly the fields the document's TaxRate lists, derived from the table", async () => {
    const { body } = await getTax<TaxRate>("/country/DE/standard");
    expect(taxRateSchema.strict().safeParse(body.data).error).toBeUndefined();
  });

  it("answers 404 for a country without VAT or GST", async () => {
    const { res, body } = await getTax("/country/US/standard");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("US has no standard VAT or GST rate");
  });
});
