import { getStatesOfCountry } from "@countrystatecity/countries";
import { all as allCountries } from "country-codes-list";
import { code as currencyByCode, codes as currencyCodes } from "currency-codes";
import iso6391 from "iso-639-1";
import { createRequire } from "node:module";
import type { CurrencyRow, LanguageRow, ZoneRow } from "../src/reference/schema";
import { countrySeedRows } from "./countries";

const require = createRequire(import.meta.url);
const cldrLocales = require("cldr-core/availableLocales.json") as { availableLocales: { full: string[] } };
// pt-BR, en-US, zh-Hans-CN and the like are CLDR's "default content", listed apart from the others.
const cldrDefaultContent = require("cldr-core/defaultContent.json") as { defaultContent: string[] };

/** ISO 4217 codes that have no minor unit ("N.A." in the standard): metals, bond units, XDR, XSU, XUA, XTS, XXX. */
const NO_MINOR_UNIT = new Set(["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX"]);

/** Codes ISO 4217 added after currency-codes 2.2.0 was published (ISO amendments 176 and 179). */
const ADDED: Omit<CurrencyRow, "id" | "symbol" | "withdrawn">[] = [
  { code: "XAD", name: "Arab Accounting Dinar", numericCode: "396", minorUnits: 2 },
  { code: "XCG", name: "Caribbean Guilder", numericCode: "532", minorUnits: 2 },
];

/** Codes no longer current, with the month they were replaced (seed/SOURCES.md). */
const WITHDRAWN: Record<string, string> = {
  ANG: "2025-03", // by the Caribbean guilder (XCG) in Curaçao and Sint Maarten
  BGN: "2026-01", // by the euro in Bulgaria
  CUC: "2021-01", // Cuba's currency unification, into the peso (CUP)
};

/** ISO 4217 from currency-codes (MIT) with the later amendments above; symbols from country-codes-list (MIT). */
export function currencySeedRows(): Omit<CurrencyRow, "id">[] {
  const symbols = new Map(allCountries().filter((c) => c.currencySymbol).map((c) => [c.currencyCode, c.currencySymbol]));
  const listed = currencyCodes().map((code) => {
    const currency = currencyByCode(code)!;
    return {
      code,
      name: currency.currency,
      numericCode: currency.number || null,
      minorUnits: NO_MINOR_UNIT.has(code) || !Number.isInteger(currency.digits) ? null : currency.digits,
    };
  });
  return [...listed, ...ADDED.filter((added) => !listed.some((c) => c.code === added.code))]
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((currency) => ({ ...currency, symbol: symbols.get(currency.code) ?? null, withdrawn: WITHDRAWN[currency.code] ?? null }));
}

const LOCALE = /^([a-z]{2})(?:-[A-Z][a-z]{3})?-([A-Z]{2})$/;

/** ISO 639-1 (iso-639-1, MIT), then the CLDR locales of those languages (cldr-core, Unicode licence), named by ICU. */
export function languageSeedRows(): Omit<LanguageRow, "id">[] {
  const base = iso6391.getAllCodes().map((code) => ({
    code,
    name: iso6391.getNativeName(code),
    nameEn: iso6391.getName(code),
    baseCode: null,
  }));
  const known = new Set<string>(base.map((l) => l.code));
  const english = new Intl.DisplayNames(["en"], { type: "language" });
  const variants = new Map<string, Omit<LanguageRow, "id">>();
  for (const locale of [...cldrLocales.availableLocales.full, ...cldrDefaultContent.defaultContent]) {
    const match = LOCALE.exec(locale);
    if (!match || !known.has(match[1]!)) continue;
    const code = `${match[1]}-${match[2]}`;
    if (variants.has(code)) continue;
    const own = new Intl.DisplayNames([code], { type: "language" });
    variants.set(code, { code, name: own.of(code) ?? code, nameEn: english.of(code) ?? code, baseCode: match[1]! });
  }
  return [...base, ...[...variants.values()]].sort((a, b) => a.code.localeCompare(b.code));
}

const FIRST_SUBDIVISION_ID = 1000;
const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

/**
 * Countries (ids 1 to 249 in code order, parsent 0) and their ISO 3166-2 subdivisions (ids from
 * 1000 in code order) from @countrystatecity/countries (ODbL 1.0: credited in the README).
 */
export async function zoneSeedRows(): Promise<ZoneRow[]> {
  const localNames = new Map(allCountries().map((c) => [c.countryCode, c.countryNameLocal]));
  const countries = countrySeedRows().map((c, index) => ({
    id: index + 1,
    code: c.code,
    name: localNames.get(c.code) || c.name,
    nameEn: c.name,
    parsent: 0,
    type: "country",
  }));
  const countryIds = new Map(countries.map((c) => [c.code, c.id]));
  const subdivisions: Omit<ZoneRow, "id">[] = [];
  const seen = new Set<string>();
  for (const country of countries) {
    for (const state of await getStatesOfCountry(country.code)) {
      const code = state.iso3166_2;
      if (!code || !ISO_3166_2.test(code) || !code.startsWith(`${country.code}-`) || seen.has(code)) continue;
      seen.add(code);
      subdivisions.push({
        code,
        name: state.native || state.name,
        nameEn: state.name,
        parsent: countryIds.get(country.code)!,
        type: state.type ?? null,
      });
    }
  }
  subdivisions.sort((a, b) => a.code.localeCompare(b.code));
  return [...countries, ...subdivisions.map((s, index) => ({ id: FIRST_SUBDIVISION_ID + index, ...s }))];
}
