import { createRoute, z } from "@hono/zod-openapi";
import { dataEnvelope } from "../platform/envelope";
import { ApiError, notFound } from "../platform/errors";
import { cachedReads } from "../platform/read-cache";
import { createRouter, DATA_SECURITY, dataErrorResponses, dataResponse, idParam } from "../platform/openapi";
import { pageObject, pageObjectSchema, zeroBasedPageQuery } from "../platform/pagination";
import { RATE_LEVELS, TAX_TYPES, taxRateSchema } from "./schema";
import { euVatRates, listTaxRates, oecdRates, ratesOfCountry, ratesOfRegion, ratesOfType, standardRate, taxRateById } from "./service";

export const TAX_BASE_PATH = "/std/api/bigdata/taxrate";

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, { error: "countryCode must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE" })
  .openapi({ param: { name: "countryCode", in: "path" }, example: "DE" });

const regionCode = z
  .string()
  .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, { error: "regionCode must be an upper-case ISO 3166-2 code, e.g. US-CA" })
  .openapi({ param: { name: "regionCode", in: "path" }, example: "US-CA" });

const taxType = z
  .enum(TAX_TYPES, { error: `taxType must be one of ${TAX_TYPES.join(", ")}` })
  .openapi({ param: { name: "taxType", in: "path" }, example: "VAT" });

const rateList = z.array(taxRateSchema);

const taxNumberCheck = z
  .object({
    valid: z.boolean(),
    countryCode: z.string().nullable(),
    normalized: z.string(),
    checkDigitVerified: z.boolean(),
    alternatives: z.array(z.string()),
    rates: rateList,
  })
  .openapi("TaxNumberCheck");

const common = { tags: ["T · Tax rates"], security: DATA_SECURITY };

