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
  },
  (t) => [uniqueIndex("countries_code").on(t.code)],
);

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

export const countrySchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "DE", description: "ISO 3166-1 alpha-2" }),
    name: z.string().openapi({ example: "Germany" }),
    iso3: z.string().openapi({ example: "DEU", description: "ISO 3166-1 alpha-3" }),
    numericCode: z.string().nullable().openapi({ example: "276", description: "ISO 3166-1 numeric, three digits" }),
    phoneCode: z.string().nullable().openapi({ example: "49", description: "International dialing code" }),
    currencyCode: z.string().nullable().openapi({ example: "EUR", description: "ISO 4217" }),
  })
  .openapi("Country");

export const currencySchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "EUR" }),
    name: z.string().openapi({ example: "Euro" }),
    symbol: z.string().nullable().openapi({ example: "€" }),
    numericCode: z.string().nullable().openapi({ example: "978" }),
    minorUnits: z.number().int().nullable().openapi({ example: 2, description: "Null where ISO 4217 says N.A. (precious metals, XDR, XXX)" }),
    withdrawn: z.string().nullable().openapi({ example: null, description: "YYYY-MM the code was withdrawn (ANG, BGN, CUC); null while current" }),
  })
  .openapi("Currency");

export const languageSchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "de", description: "ISO 639-1, or a locale such as pt-BR" }),
    name: z.string().openapi({ example: "Deutsch", description: "The language's own name" }),
    nameEn: z.string().openapi({ example: "German" }),
    baseCode: z.string().nullable().openapi({ description: "For a locale variant, its language" }),
  })
  .openapi("Language");

export const zoneSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "Bayern", description: "Local name" }),
    nameEN: z.string().openapi({ example: "Bavaria" }),
    code: z.string().openapi({ example: "DE-BY", description: "ISO 3166-1 alpha-2 for countries, ISO 3166-2 below" }),
    parsent: z.number().int().openapi({ example: 57, description: "Parent zone id; 0 for a country" }),
    type: z.string().nullable().openapi({ example: "state" }),
  })
  .openapi("Zone");

export const unitSchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "KGM", description: "UN/ECE Recommendation 20 common code" }),
    name: z.string().openapi({ example: "kilogram" }),
    nameZH: z.string().nullable().openapi({ example: "千克" }),
    origin: z.enum(["base", "unece"]).openapi({ description: "base: the commerce units; unece: the rest of Recommendation 20" }),
    kind: z.string().nullable().openapi({ example: "mass" }),
    symbol: z.string().nullable().openapi({ example: "kg" }),
    refUnit: z.number().int().nullable().openapi({ description: "Id of the unit this one converts to" }),
    factor: z.string().nullable().openapi({ example: "0.45359237", description: "Exact decimal: 1 unit = factor × refUnit" }),
  })
  .openapi("Unit");

export const hsCodeSchema = z
  .object({
    id: z.number().int(),
    version: z.string().openapi({ example: "2022" }),
    code: z.string().openapi({ example: "0901" }),
    description: z.string(),
    parent: z.string().nullable().openapi({ example: "09" }),
    level: z.number().int().openapi({ description: "0 section, 2 chapter, 4 heading, 6 subheading" }),
    section: z.string().openapi({ example: "II" }),
  })
  .openapi("HsCode");

export const platformSchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "amazon" }),
    name: z.string().openapi({ example: "Amazon" }),
    kind: z.enum(["marketplace", "shop_system"]),
    website: z.string(),
    regions: z.string().openapi({ description: "Where it operates, comma-separated ISO codes or 'global'" }),
  })
  .openapi("Platform");

export const purchaseFieldSchema = z
  .object({
    name: z.string(),
    label: z.string(),
    type: z.enum(["string", "number", "date", "enum"]),
    required: z.boolean(),
    pattern: z.string().optional(),
    options: z.array(z.string()).optional(),
  })
  .openapi("PurchaseField");
