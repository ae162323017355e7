import { env } from "cloudflare:test";
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../src/platform/database";
import { taxRates } from "../../src/tax/schema";
import { ratesInForceQuery } from "../../src/tax/service";

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail).join("\n");
}

describe("tax rate queries use their indexes", () => {
  const db = database(env);

  it.each([
    ["country (T2)", eq(taxRates.countryCode, "DE"), "tax_rates_by_country"],
    ["region (T3)", and(eq(taxRates.countryCode, "US"), eq(taxRates.regionCode, "US-CA")), "tax_rates_by_country"],
    ["standard rate (T5)", and(eq(taxRates.countryCode, "DE"), isNull(taxRates.regionCode)), "tax_rates_by_country"],
    ["type across countries (T6, T7)", eq(taxRates.taxType, "CorporateTax"), "tax_rates_by_type"],
  ])("%s", async (_, where, index) => {
    const detail = await plan(ratesInForceQuery(db, "2026-01-01", where));
    expect(detail).toContain(`USING INDEX ${index}`);
    expect(detail).not.toMatch(/SCAN tax_rates(?! USING)/);
  });
});
