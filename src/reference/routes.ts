import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../platform/env";
import { notFound } from "../platform/errors";
import { cachedReads } from "../platform/read-cache";
import { createRouter } from "../platform/openapi";
import { styleFRoutes } from "../platform/style-f";
import {
  countryListParams,
  countrySpecialParams,
  currencySpecialParams,
  hsCodeListParams,
  languageListParams,
  languageSpecialParams,
  noParams,
  platformSpecialParams,
  purchaseFieldsParams,
  unitListParams,
  zoneQueryParams,
} from "./params";
import {
  countrySchema,
  currencySchema,
  hsCodeSchema,
  languageSchema,
  platformSchema,
  purchaseFieldSchema,
  unitSchema,
  toUnit,
  toZone,
  zoneSchema,
} from "./schema";
import {
  countryAnswer,
  countryByCode,
  currencyByCode,
  languageByCode,
  listCountries,
  listCurrencies,
  listLanguages,
  listPlatforms,
  platformByCode,
  queryHsCodes,
  queryUnits,
  queryZones,
  topLevelZones,
} from "./service";

export const REFERENCE_BASE_PATH = "/std/open";

const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ total: z.number().int(), page: z.number().int(), size: z.number().int(), items: z.array(item) });

/** The binding's RPC surface; the class lives in this group, the binding in wrangler.toml. */
const purchaseFields = (c: Context<AppEnv>) => c.env.PURCHASE_FIELDS;

export function referenceRoutes() {
  const router = createRouter();
  // The data changes only with a refresh job or the seed: answers are kept under its version.
  router.use("*", cachedReads());
  const styleF = styleFRoutes(router, { tag: "O · Open reference data", envelope: "data", errors: [400, 401, 403, 404, 429] });
  const db = (c: Context<AppEnv>) => c.get("db");

  styleF({
    path: "/country/list",
    summary: "O1 · All 249 ISO 3166-1 countries, or those of a region, currency or language",
    description: "Filters and `fields` in bizContent (POST). Without `fields`, the interface's fields only (GET too); `fields` adds the profile's.",
    params: countryListParams,
    example: { region: "Western Europe", fields: ["name", "capital", "timezones"], lang: "fr" },
    data: z.array(countrySchema),
    get: true,
    handle: (c, p) => listCountries(db(c), p),
  });
  styleF({
    path: "/country/special",
    summary: "O2 · One country by its alpha-2 code",
    params: countrySpecialParams,
    example: { ccode: "JP" },
    data: countrySchema,
    handle: async (c, p) => {
      const country = await countryByCode(db(c), p.ccode);
      if (!country) throw notFound(`No country with code ${p.ccode}`);
      if (p.country && !country.name.toLowerCase().includes(p.country.toLowerCase())) {
        throw notFound(`Country ${p.ccode} is ${country.name}, which does not match "${p.country}"`);
      }
      if (p.shipCountry && !(await countryByCode(db(c), p.shipCountry))) throw notFound(`No country with code ${p.shipCountry}`);
      return countryAnswer(country, p);
    },
  });
  styleF({
    path: "/zone/list",
    summary: "O3 · The top-level zones: every country, parsent 0",
    params: noParams,
    example: {},
    data: z.array(zoneSchema),
    handle: async (c) => (await topLevelZones(db(c))).map(toZone),
  });
  styleF({
    path: "/zone/query",
    summary: "O4 · Zones by name, code, English name or parent (parsent)",
    params: zoneQueryParams,
    example: { parsent: 57, page: 1, size: 20 },
    data: pageOf(zoneSchema),
    handle: async (c, p) => {
      const page = await queryZones(db(c), p);
      return { ...page, items: page.items.map(toZone) };
    },
  });
  styleF({
    path: "/unit/list",
    summary: "O5 · Units of measure (UN/ECE Recommendation 20)",
    params: unitListParams,
    example: { code: "LBR" },
    data: pageOf(unitSchema),
    handle: async (c, p) => {
      const page = await queryUnits(db(c), p);
      return { ...page, items: page.items.map(toUnit) };
    },
  });
  styleF({
    path: "/hs-code/list",
    summary: "O6 · Harmonized System codes: search, levels, the tree",
    params: hsCodeListParams,
    example: { keywords: "coffee", page: 1, size: 10 },
    data: pageOf(hsCodeSchema),
    handle: (c, p) => queryHsCodes(db(c), p),
  });
  styleF({
    path: "/language/list",
    summary: "O7 · ISO 639-1 languages; subLanguage adds locales such as pt-BR",
    params: languageListParams,
    example: { subLanguage: true },
    data: z.array(languageSchema),
    handle: (c, p) => listLanguages(db(c), p.subLanguage),
  });
  styleF({
    path: "/language/special",
    summary: "O8 · One language or locale",
    params: languageSpecialParams,
    example: { code: "pt-BR" },
    data: languageSchema,
    handle: async (c, p) => (await languageByCode(db(c), p.code)) ?? Promise.reject(notFound(`No language with code ${p.code}`)),
  });
  styleF({
    path: "/currency/list",
    summary: "O9 · Every current ISO 4217 currency (withdrawn ones through O10)",
    params: noParams,
    example: {},
    data: z.array(currencySchema),
    get: true,
    handle: (c) => listCurrencies(db(c)),
  });
  styleF({
    path: "/currency/special",
    summary: "O10 · One currency, with its symbol",
    params: currencySpecialParams,
    example: { currency: "EUR" },
    data: currencySchema,
    handle: async (c, p) => (await currencyByCode(db(c), p.currency)) ?? Promise.reject(notFound(`No currency with code ${p.currency}`)),
  });
  styleF({
    path: "/manufacturer/all",
    summary: "O11 · Marketplaces and shop systems",
    params: noParams,
    example: {},
    data: z.array(platformSchema),
    handle: (c) => listPlatforms(db(c)),
  });
  styleF({
    path: "/manufacturer/special",
    summary: "O12 · One platform by its code",
    params: platformSpecialParams,
    example: { code: "shopify" },
    data: platformSchema,
    handle: async (c, p) => (await platformByCode(db(c), p.code)) ?? Promise.reject(notFound(`No platform with code ${p.code}`)),
  });
  styleF({
    path: "/manufacturer/purchase/fields",
    summary: "O13 · The purchase fields of a platform (internal RPC service)",
    params: purchaseFieldsParams,
    example: { platform: "amazon" },
    data: z.array(purchaseFieldSchema),
    handle: async (c, p) => (await purchaseFields(c).fieldsOf(p.platform)) ?? Promise.reject(notFound(`No platform with code ${p.platform}`)),
  });
  return router;
}
