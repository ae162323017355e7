import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { getCountry } from "countries-and-timezones";
import { all as allCountries } from "country-codes-list";
import worldCountries from "world-countries";
import type { CountryProfile, CountryRow } from "../src/reference/schema";

/** Kosovo has a user-assigned code, not an ISO 3166-1 one. */
const NOT_ISO = new Set(["XK"]);

const require = createRequire(import.meta.url);
const readJson = <T>(path: string): T => JSON.parse(readFileSync(require.resolve(path), "utf8")) as T;

/** ISO 639-3 and 639-2/B codes (deu, per) as ISO 639-1 (de, fa) where CLDR knows one; others stay as they are. */
const languageAliases = readJson<{ supplemental: { metadata: { alias: { languageAlias: Record<string, { _replacement: string }> } } } }>(
  "cldr-core/supplemental/aliases.json",
).supplemental.metadata.alias.languageAlias;
const shortLanguageCode = (code: string) => {
  const replacement = languageAliases[code]?._replacement;
  return replacement && /^[a-z]{2}$/.test(replacement) ? replacement : code;
};

interface PostalFormat {
  ValidationRegex: string;
}

/** postal-codes-js: each country's format file, by alpha-2 code. */
function postalCodePatterns(): Map<string, string> {
  const formats = readJson<Record<string, string[]>>("postal-codes-js/mappings/alpha2-to-formats.json");
  const patterns = new Map<string, string>();
  for (const [file, codes] of Object.entries(formats)) {
    const { ValidationRegex: regex } = readJson<PostalFormat>(`postal-codes-js/formats/${file}`);
    // Some formats are written unanchored; the pattern given out matches a whole code.
    const anchored = regex.startsWith("^") && regex.endsWith("$") ? regex : `^(?:${regex})$`;
    for (const code of codes) patterns.set(code, anchored);
  }
  return patterns;
}

/** +49 for Germany; +1 alone for the hundreds of area codes of the North American plan, as people write it. */
function callingCodes(idd: { root: string; suffixes: string[] }): string[] {
  if (!idd.root) return [];
  if (idd.suffixes.length === 0 || idd.suffixes.length > 3) return [idd.root];
  return idd.suffixes.map((suffix) => idd.root + suffix);
}

/**
 * What people expect of a country beyond its codes (restcountries' fields): mledoze's
 * world-countries (ODbL 1.0) for capital, regions, languages, currencies, calling codes, borders,
 * flag, domains, position and names in 23 languages; countries-and-timezones (MIT, from the IANA
 * time zone database) for time zones; postal-codes-js (Apache-2.0) for postal-code patterns.
 */
function countryProfiles(): Map<string, CountryProfile> {
  const alpha2 = new Map(worldCountries.map((c) => [c.cca3, c.cca2]));
  const postal = postalCodePatterns();
  return new Map(
    worldCountries.map((c) => [
      c.cca2,
      {
        capital: c.capital,
        region: c.region,
        subregion: c.subregion || null,
        languages: Object.entries(c.languages).map(([code, name]) => ({ code: shortLanguageCode(code), name })),
        currencies: Object.keys(c.currencies),
        callingCodes: callingCodes(c.idd),
        timezones: getCountry(c.cca2)?.timezones ?? [],
        borders: c.borders.map((b) => alpha2.get(b)!).filter(Boolean),
        flag: c.flag,
        postalCodePattern: postal.get(c.cca2) ?? null,
        topLevelDomains: c.tld,
        latlng: c.latlng.length === 2 ? [c.latlng[0], c.latlng[1]] : null,
        names: Object.fromEntries(Object.entries(c.translations).map(([code, name]) => [shortLanguageCode(code), name.common])),
      },
    ]),
  );
}

/** The 249 ISO 3166-1 countries, with dialing code, currency and profile. */
export function countrySeedRows(): Omit<CountryRow, "id">[] {
  const profiles = countryProfiles();
  return allCountries()
    .filter((c) => !NOT_ISO.has(c.countryCode))
    .map((c) => ({
      code: c.countryCode,
      name: c.countryNameEn,
      iso3: c.countryCodeAlpha3,
      numericCode: c.countryCodeNumeric ? c.countryCodeNumeric.padStart(3, "0") : null,
      phoneCode: c.countryCallingCode || null,
      currencyCode: c.currencyCode || null,
      profile: profiles.get(c.countryCode) ?? null,
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}
