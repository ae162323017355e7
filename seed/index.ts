import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { countries, currencies, hsCodes, languages, platforms, units, zones } from "../src/reference/schema";
import { taxRates } from "../src/tax/schema";
import { hsSeedRows, unitSeedRows } from "./catalogues";
import { countrySeedRows } from "./countries";
import { PLATFORMS } from "./platforms";
import { currencySeedRows, languageSeedRows, zoneSeedRows } from "./reference";
import { insertOrIgnoreStatements, upsertStatements } from "./sql";
import { TAX_RATE_CORRECTIONS, TAX_RATE_KEYS, taxRateSeedRows } from "./tax-rates";

export interface SeedPart {
  name: string;
  table: string;
  rows: number;
  statements: string[];
}

type Write = <T extends SQLiteTable>(table: T, rows: Record<string, unknown>[]) => string[];

/** Reference rows are written once and kept; `write` says otherwise for a part that corrects itself. */
function part<T extends SQLiteTable>(name: string, table: T, rows: Record<string, unknown>[], write: Write = insertOrIgnoreStatements): SeedPart {
  return { name, table: name.replaceAll(" ", "_"), rows: rows.length, statements: write(table, rows) };
}

const correctTaxRates: Write = (table, rows) => upsertStatements(table, rows, TAX_RATE_KEYS, TAX_RATE_CORRECTIONS);
/** Columns added since the first seed, filled in where an earlier seed wrote the row. */
const correctCountries: Write = (table, rows) =>
  upsertStatements(table, rows, ['("code")'], { numeric_code: "excluded.numeric_code", profile: "excluded.profile" });
const correctZones: Write = (table, rows) =>
  upsertStatements(table, rows, ['("code")'], {
    name: "excluded.name",
    name_en: "excluded.name_en",
    parsent: "excluded.parsent",
    type: "excluded.type",
  });
const correctCurrencies: Write = (table, rows) =>
  upsertStatements(table, rows, ['("code")'], { name: "excluded.name", minor_units: "excluded.minor_units", withdrawn: "excluded.withdrawn" });

/** Readers cache T and O answers under the data's version (platform/read-cache.ts): a seed makes them stale. */
const dataVersionBump: SeedPart = {
  name: "data version",
  table: "data_versions",
  rows: 1,
  statements: [
    "INSERT INTO data_versions (name, version, updated_at) VALUES ('reference', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ON CONFLICT(name) DO UPDATE SET version = version + 1, updated_at = excluded.updated_at",
  ],
};

/** The HS codes and the units of measure: large, public domain, and what the `hs` and `units` jobs keep current. */
export function cataloguePart(): SeedPart[] {
  const { units: unitRows, links } = unitSeedRows();
  const unitsPart = part("units", units, unitRows);
  return [part("hs codes", hsCodes, hsSeedRows()), { ...unitsPart, statements: [...unitsPart.statements, ...links] }, dataVersionBump];
}

/**
 * What `npm run dev` (and `npm run seed`) loads into D1. Built in Node: some sources read their
 * data files at run time. The tests load `catalogues: false` and a file that needs the HS codes or
 * the units loads them itself (docs/testing.md).
 */
export async function seedParts(options: { catalogues: boolean } = { catalogues: true }): Promise<SeedPart[]> {
  return [
    part("countries", countries, countrySeedRows(), correctCountries),
    part("currencies", currencies, currencySeedRows(), correctCurrencies),
    part("languages", languages, languageSeedRows()),
    part("zones", zones, zoneSeedRows(), correctZones),
    part("platforms", platforms, PLATFORMS),
    part("tax rates", taxRates, taxRateSeedRows(), correctTaxRates),
    ...(options.catalogues ? cataloguePart() : [dataVersionBump]),
  ];
}
