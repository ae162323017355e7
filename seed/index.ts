import { countries } from "../src/reference/schema";
import { taxRates } from "../src/tax/schema";
import { countrySeedRows } from "./countries";
import { insertOrIgnoreStatements } from "./sql";
import { taxRateSeedRows } from "./tax-rates";

export interface SeedPart {
  name: string;
  table: string;
  rows: number;
  statements: string[];
}

/** What `npm run dev` loads into D1 before it serves. */
export function seedParts(): SeedPart[] {
  const countryRows = countrySeedRows();
  const taxRows = taxRateSeedRows();
  return [
    { name: "countries", table: "countries", rows: countryRows.length, statements: insertOrIgnoreStatements(countries, countryRows) },
    { name: "tax rates", table: "tax_rates", rows: taxRows.length, statements: insertOrIgnoreStatements(taxRates, taxRows) },
  ];
}
