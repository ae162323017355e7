import { entityValidators, euVat } from "stdnum";
import type { Database } from "../platform/database";
import { ratesOfCountry, taxIdPatterns } from "./service";
import type { TaxRate } from "./schema";

/** VAT prefixes that are not the ISO code of their country. */
const PREFIX_COUNTRY: Record<string, string> = { EL: "GR" };

export interface TaxNumberCheck {
  valid: boolean;
  countryCode: string;
  normalized: string;
  /** True when a check-digit algorithm confirmed the number, not only its pattern. */
  checkDigitVerified: boolean;
  /** Other countries whose format the number also fits. */
  alternatives: string[];
  rates: TaxRate[];
}

export function normalizeTaxNumber(input: string): string {
  return input.toUpperCase().replace(/[\s.\-/]/g, "");
}

function checkDigits(countryCode: string, normalized: string): { checked: boolean; valid: boolean } {
  const validators = euVat[countryCode] ?? entityValidators[countryCode];
  if (!validators?.length) return { checked: false, valid: true };
  return { checked: true, valid: validators.some((v) => v.validate(normalized).isValid) };
}

/**
 * Finds the country whose tax id pattern the number fits (its prefix decides where it has one),
 * then confirms the check digits where an algorithm is known. Undefined when no country fits.
 */
export async function checkTaxNumber(db: Database, input: string): Promise<TaxNumberCheck | undefined> {
  const normalized = normalizeTaxNumber(input);
  const patterns = await taxIdPatterns(db);
  const fitting = [...patterns]
    .filter(([, list]) => list.some((pattern) => new RegExp(pattern).test(normalized)))
    .map(([countryCode]) => countryCode)
    .sort();
  const prefix = normalized.slice(0, 2);
  const prefixed = PREFIX_COUNTRY[prefix] ?? prefix;
  const candidates = fitting.includes(prefixed) ? [prefixed] : fitting;
  if (candidates.length === 0) return undefined;

  const verdicts = candidates.map((countryCode) => ({ countryCode, ...checkDigits(countryCode, normalized) }));
  const chosen = verdicts.find((v) => v.valid && v.checked) ?? verdicts.find((v) => v.valid) ?? verdicts[0]!;
  return {
    valid: chosen.valid,
    countryCode: chosen.countryCode,
    normalized,
    checkDigitVerified: chosen.checked && chosen.valid,
    alternatives: verdicts.filter((v) => v !== chosen && v.valid).map((v) => v.countryCode),
    rates: await ratesOfCountry(db, chosen.countryCode),
  };
}
