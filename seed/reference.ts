import { all as allCountries } from "country-codes-list";
import { code as currencyByCode, codes as currencyCodes } from "currency-codes";
import iso6391 from "iso-639-1";
import { readFileSync } from "node:fs";
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
  const symbols = new Map(
    allCountries()
      .filter((c) => c.currencySymbol)
      .map((c) => [c.currencyCode, c.currencySymbol]),
  );
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
const data = (file: string) => readFileSync(new URL(`./data/${file}`, import.meta.url), "utf8");

interface IsoSubdivision {
  code: string;
  name: string;
  type: string;
  parent?: string;
}

/**
 * The English names of iso-codes' translation file: `#. Name for XX-YY` comments name the codes
 * of the entry that follows. Fuzzy (unconfirmed) and empty translations are left out: the
 * ISO name stands for those.
 */
export function englishSubdivisionNames(po: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of po.split(/\n\n+/)) {
    if (/^#, .*fuzzy/m.test(entry)) continue;
    const codes = [...entry.matchAll(/Name for ([A-Z0-9]{2}-[A-Z0-9]{1,3})/g)].map((m) => m[1]!);
    const translation = /^msgstr ((?:"(?:[^"\\]|\\.)*"\s*)+)/m.exec(entry)?.[1];
    const text = translation ? [...translation.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join("") : "";
    if (text) for (const code of codes) names.set(code, text);
  }
  return names;
}

/**
 * Countries (ids 1 to 249 in code order, parsent 0) and their ISO 3166-2 subdivisions (ids from
 * 1000 in code order) as Debian's iso-codes 4.20.0 publishes them (LGPL-2.1-or-later, seed/data):
 * `name` is the ISO name, `nameEn` its English name where iso-codes has a confirmed one, and a
 * subdivision of a subdivision (a Spanish province) has its region as parent.
 */
export function zoneSeedRows(): ZoneRow[] {
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
  const english = englishSubdivisionNames(data("iso_3166-2.en.po"));
  const iso = (JSON.parse(data("iso_3166-2.json")) as { "3166-2": IsoSubdivision[] })["3166-2"]
    .filter((s) => countryIds.has(s.code.slice(0, 2)))
    .sort((a, b) => a.code.localeCompare(b.code));
  const ids = new Map(iso.map((s, index) => [s.code, FIRST_SUBDIVISION_ID + index]));
  const subdivisions = iso.map((s) => ({
    id: ids.get(s.code)!,
    code: s.code,
    name: s.name,
    nameEn: english.get(s.code) ?? s.name,
    parsent: (s.parent && ids.get(`${s.code.slice(0, 2)}-${s.parent.replace(/^[A-Z]{2}-/, "")}`)) || countryIds.get(s.code.slice(0, 2))!,
    type: s.type,
  }));
  return [...countries, ...subdivisions];
}
