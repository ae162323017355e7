import { createSelectSchema, rowAnswer } from "../platform/row-answer";
import { z } from "@hono/zod-openapi";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const countries = sqliteTable(
  "countries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    iso3: text("iso3").notNull(),
    /** ISO 3166-1 numeric, three digits. */
    numericCode: text("numeric_code"),
    phoneCode: text("phone_code"),
    currencyCode: text("currency_code"),
    /** Capital, regions, languages, time zones and the rest (`countryProfile`); null for a country the sources lack. */
    profile: text("profile", { mode: "json" }).$type<CountryProfile>(),
  },
  (t) => [uniqueIndex("countries_code").on(t.code)],
);

/** What people expect of a country beyond its codes, from the openly licensed sources of seed/SOURCES.md. */
export const countryProfile = z.object({
  capital: z.array(z.string()).openapi({ example: ["Berlin"] }),
  region: z.string().openapi({ example: "Europe", description: "Africa, Americas, Antarctic, Asia, Europe or Oceania" }),
  subregion: z.string().nullable().openapi({ example: "Western Europe" }),
  languages: z
    .array(z.object({ code: z.string(), name: z.string() }))
    .openapi({ example: [{ code: "de", name: "German" }], description: "Official languages: ISO 639-1 where one exists, else ISO 639-3" }),
  currencies: z.array(z.string()).openapi({ example: ["EUR"], description: "ISO 4217 codes in use" }),
  callingCodes: z.array(z.string()).openapi({ example: ["+49"] }),
  timezones: z.array(z.string()).openapi({ example: ["Europe/Berlin", "Europe/Zurich"], description: "IANA time zone names" }),
  borders: z.array(z.string()).openapi({ example: ["AT", "BE", "CH"], description: "Neighbours by land, ISO 3166-1 alpha-2" }),
  flag: z.string().openapi({ example: "🇩🇪", description: "Flag emoji" }),
  postalCodePattern: z
    .string()
    .nullable()
    .openapi({ example: "^[0-9]{5}$", description: "Matches a postal code once spaces and dashes are removed; null where the country has none" }),
  topLevelDomains: z.array(z.string()).openapi({ example: [".de"] }),
  latlng: z
    .tuple([z.number(), z.number()])
    .nullable()
    .openapi({ example: [51, 9], description: "Latitude and longitude of the country's centre" }),
  names: z
    .record(z.string(), z.string())
    .openapi({ example: { fr: "Allemagne", ja: "ドイツ" }, description: "The country's name in other languages, by language code" }),
});
export type CountryProfile = z.infer<typeof countryProfile>;

export const currencies = sqliteTable(
  "currencies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    symbol: text("symbol"),
    numericCode: text("numeric_code"),
    /** Null where ISO 4217 says N.A. (metals, XDR, XXX). */
    minorUnits: integer("minor_units"),
    /** YYYY-MM the code stopped being current; null while it is. */
    withdrawn: text("withdrawn"),
  },
  (t) => [uniqueIndex("currencies_code").on(t.code)],
);

/** ISO 639-1 languages; `baseCode` is set on locale variants such as pt-BR. */
export const languages = sqliteTable(
  "languages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    nameEn: text("name_en").notNull(),
    baseCode: text("base_code"),
  },
  (t) => [uniqueIndex("languages_code").on(t.code)],
);

/** Countries (parsent 0) and their ISO 3166-2 subdivisions; ids are stable across seeds. */
export const zones = sqliteTable(
  "zones",
  {
    id: integer("id").primaryKey(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    nameEn: text("name_en").notNull(),
    parsent: integer("parsent").notNull(),
    type: text("type"),
  },
  (t) => [uniqueIndex("zones_code").on(t.code), index("zones_parsent").on(t.parsent), index("zones_name_en").on(t.nameEn)],
);

/** UN/ECE Recommendation 20 units; `origin` "base" marks the commerce units, with a reference unit and factor. */
export const units = sqliteTable(
  "units",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    nameZh: text("name_zh"),
    origin: text("origin", { enum: ["base", "unece"] }).notNull(),
    kind: text("kind"),
    symbol: text("symbol"),
    refUnit: integer("ref_unit"),
    factor: text("factor"),
  },
  (t) => [uniqueIndex("units_code").on(t.code), index("units_origin").on(t.origin, t.code)],
);

/** The Harmonized System by edition: sections (level 0), chapters (2), headings (4), subheadings (6). */
export const hsCodes = sqliteTable(
  "hs_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    version: text("version").notNull(),
    code: text("code").notNull(),
    description: text("description").notNull(),
    parent: text("parent"),
    level: integer("level").notNull(),
    section: text("section").notNull(),
  },
  (t) => [uniqueIndex("hs_codes_version_code").on(t.version, t.code), index("hs_codes_version_parent").on(t.version, t.parent)],
);

export const platforms = sqliteTable(
  "platforms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["marketplace", "shop_system"] }).notNull(),
    website: text("website").notNull(),
    regions: text("regions").notNull(),
  },
  (t) => [uniqueIndex("platforms_code").on(t.code)],
);

export type CountryRow = typeof countries.$inferSelect;
export type CurrencyRow = typeof currencies.$inferSelect;
export type LanguageRow = typeof languages.$inferSelect;
export type ZoneRow = typeof zones.$inferSelect;
export type UnitRow = typeof units.$inferSelect;
export type HsCodeRow = typeof hsCodes.$inferSelect;
export type PlatformRow = typeof platforms.$inferSelect;

