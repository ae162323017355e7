import { z } from "@hono/zod-openapi";

const alpha2 = (name: string) => z.string().regex(/^[A-Z]{2}$/, { error: `${name} must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE` });

/** Style F clients send numbers as JSON numbers or as digit strings; both are taken. */
const integer = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value),
    z
      .number({ error: "must be an integer" })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .int({ error: "must be an integer" }),
  );

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

const paging = {
  page: integer(1, 100_000).default(1).openapi({ description: "Page, from 1" }),
  size: integer(1, 1000).default(100).openapi({ description: "Page size, 1 to 1000, default 100" }),
};

export const noParams = z.strictObject({});

/** The fields of a country answer that `fields` may choose; `code` always comes back. */
export const COUNTRY_FIELDS = [
  "id",
  "name",
  "iso3",
  "numericCode",
  "phoneCode",
  "currencyCode",
  "capital",
  "region",
  "subregion",
  "languages",
  "currencies",
  "callingCodes",
  "timezones",
  "borders",
  "flag",
  "postalCodePattern",
  "topLevelDomains",
  "latlng",
  "names",
  "translatedName",
] as const;

/** The languages every country is named in: English and the 23 of world-countries. */
const COUNTRY_NAME_LANGUAGES = [
  "en",
  "ar",
  "cs",
  "de",
  "es",
  "et",
  "fa",
  "fi",
  "fr",
  "hr",
  "hu",
  "it",
  "ja",
  "ko",
  "nl",
  "pl",
  "pt",
  "ru",
  "sk",
  "sr",
  "sv",
  "tr",
  "ur",
  "zh",
] as const;

/** What O1 and O2 share: the fields to answer with, and the language of `translatedName`. */
const countryShape = {
  fields: z
    .array(z.enum(COUNTRY_FIELDS, { error: `each must be one of ${COUNTRY_FIELDS.join(", ")}` }), { error: "must be an array of field names" })
    .min(1, { error: "must name at least one field" })
    .max(COUNTRY_FIELDS.length)
    .optional()
    .openapi({ description: "Only these fields (and `code`) come back; all by default" }),
  lang: z
    .enum(COUNTRY_NAME_LANGUAGES, { error: `must be one of ${COUNTRY_NAME_LANGUAGES.join(", ")}` })
    .optional()
    .openapi({ description: "Adds `translatedName`: the country's name in this language" }),
};

export const countryListParams = z.strictObject({
  ...countryShape,
  region: text(50).optional().openapi({ description: "Region or subregion, e.g. Europe or Western Africa (case-insensitive)" }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: "must be an upper-case ISO 4217 code, e.g. EUR" })
    .optional()
    .openapi({ description: "Countries that use this currency" }),
  language: z
    .string()
    .regex(/^[a-z]{2,3}$/, { error: "must be an ISO 639-1 or 639-3 code, e.g. de" })
    .optional()
    .openapi({ description: "Countries with this official language" }),
});

export const countrySpecialParams = z.strictObject({
  ...countryShape,
  ccode: alpha2("ccode"),
  country: text(100).optional().openapi({ description: "Must occur in the country's name" }),
  shipCountry: alpha2("shipCountry").optional().openapi({ description: "A shipping country that must exist" }),
});

export const zoneQueryParams = z.strictObject({
  name: text(100).optional(),
  code: z
    .string()
    .regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, { error: "code must be an ISO 3166-1 or 3166-2 code in upper case" })
    .optional(),
  parsent: integer(0, 1_000_000).optional().openapi({ description: "Parent zone id; 0 lists the countries" }),
  name_en: text(100).optional(),
  ...paging,
});

export const unitListParams = z.strictObject({
  origin: z.enum(["base", "unece"], { error: "origin must be base or unece" }).default("base"),
  ref_unit_id: integer(1, 1_000_000).optional(),
  name: text(100).optional(),
  code: z
    .string()
    .regex(/^[A-Z0-9]{2,3}$/, { error: "code must be a UN/ECE common code of 2 or 3 upper-case letters or digits" })
    .optional(),
  name_zh: text(50).optional(),
  id: integer(1, 1_000_000).optional(),
  ...paging,
});

export const HS_VERSIONS = ["2022"] as const;

export const hsCodeListParams = z.strictObject({
  // An edition is a year: sent as a number too, as the other integers may be.
  version: z
    .preprocess(
      (value) => (typeof value === "number" ? String(value) : value),
      z.enum(HS_VERSIONS, { error: `version must be one of ${HS_VERSIONS.join(", ")}` }),
    )
    .default("2022"),
  type: z.enum(["base"], { error: "type must be base: the international six-digit nomenclature" }).default("base"),
  keywords: text(200).optional(),
  level: z.union([z.literal(0), z.literal(2), z.literal(4), z.literal(6)], { error: "level must be 0 (section), 2, 4 or 6" }).optional(),
  parent: z
    .string()
    .regex(/^([0-9]{2}|[0-9]{4}|[IVX]{1,5})$/, { error: "parent must be a section (I to XXI), chapter or heading code" })
    .optional(),
  ...paging,
});

export const languageListParams = z.strictObject({
  subLanguage: z.boolean({ error: "subLanguage must be true or false" }).default(false),
});

export const languageSpecialParams = z.strictObject({
  code: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, { error: "code must be an ISO 639-1 code such as de, or a locale such as pt-BR" }),
});

export const currencySpecialParams = z.strictObject({
  currency: z.string().regex(/^[A-Z]{3}$/, { error: "currency must be an upper-case ISO 4217 code, e.g. EUR" }),
});

export const platformSpecialParams = z.strictObject({
  code: z.string().regex(/^[a-z0-9_]{2,40}$/, { error: "code must be a platform code in lower case, such as amazon" }),
});

export const purchaseFieldsParams = z.strictObject({
  platform: z.string().regex(/^[a-z0-9_]{2,40}$/, { error: "platform must be a platform code in lower case, such as amazon" }),
});
