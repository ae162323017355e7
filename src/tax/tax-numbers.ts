import { entityValidators, euVat } from "stdnum";
import type { Database } from "../platform/database";
import { ratesOfCountry, taxIdPatterns } from "./service";
import type { OfflineCheck } from "./schema";

/** VAT prefixes that are not the ISO code of their country: Greece's EL, Northern Ireland's XI (UK VAT). */
const PREFIX_COUNTRY: Record<string, string> = { EL: "GR", XI: "GB" };

export function normalizeTaxNumber(input: string): string {
  return input.toUpperCase().replace(/[\s.\-/]/g, "");
}

function checkDigits(countryCode: string, normalized: string): { checked: boolean; valid: boolean } {
  const validators = euVat[countryCode] ?? entityValidators[countryCode];
  if (!validators?.length) return { checked: false, valid: true };
  // An XI number is a UK VAT number: the UK's algorithm reads it with the GB prefix.
  const number = countryCode === "GB" ? normalized.replace(/^XI/, "GB") : normalized;
  return { checked: true, valid: validators.some((v) => v.validate(number).isValid) };
}

type Verdict = { countryCode: string; checked: boolean; valid: boolean };

/**
 * The country a number belongs to among those whose format it fits: the only one it may belong to
 * (check digits pass, or the country has no algorithm). Undefined when more than one remains: a
 * bare nine digits fits a dozen countries, and one passing check digit (1 chance in 11 for
 * Paraguay's) does not outweigh a country with no algorithm to say no.
 */
function singleOut(verdicts: Verdict[]): Verdict | undefined {
  if (verdicts.length === 1) return verdicts[0];
  const possible = verdicts.filter((v) => v.valid);
  return possible.length === 1 ? possible[0] : undefined;
}

/**
 * Finds the country whose tax id pattern the number fits (its prefix decides where it has one,
 * `country` where the caller knows it), then confirms the check digits where an algorithm is
 * known. Undefined when no country fits.
 */
export async function checkTaxNumber(db: Database, input: string, country?: string): Promise<OfflineCheck | undefined> {
  const normalized = normalizeTaxNumber(input);
  const patterns = await taxIdPatterns(db);
  const fitting = [...patterns]
    .filter(([countryCode, list]) => (!country || countryCode === country) && list.some((pattern) => new RegExp(pattern).test(normalized)))
    .map(([countryCode]) => countryCode)
    .sort();
  const prefix = normalized.slice(0, 2);
  const prefixed = PREFIX_COUNTRY[prefix] ?? prefix;
  const candidates = fitting.includes(prefixed) ? [prefixed] : fitting;
  if (candidates.length === 0) return undefined;

  const verdicts = candidates.map((countryCode) => ({ countryCode, ...checkDigits(countryCode, normalized) }));
  const chosen = singleOut(verdicts);
  if (!chosen) {
    const possible = verdicts.filter((v) => v.valid);
    return {
      valid: possible.length > 0,
      countryCode: null,
      normalized,
      checkDigitVerified: false,
      alternatives: (possible.length > 0 ? possible : verdicts).map((v) => v.countryCode),
      rates: [],
    };
  }
  return {
    valid: chosen.valid,
    countryCode: chosen.countryCode,
    normalized,
    checkDigitVerified: chosen.checked && chosen.valid,
    alternatives: verdicts.filter((v) => v !== chosen && v.valid).map((v) => v.countryCode),
    rates: await ratesOfCountry(db, chosen.countryCode),
  };
}