const countryCodes = createSelectSchema(countries, {
  code: (s) => s.openapi({ example: "DE", description: "ISO 3166-1 alpha-2" }),
  name: (s) => s.openapi({ example: "Germany" }),
  iso3: (s) => s.openapi({ example: "DEU", description: "ISO 3166-1 alpha-3" }),
  numericCode: (s) => s.openapi({ example: "276", description: "ISO 3166-1 numeric, three digits" }),
  phoneCode: (s) => s.openapi({ example: "49", description: "International dialing code" }),
  currencyCode: (s) => s.openapi({ example: "EUR", description: "ISO 4217" }),
}).omit({ profile: true });

/** A country: its codes and its profile's fields side by side; `fields` may leave out any but `code`. */
export const countrySchema = z
  .object({
    ...countryCodes.partial().shape,
    ...countryProfile.partial().shape,
    code: countryCodes.shape.code,
    translatedName: z.string().optional().openapi({ example: "Allemagne", description: "The name in the language of `lang`, when asked for" }),
  })
  .openapi("Country");

export const currencySchema = rowAnswer(
  createSelectSchema(currencies, {
    code: (s) => s.openapi({ example: "EUR" }),
    name: (s) => s.openapi({ example: "Euro" }),
    symbol: (s) => s.openapi({ example: "€" }),
    numericCode: (s) => s.openapi({ example: "978" }),
    minorUnits: (s) => s.openapi({ example: 2, description: "Null where ISO 4217 says N.A. (precious metals, XDR, XXX)" }),
    withdrawn: (s) => s.openapi({ example: null, description: "YYYY-MM the code was withdrawn (ANG, BGN, CUC); null while current" }),
  }),
  "Currency",
);

export const languageSchema = rowAnswer(
  createSelectSchema(languages, {
    code: (s) => s.openapi({ example: "de", description: "ISO 639-1, or a locale such as pt-BR" }),
    name: (s) => s.openapi({ example: "Deutsch", description: "The language's own name" }),
    nameEn: (s) => s.openapi({ example: "German" }),
    baseCode: (s) => s.openapi({ description: "For a locale variant, its language" }),
  }),
  "Language",
);

const zoneRow = createSelectSchema(zones, {
  name: (s) => s.openapi({ example: "Bayern", description: "Local name" }),
  nameEn: (s) => s.openapi({ example: "Bavaria" }),
  code: (s) => s.openapi({ example: "DE-BY", description: "ISO 3166-1 alpha-2 for countries, ISO 3166-2 below" }),
  parsent: (s) => s.openapi({ example: 57, description: "Parent zone id; 0 for a country" }),
  type: (s) => s.openapi({ example: "state" }),
});
/** The interface spells the English name nameEN. */
export const zoneSchema = rowAnswer(zoneRow.omit({ nameEn: true }).extend({ nameEN: zoneRow.shape.nameEn }), "Zone");
export const toZone = ({ nameEn, ...zone }: ZoneRow) => ({ ...zone, nameEN: nameEn });

const unitRow = createSelectSchema(units, {
  code: (s) => s.openapi({ example: "KGM", description: "UN/ECE Recommendation 20 common code" }),
  name: (s) => s.openapi({ example: "kilogram" }),
  nameZh: (s) => s.openapi({ example: "千克" }),
  origin: (s) => s.openapi({ description: "base: the commerce units; unece: the rest of Recommendation 20" }),
  kind: (s) => s.openapi({ example: "mass" }),
  symbol: (s) => s.openapi({ example: "kg" }),
  refUnit: (s) => s.openapi({ description: "Id of the unit this one converts to" }),
  factor: (s) => s.openapi({ example: "0.45359237", description: "Exact decimal: 1 unit = factor × refUnit" }),
});
/** The interface spells the Chinese name nameZH. */
export const unitSchema = rowAnswer(unitRow.omit({ nameZh: true }).extend({ nameZH: unitRow.shape.nameZh }), "Unit");
export const toUnit = ({ nameZh, ...unit }: UnitRow) => ({ ...unit, nameZH: nameZh });

export const hsCodeSchema = rowAnswer(
  createSelectSchema(hsCodes, {
    version: (s) => s.openapi({ example: "2022" }),
    code: (s) => s.openapi({ example: "0901" }),
    description: (s) =>
      s.openapi({ example: "Coffee, whether or not roasted or decaffeinated; coffee husks and skins; coffee substitutes containing coffee" }),
    parent: (s) => s.openapi({ example: "09" }),
    level: (s) => s.openapi({ description: "0 section, 2 chapter, 4 heading, 6 subheading", example: 4 }),
    section: (s) => s.openapi({ example: "II" }),
  }),
  "HsCode",
);

export const platformSchema = rowAnswer(
  createSelectSchema(platforms, {
    code: (s) => s.openapi({ example: "amazon" }),
    name: (s) => s.openapi({ example: "Amazon" }),
    website: (s) => s.openapi({ example: "https://sellercentral.amazon.com" }),
    regions: (s) => s.openapi({ description: "Where it operates, comma-separated ISO codes or 'global'", example: "global" }),
  }),
  "Platform",
);

export const purchaseFieldSchema = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(["string", "number", "date", "enum"]),
    required: z.boolean(),
    pattern: z.string().optional(),
    options: z.array(z.string()).optional(),
  })
  .openapi("PurchaseField", {
    example: { name: "marketplace", label: "Amazon marketplace", type: "enum", required: true, options: ["amazon.com", "amazon.de", "amazon.co.jp"] },
  });
