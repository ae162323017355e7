import { all as allCountries } from "country-codes-list";
import { RATE_LEVEL_NAMES, RATE_SCALE, type NewTaxRateRow, type RateLevel } from "../src/tax/schema";
import { EU_MEMBERS, OECD_MEMBERS } from "../src/tax/membership";
import { SEED_VERSION_DATE, TAX_REGIMES, type TaxRegime } from "./tax-regimes";

const countries = new Map(allCountries().map((c) => [c.countryCode, c]));

const startOf = (date: string) => `${date}T00:00:00`;

/** The last second before `date`: a closed record ends just before its successor starts. */
function endBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 1000).toISOString().slice(0, 19);
}

/** Walks a regime's periods oldest first: a level whose rate changes or disappears is closed, a new one opened. */
function regimeRows(regime: TaxRegime): NewTaxRateRow[] {
  const country = countries.get(regime.country);
  if (!country) throw new Error(`unknown country ${regime.country}`);
  const version = startOf(SEED_VERSION_DATE);
  const rows: NewTaxRateRow[] = [];
  const open = new Map<RateLevel, NewTaxRateRow>();
  for (const [from, rates, source] of regime.periods) {
    for (const [level, row] of open) {
      if (rates[level] === undefined || rates[level] * RATE_SCALE !== row.rateValueScaled) {
        row.effectiveTo = endBefore(from);
        open.delete(level);
      }
    }
    for (const [level, value] of Object.entries(rates) as [RateLevel, number][]) {
      if (open.has(level)) continue;
      const row: NewTaxRateRow = {
        countryCode: regime.country,
        regionCode: regime.region?.code ?? null,
        countryName: country.countryNameEn,
        regionName: regime.region?.name ?? null,
        taxType: regime.taxType,
        taxNameLocal: regime.nameLocal ?? null,
        taxNameEn: regime.nameEn,
        taxAbbr: regime.abbr ?? null,
        rateLevel: level,
        rateLevelName: RATE_LEVEL_NAMES[level],
        rateValueScaled: Math.round(value * RATE_SCALE),
        rateDefinition: regime.taxType === "CorporateTax" ? "oecd_combined_statutory" : "statutory",
        effectiveFrom: startOf(from),
        effectiveTo: null,
        currencyCode: country.currencyCode || null,
        euMember: EU_MEMBERS.has(regime.country),
        oecdMember: OECD_MEMBERS.has(regime.country),
        taxIdFormat: regime.taxId?.format ?? null,
        taxIdPattern: regime.taxId?.pattern ?? null,
        filingFrequency: regime.filingFrequency ?? null,
        applicableScope: regime.applicableScope ?? null,
        excludedScope: null,
        dataSource: regime.dataSource,
        sourceUrl: source ?? regime.sourceUrl,
        versionDate: version,
        lastSyncTime: version,
        enabled: true,
      };
      open.set(level, row);
      rows.push(row);
    }
  }
  return rows;
}

/** Every seed record, history included, in a stable order. */
export function taxRateSeedRows(): NewTaxRateRow[] {
  return TAX_REGIMES.flatMap(regimeRows);
}

/** The two partial unique keys of a tax rate record (national and regional). */
export const TAX_RATE_KEYS = [
  '("country_code", "tax_type", "rate_level", "effective_from") WHERE "region_code" IS NULL',
  '("country_code", "region_code", "tax_type", "rate_level", "effective_from") WHERE "region_code" IS NOT NULL',
];

/**
 * What seeding again corrects in a record an earlier seed wrote: its figure and description, and
 * its end where the seed closes it. An end a refresh job set stays (the seed's open end does not
 * reopen it).
 */
export const TAX_RATE_CORRECTIONS: Record<string, string> = {
  rate_value_scaled: "excluded.rate_value_scaled",
  effective_to: 'COALESCE(excluded.effective_to, "tax_rates"."effective_to")',
  applicable_scope: "excluded.applicable_scope",
  rate_definition: "excluded.rate_definition",
  source_url: "excluded.source_url",
  tax_id_format: "excluded.tax_id_format",
  tax_id_pattern: "excluded.tax_id_pattern",
  version_date: "excluded.version_date",
};
