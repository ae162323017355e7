/**
 * The corrections of the 2026-11 sweep (seed/SOURCES.md), as a caller sees them: the current rate
 * through T2–T5, the record it replaced kept with its end, and the change's own source.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TaxRate } from "../../src/tax/schema";
import { getTax } from "./fixtures";

interface StoredRate {
  rate: number;
  effective_from: string;
  effective_to: string | null;
  source_url: string;
  applicable_scope: string | null;
}

/** Every record of one rate, oldest first. */
async function history(country: string, taxType: string, level: string, region: string | null = null) {
  const { results } = await env.DB.prepare(
    `SELECT rate_value_scaled / 10000.0 AS rate, effective_from, effective_to, source_url, applicable_scope FROM tax_rates
     WHERE country_code = ? AND tax_type = ? AND rate_level = ? AND region_code IS ? ORDER BY effective_from`,
  )
    .bind(country, taxType, level, region)
    .all<StoredRate>();
  return results;
}

const current = async (country: string, taxType: string) => (await getTax(`/country/${country}/type/${taxType}`)).body.data;
const rateOf = (rates: TaxRate[], level: string) => rates.find((r) => r.rateLevel === level);

describe("VAT and GST changes in force by 2026-11", () => {
  it.each([
    ["RU", "VAT", "standard", 20, 22, "2026-01-01", "nalog.gov.ru"],
    ["FI", "VAT", "reduced2", 14, 13.5, "2026-01-01", "vero.fi"],
    ["LT", "VAT", "reduced2", 9, 12, "2026-01-01", "vmi.lt"],
    ["ZW", "VAT", "standard", 15, 15.5, "2026-01-01", "zimra.co.zw"],
    ["BS", "VAT", "standard", 12, 10, "2022-01-01", "finance.gov.bs"],
    ["PK", "GST", "standard", 17, 18, "2023-02-14", "fbr.gov.pk"],
  ])("%s %s %s: %d %% closed, %d %% from %s, its source named", async (country, taxType, level, before, after, from, source) => {
    const now = rateOf(await current(country, taxType), level);
    expect(now).toMatchObject({ rateValue: after, effectiveFrom: `${from}T00:00:00`, effectiveTo: null });
    expect(now!.sourceUrl).toContain(source);
    const records = await history(country, taxType, level);
    const replaced = records.at(-2)!;
    expect(replaced.rate).toBe(before);
    expect(replaced.effective_to).toBe(new Date(Date.parse(`${from}T00:00:00Z`) - 1000).toISOString().slice(0, 19));
  });

  it("Austria adds a 4.9 % rate on basic foods from 2026-07-01 and keeps its other rates", async () => {
    const rates = await current("AT", "VAT");
    expect(rates.map((r) => [r.rateLevel, r.rateValue]).sort()).toEqual(
      [
        ["parking", 13],
        ["reduced1", 10],
        ["reduced2", 13],
        ["standard", 20],
        ["super_reduced", 4.9],
      ].sort(),
    );
    expect(rateOf(rates, "super_reduced")!.effectiveFrom).toBe("2026-07-01T00:00:00");
  });

  it("the District of Columbia's sales tax: 6 %, 6.5 % from 2025-10-01, 7 % from 2026-10-01", async () => {
    const { body } = await getTax("/country/US/region/US-DC");
    expect(body.data[0]).toMatchObject({ rateValue: 7, effectiveFrom: "2026-10-01T00:00:00" });
    expect((await history("US", "SalesTax", "standard", "US-DC")).map((r) => [r.rate, r.effective_from.slice(0, 10)])).toEqual([
      [6, "2020-01-01"],
      [6.5, "2025-10-01"],
      [7, "2026-10-01"],
    ]);
  });

  it.each([
    ["BT", "GST", 5],
    ["AI", "GST", 13],
    ["JE", "GST", 5],
    ["IM", "VAT", 20],
    ["XK", "VAT", 18],
  ])("%s levies a %s, %d %% standard", async (country, taxType, rate) => {
    const { res, body } = await getTax<TaxRate>(`/country/${country}/standard`);
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ taxType, rateValue: rate });
  });
});

describe("countries checked for a VAT or GST in 2026-11", () => {
  it("Kosovo: 18 % and 8 %, the Tax Administration of Kosovo named as the source", async () => {
    const rates = await current("XK", "VAT");
    expect(rates.map((r) => [r.rateLevel, r.rateValue]).sort()).toEqual([
      ["reduced", 8],
      ["standard", 18],
    ]);
    expect(rates.every((r) => r.sourceUrl === "https://www.atk-ks.org/en/" && r.rateDefinition === "statutory")).toBe(true);
  });

  it.each(["CW", "MM", "ER"])("%s has no VAT or GST record (a turnover tax, seed/SOURCES.md)", async (country) => {
    expect((await getTax(`/country/${country}/standard`)).res.status).toBe(404);
  });
});

describe("corporate tax: the OECD's combined rate for every member", () => {
  it("says the definition in a field: oecd_combined_statutory for corporate tax, statutory for the others", async () => {
    const oecd = (await getTax("/oecd/CorporateTax")).body.data;
    expect(new Set(oecd.map((r) => r.rateDefinition))).toEqual(new Set(["oecd_combined_statutory"]));
    const { body } = await getTax<TaxRate>("/country/DE/standard");
    expect(body.data.rateDefinition).toBe("statutory");
  });

  it.each([
    ["KR", 27.5, "2026-01-01"],
    ["PT", 29.5, "2026-01-01"],
    ["LT", 17, "2026-01-01"],
    ["SK", 24, "2025-01-01"],
    ["DE", 30.06, "2025-01-01"],
    ["LU", 23.87, "2025-01-01"],
  ])("%s: %d %% from %s", async (country, rate, from) => {
    const [cit] = await current(country, "CorporateTax");
    expect(cit).toMatchObject({ rateValue: rate, effectiveFrom: `${from}T00:00:00` });
    expect(cit!.applicableScope).toMatch(/^Combined statutory corporate income tax rate/);
  });

  it("says where Slovakia's 24 % applies", async () => {
    const [cit] = await current("SK", "CorporateTax");
    expect(cit!.applicableScope).toContain("24 % on taxable income over EUR 5 million");
  });

  it("gives every OECD member one current rate under the same definition", async () => {
    const { results } = await env.DB.prepare(
      "SELECT country_code, applicable_scope FROM tax_rates WHERE tax_type = 'CorporateTax' AND effective_to IS NULL",
    ).all<{ country_code: string; applicable_scope: string }>();
    expect(results).toHaveLength(38);
    expect(results.every((r) => r.applicable_scope.startsWith("Combined statutory corporate income tax rate"))).toBe(true);
  });
});