const routes = {
  list: createRoute({
    ...common,
    method: "get",
    path: "/list",
    summary: "T1 · All tax rate records, history included, page by page",
    request: { query: zeroBasedPageQuery },
    responses: { ...dataResponse(pageObjectSchema(taxRateSchema), "A page of records"), ...dataErrorResponses(400, 401, 403) },
  }),
  country: createRoute({
    ...common,
    method: "get",
    path: "/country/{countryCode}",
    summary: "T2 · Current rates of a country, regions included",
    request: { params: z.object({ countryCode }) },
    responses: { ...dataResponse(rateList, "Current rates"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
  region: createRoute({
    ...common,
    method: "get",
    path: "/country/{countryCode}/region/{regionCode}",
    summary: "T3 · Current rates of a region (state, province)",
    request: { params: z.object({ countryCode, regionCode }) },
    responses: { ...dataResponse(rateList, "Current rates of the region"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
  type: createRoute({
    ...common,
    method: "get",
    path: "/country/{countryCode}/type/{taxType}",
    summary: "T4 · Current rates of a country of one tax type",
    request: { params: z.object({ countryCode, taxType }) },
    responses: { ...dataResponse(rateList, "Current rates of the type"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
  standard: createRoute({
    ...common,
    method: "get",
    path: "/country/{countryCode}/standard",
    summary: "T5 · The standard VAT (GST, consumption tax) rate of a country",
    request: { params: z.object({ countryCode }) },
    responses: { ...dataResponse(taxRateSchema, "The standard rate"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
  euAll: createRoute({
    ...common,
    method: "get",
    path: "/eu/all",
    summary: "T6 · Current VAT rates of every EU member",
    responses: { ...dataResponse(rateList, "Current EU VAT rates"), ...dataErrorResponses(401, 403) },
  }),
  oecd: createRoute({
    ...common,
    method: "get",
    path: "/oecd/{taxType}",
    summary: "T7 · Current rates of one tax type in every OECD member",
    request: { params: z.object({ taxType }) },
    responses: { ...dataResponse(rateList, "Current rates"), ...dataErrorResponses(400, 401, 403) },
  }),
  taxNumber: createRoute({
    ...common,
    method: "get",
    path: "/taxnumber/{taxNumber}",
    summary: "T8 · Validate a tax number, tell its country and return that country's rates",
    description:
      "Spaces, dots, dashes and slashes are ignored; a prefix (DE, EL for Greece, XI for Northern Ireland) names the " +
      "country. `valid` is false when the number has a country's format but fails its check digits; 404 when it fits " +
      "no country's format. Without a prefix, the country is the only one whose check digits confirm the number, or the " +
      "only one it can belong to; when several remain, `countryCode` is null, `alternatives` lists them and `rates` is " +
      "empty: ask again with `country`.",
    request: {
      query: z.object({
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, { error: "country must be an upper-case ISO 3166-1 alpha-2 code, e.g. PY" })
          .optional()
          .openapi({ description: "The country the number is from, where the caller knows it", example: "PY" }),
      }),
      params: z.object({
        taxNumber: z
          .string()
          .regex(/^[A-Za-z0-9 .\-/]{4,40}$/, { error: "taxNumber must be 4 to 40 letters, digits, spaces, dots or dashes" })
          .openapi({ param: { name: "taxNumber", in: "path" }, example: "DE136695976" }),
      }),
    },
    responses: { ...dataResponse(taxNumberCheck, "The verdict and the rates"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
  types: createRoute({
    ...common,
    method: "get",
    path: "/types",
    summary: "T9 · The tax type codes",
    responses: { ...dataResponse(z.array(z.enum(TAX_TYPES)), "Tax type codes"), ...dataErrorResponses(401, 403) },
  }),
  levels: createRoute({
    ...common,
    method: "get",
    path: "/levels",
    summary: "T10 · The rate levels",
    responses: { ...dataResponse(z.array(z.enum(RATE_LEVELS)), "Rate levels"), ...dataErrorResponses(401, 403) },
  }),
  byId: createRoute({
    ...common,
    method: "get",
    path: "/{id}",
    summary: "T11 · One record by id, current or historical",
    request: {
      params: z.object({ id: idParam("id") }),
    },
    responses: { ...dataResponse(taxRateSchema, "The record"), ...dataErrorResponses(400, 401, 403, 404) },
  }),
};

function nonEmpty<T>(rates: T[], what: string): T[] {
  if (rates.length === 0) throw notFound(`No current tax rates for ${what}`);
  return rates;
}

export function taxRoutes() {
  const router = createRouter();
  // The data changes only with a refresh job or the seed: answers are kept under its version.
  router.use("*", cachedReads());
  // Static paths are registered before `/{id}`, which would otherwise take them.
  router.openapi(routes.list, async (c) => {
    const { page, size } = c.req.valid("query");
    const { rates, total } = await listTaxRates(c.var.db, page, size);
    return c.json(dataEnvelope(pageObject(rates, total, page, size)), 200);
  });
  router.openapi(routes.types, (c) => c.json(dataEnvelope([...TAX_TYPES]), 200));
  router.openapi(routes.levels, (c) => c.json(dataEnvelope([...RATE_LEVELS]), 200));
  router.openapi(routes.euAll, async (c) => c.json(dataEnvelope(await euVatRates(c.var.db)), 200));
  router.openapi(routes.oecd, async (c) => {
    const { taxType } = c.req.valid("param");
    return c.json(dataEnvelope(await oecdRates(c.var.db, taxType)), 200);
  });
  router.openapi(routes.country, async (c) => {
    const { countryCode } = c.req.valid("param");
    return c.json(dataEnvelope(nonEmpty(await ratesOfCountry(c.var.db, countryCode), countryCode)), 200);
  });
  router.openapi(routes.region, async (c) => {
    const { countryCode, regionCode } = c.req.valid("param");
    if (!regionCode.startsWith(`${countryCode}-`)) {
      throw new ApiError(400, `regionCode ${regionCode} is not a region of ${countryCode}`);
    }
    const rates = await ratesOfRegion(c.var.db, countryCode, regionCode);
    return c.json(dataEnvelope(nonEmpty(rates, regionCode)), 200);
  });
  router.openapi(routes.type, async (c) => {
    const { countryCode, taxType } = c.req.valid("param");
    const rates = await ratesOfType(c.var.db, countryCode, taxType);
    return c.json(dataEnvelope(nonEmpty(rates, `${taxType} in ${countryCode}`)), 200);
  });
  router.openapi(routes.standard, async (c) => {
    const { countryCode } = c.req.valid("param");
    const rate = await standardRate(c.var.db, countryCode);
    if (!rate) throw notFound(`${countryCode} has no standard VAT or GST rate`);
    return c.json(dataEnvelope(rate), 200);
  });
  router.openapi(routes.taxNumber, async (c) => {
    const { taxNumber } = c.req.valid("param");
    const { country } = c.req.valid("query");
    // The check-digit algorithms of 90 countries load with the first tax number, not with the Worker.
    const { checkTaxNumber } = await import("./tax-numbers");
    const check = await checkTaxNumber(c.var.db, taxNumber, country);
    if (!check) throw notFound(country ? `${taxNumber} fits no tax number format of ${country}` : `${taxNumber} fits no country's tax number format`);
    return c.json(dataEnvelope(check), 200);
  });
  router.openapi(routes.byId, async (c) => {
    const { id } = c.req.valid("param");
    const rate = await taxRateById(c.var.db, id);
    if (!rate) throw notFound(`No tax rate record with id ${id}`);
    return c.json(dataEnvelope(rate), 200);
  });
  return router;
}
