import { all as allCountries } from "country-codes-list";
import type { CountryRow } from "../src/reference/schema";

/** Kosovo has a user-assigned code, not an ISO 3166-1 one. */
const NOT_ISO = new Set(["XK"]);

/** The 249 ISO 3166-1 countries, with dialing code and currency. */
export function countrySeedRows(): Omit<CountryRow, "id">[] {
  return allCountries()
    .filter((c) => !NOT_ISO.has(c.countryCode))
    .map((c) => ({
      code: c.countryCode,
      name: c.countryNameEn,
      iso3: c.countryCodeAlpha3,
      numericCode: c.countryCodeNumeric ? c.countryCodeNumeric.padStart(3, "0") : null,
      phoneCode: c.countryCallingCode || null,
      currencyCode: c.currencyCode || null,
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}
