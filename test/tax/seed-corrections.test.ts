/**
 * Seeding a database the seed of 2025-08 had filled: the corrected figures replace the old ones,
 * predecessors are closed, wrongly dated records are gone, and nothing is current twice.
 */
import { applyD1Migrations, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const seedAgain = () => env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
const rows = async (sql: string, ...bind: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...bind)
      .all<Record<string, unknown>>()
  ).results;

describe("seeding again corrects what an earlier seed wrote", () => {
  it("takes the new figure, closes the predecessor, and drops a record with a wrong start", async () => {
    // The database as the earlier seed left it.
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE tax_rates SET rate_value_scaled = 158250, effective_to = NULL, applicable_scope = 'central' WHERE country_code = 'DE' AND tax_type = 'CorporateTax' AND effective_from = '2020-01-01T00:00:00'",
      ),
      env.DB.prepare("DELETE FROM tax_rates WHERE country_code = 'DE' AND tax_type = 'CorporateTax' AND effective_from > '2020-01-01T00:00:00'"),
      env.DB.prepare("DELETE FROM tax_rates WHERE country_code = 'RU' AND tax_type = 'VAT' AND effective_from = '2026-01-01T00:00:00'"),
      env.DB.prepare("UPDATE tax_rates SET effective_to = NULL WHERE country_code = 'RU' AND tax_type = 'VAT'"),
      env.DB.prepare(
        "INSERT INTO tax_rates (country_code, country_name, tax_type, tax_name_en, rate_level, rate_level_name, rate_value_scaled, effective_from, data_source, version_date, last_sync_time) " +
          "SELECT country_code, country_name, tax_type, tax_name_en, rate_level, rate_level_name, 155000, '2025-01-01T00:00:00', data_source, version_date, last_sync_time FROM tax_rates WHERE country_code = 'ZW' AND effective_from = '2023-01-01T00:00:00'",
      ),
      env.DB.prepare(
        "UPDATE tax_rates SET effective_to = '2024-12-31T23:59:59' WHERE country_code = 'ZW' AND effective_from = '2023-01-01T00:00:00'",
      ),
      env.DB.prepare("DELETE FROM tax_rates WHERE country_code = 'ZW' AND effective_from = '2026-01-01T00:00:00'"),
      env.DB.prepare("DELETE FROM d1_migrations WHERE name = '0007_tax_rates_wrong_start_dates.sql'"),
    ]);

    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    await seedAgain();

    const germany = await rows(
      "SELECT rate_value_scaled / 10000.0 AS rate, effective_to FROM tax_rates WHERE country_code = 'DE' AND tax_type = 'CorporateTax' ORDER BY effective_from",
    );
    expect(germany.at(0)).toEqual({ rate: 29.9, effective_to: "2020-12-31T23:59:59" });
    expect(germany.at(-1)).toEqual({ rate: 30.06, effective_to: null });
    expect(
      await rows(
        "SELECT rate_value_scaled / 10000.0 AS rate FROM tax_rates WHERE country_code = 'RU' AND tax_type = 'VAT' AND rate_level = 'standard' AND effective_to IS NULL",
      ),
    ).toEqual([{ rate: 22 }]);
    expect(
      await rows(
        "SELECT rate_value_scaled / 10000.0 AS rate, effective_from, effective_to FROM tax_rates WHERE country_code = 'ZW' ORDER BY effective_from",
      ),
    ).toEqual([
      { rate: 14.5, effective_from: "2020-01-01T00:00:00", effective_to: "2022-12-31T23:59:59" },
      { rate: 15, effective_from: "2023-01-01T00:00:00", effective_to: "2025-12-31T23:59:59" },
      { rate: 15.5, effective_from: "2026-01-01T00:00:00", effective_to: null },
    ]);
  });

  it("leaves every rate current once", async () => {
    await seedAgain();
    const twice = await rows(
      "SELECT country_code, region_code, tax_type, rate_level, count(*) AS n FROM tax_rates WHERE effective_to IS NULL GROUP BY 1, 2, 3, 4 HAVING n > 1",
    );
    expect(twice).toEqual([]);
  });

  it("keeps an end a refresh job set", async () => {
    await env.DB.prepare(
      "UPDATE tax_rates SET effective_to = '2026-11-01T00:00:00' WHERE country_code = 'NO' AND tax_type = 'CorporateTax' AND effective_to IS NULL",
    ).run();
    await seedAgain();
    expect(await rows("SELECT effective_to FROM tax_rates WHERE country_code = 'NO' AND tax_type = 'CorporateTax'")).toEqual([
      { effective_to: "2026-11-01T00:00:00" },
    ]);
  });
});
