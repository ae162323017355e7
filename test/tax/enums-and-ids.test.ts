import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TaxRate } from "../../src/tax/schema";
import { getTax } from "./fixtures";

describe("T9 and T10 enumerations", () => {
  it("lists the tax types of the interface", async () => {
    const { body } = await getTax<string[]>("/types");
    expect(body.data).toEqual(["VAT", "GST", "SalesTax", "ConsumptionTax", "CorporateTax", "IncomeTax", "ExciseTax", "PropertyTax", "CustomsDuty"]);
  });

  it("lists the rate levels of the interface", async () => {
    const { body } = await getTax<string[]>("/levels");
    expect(body.data).toEqual(["standard", "reduced", "reduced1", "reduced2", "super_reduced", "parking", "zero", "exempt"]);
  });
});

describe("T11 one record", () => {
  it("returns a historical record with its effectiveTo", async () => {
    const row = await env.DB.prepare(
      "SELECT id FROM tax_rates WHERE country_code = 'DE' AND tax_type = 'VAT' AND rate_level = 'standard' AND rate_value_scaled = 160000",
    ).first<{ id: number }>();
    const { res, body } = await getTax<TaxRate>(`/${row!.id}`);
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({
      countryCode: "DE",
      rateValue: 16,
      effectiveFrom: "2020-07-01T00:00:00",
      effectiveTo: "2020-12-31T23:59:59",
    });
  });

  it("answers 404 for an id without a record", async () => {
    const { res, body } = await getTax("/999999999");
    expect(res.status).toBe(404);
    expect(body.msg).toBe("No tax rate record with id 999999999");
  });

  it.each([["abc"], ["0"], ["-1"], ["1.5"], ["1234567890123456"]])("refuses the id %s", async (id) => {
    const { res, body } = await getTax(`/${id}`);
    expect(res.status).toBe(400);
    expect(body.msg).toBe("id must be a positive integer");
  });
});
