import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../platform/env";
import type { Database } from "../platform/database";
import { ApiError, notFound } from "../platform/errors";
import { existingCountryCodes } from "../reference/service";
import { cachedReads } from "../platform/read-cache";
import { checkLive, liveCheckConfigured } from "./live-check";
import { taxWebhookRoutes, WEBHOOKS_PATH } from "./webhook-routes";
import { createRouter, DATA_SECURITY, idParam } from "../platform/openapi";
import { DATA_ENVELOPE, defineRoutes } from "../platform/route";
import { pageObject, pageObjectSchema, zeroBasedPageQuery } from "../platform/pagination";
import { RATE_LEVELS, TAX_TYPES, rateChangeSchema, taxNumberCheckSchema, taxRateSchema } from "./schema";
import {
  euVatRates,
  listTaxRates,
  rateChanges,
  oecdRates,
  ratesOfCountry,
  ratesOfRegion,
  ratesOfType,
  standardRate,
  taxRateById,
  today,
} from "./service";

/** The day asked for, or today (UTC). */
const inForceDay = (date: string | undefined) => date ?? today();

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

/** The days `?date=` may name: history starts in 2020 (docs/tax.md), announcements reach a few years ahead. */
const FIRST_DAY = "1990-01-01";
const LAST_DAY = "2099-12-31";

const dateQuery = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "date must be a day as YYYY-MM-DD, e.g. 2026-01-01", abort: true })
    .refine((day) => new Date(Date.parse(`${day}T00:00:00Z`) || 0).toISOString().startsWith(day), {
      error: "date must be a real day of the calendar, e.g. 2026-01-01",
      abort: true,
    })
    .refine((day) => day >= FIRST_DAY && day <= LAST_DAY, { error: `date must be between ${FIRST_DAY} and ${LAST_DAY}` })
    .optional()
    .openapi({
      param: { name: "date", in: "query" },
      example: "2026-01-01",
      description:
        "The day (UTC) the records are in force on, past or announced; today when absent. The answer's `Tax-Rates-In-Force-On` header says which day it is for.",
    }),
});

/** A route that takes no query: a misspelt parameter (`?dat=`) is a 400, not today's answer in silence. */
const noQuery = z.strictObject({});

/** The most changes one page of T12 holds. */
const MAX_CHANGES_PAGE = 200;

const rateChangesQuery = z.strictObject({
  since: z
    .string({ error: "since is required: a UTC time as YYYY-MM-DDTHH:mm:ss, e.g. 2026-11-01T00:00:00" })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z?$/, {
      error: "since must be a UTC time as YYYY-MM-DDTHH:mm:ss, e.g. 2026-11-01T00:00:00",
      abort: true,
    })
    .refine((time) => !Number.isNaN(Date.parse(time.endsWith("Z") ? time : `${time}Z`)), {
      error: "since must be a real time, e.g. 2026-11-01T00:00:00",
    })
    .openapi({ param: { name: "since", in: "query" }, example: "2026-11-01T00:00:00", description: "UTC; changes made at or after it" }),
  after: z.coerce
    .number({ error: "after must be a change id" })
    .min(0, { error: "after must be 0 or greater" })
    .max(Number.MAX_SAFE_INTEGER, { error: "after must be a change id" })
    .int({ error: "after must be a change id" })
    .default(0)
    .openapi({ param: { name: "after", in: "query" }, example: 0, description: "The `next` of the page before" }),
  size: z.coerce
    .number({ error: "size must be an integer" })
    .min(1, { error: "size must be at least 1" })
    .max(MAX_CHANGES_PAGE, { error: `size must be at most ${MAX_CHANGES_PAGE}` })
    .int({ error: "size must be an integer" })
    .default(100)
    .openapi({ param: { name: "size", in: "query" }, example: 100 }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: "country must be an upper-case ISO 3166-1 alpha-2 code, e.g. DE" })
    .optional()
    .openapi({ param: { name: "country", in: "query" }, example: "DE", description: "Only this country's changes" }),
});

const rateChangesSchema = z.object({
  changes: z.array(rateChangeSchema),
  next: z.number().int().nullable().openapi({ example: null, description: "Pass as `after` for the next page; null when there is none" }),
});

/** The header that says which day (UTC) an answer's records are in force on. */
export const IN_FORCE_ON_HEADER = "Tax-Rates-In-Force-On";

/** A 404 for a country without the rate asked for, or, said apart, for a code that names no country (a typo, not a fact of tax). */
async function noRate(db: Database, countryCode: string, message: string): Promise<never> {
  const known = await existingCountryCodes(db, [countryCode]);
  throw notFound(known.has(countryCode) ? message : `No country with code ${countryCode}`);
}

async function nonEmpty<T>(db: Database, countryCode: string, rates: T[], what: string, day: string | undefined): Promise<T[]> {
  if (rates.length > 0) return rates;
  return noRate(db, countryCode, day ? `No tax rates for ${what} in force on ${day}` : `No current tax rates for ${what}`);
}

export function taxRoutes() {
  const router = createRouter();
  const route = defineRoutes(router, DATA_ENVELOPE, { tags: ["T · Tax rates"], security: DATA_SECURITY, errors: [401, 403] });
  // Set outside the answer cache, which keeps bodies only.
  router.use("*", async (c, next) => {
    await next();
    const date = c.req.query("date");
    if (c.res.status === 200 && (date || /^\/(country|eu|oecd)\//.test(c.req.path.slice(TAX_BASE_PATH.length))))
      c.res.headers.set(IN_FORCE_ON_HEADER, inForceDay(date));
  });
  // The data changes only with a refresh job or the seed: answers are kept under its version, and an undated one for its day.
  const cached = cachedReads(undefined, () => today());
  // A live T8 answer (VIES, HMRC) is of its moment, and an account's webhook endpoints are its own: never kept.
  const cachedUnlessLive: MiddlewareHandler<AppEnv> = (c, next) =>
    (c.req.path.startsWith(`${TAX_BASE_PATH}/taxnumber/`) && liveCheckConfigured(c.env)) || c.req.path.startsWith(`${TAX_BASE_PATH}${WEBHOOKS_PATH}`)
      ? next()
      : cached(c, next);
  router.use("*", cachedUnlessLive);
  // Static paths are registered before `/{id}`, which would otherwise take them.
  route({
    method: "get",
    path: "/list",
    summary: "T1 · All tax rate records, history and announced changes included, page by page; with `date`, those in force that day",
    request: { query: z.strictObject({ ...zeroBasedPageQuery.shape, ...dateQuery.shape }) },
    data: pageObjectSchema(taxRateSchema),
    answer: "A page of records",
    errors: [400],
    handle: async (c) => {
      const { page, size, date } = c.req.valid("query");
      const { rates, total } = await listTaxRates(c.get("db"), page, size, date);
      return pageObject(rates, total, page, size);
    },
  });
  route({
    method: "get",
    path: "/types",
    summary: "T9 · The tax type codes",
    data: z.array(z.enum(TAX_TYPES)),
    answer: "Tax type codes",
    request: { query: noQuery },
    errors: [400],
    handle: async () => [...TAX_TYPES],
  });
  route({
    method: "get",
    path: "/levels",
    summary: "T10 · The rate levels",
    data: z.array(z.enum(RATE_LEVELS)),
    answer: "Rate levels",
    request: { query: noQuery },
    errors: [400],
    handle: async () => [...RATE_LEVELS],
  });
  route({
    method: "get",
    path: "/eu/all",
    summary: "T6 · VAT rates of every EU member in force today, or on `date`",
    request: { query: dateQuery },
    data: rateList,
    answer: "EU VAT rates",
    errors: [400],
    handle: async (c) => euVatRates(c.get("db"), inForceDay(c.req.valid("query").date)),
  });
  route({
    method: "get",
    path: "/oecd/{taxType}",
    summary: "T7 · Rates of one tax type in every OECD member in force today, or on `date`",
    request: { params: z.object({ taxType }), query: dateQuery },
    data: rateList,
    answer: "Rates in force",
    errors: [400],
    handle: async (c) => oecdRates(c.get("db"), c.req.valid("param").taxType, inForceDay(c.req.valid("query").date)),
  });
  route({
    method: "get",
    path: "/country/{countryCode}",
    summary: "T2 · Rates of a country, regions included, in force today or on `date`",
    request: { params: z.object({ countryCode }), query: dateQuery },
    data: rateList,
    answer: "Rates in force",
    errors: [400, 404],
    handle: async (c) => {
      const { countryCode } = c.req.valid("param");
      const { date } = c.req.valid("query");
      return nonEmpty(c.get("db"), countryCode, await ratesOfCountry(c.get("db"), countryCode, inForceDay(date)), countryCode, date);
    },
  });
  route({
    method: "get",
    path: "/country/{countryCode}/region/{regionCode}",
    summary: "T3 · Rates of a region (state, province) in force today or on `date`",
    // The example asks for a region of the country the example names.
    request: { params: z.object({ countryCode: countryCode.openapi({ example: "US" }), regionCode }), query: dateQuery },
    data: rateList,
    answer: "Rates of the region in force",
    errors: [400, 404],
    handle: async (c) => {
      const { countryCode, regionCode } = c.req.valid("param");
      const { date } = c.req.valid("query");
      if (!regionCode.startsWith(`${countryCode}-`)) {
        throw new ApiError(400, `regionCode ${regionCode} is not a region of ${countryCode}`);
      }
      return nonEmpty(c.get("db"), countryCode, await ratesOfRegion(c.get("db"), countryCode, regionCode, inForceDay(date)), regionCode, date);
    },
  });
  route({
    method: "get",
    path: "/country/{countryCode}/type/{taxType}",
    summary: "T4 · Rates of a country of one tax type in force today or on `date`",
    request: { params: z.object({ countryCode, taxType }), query: dateQuery },
    data: rateList,
    answer: "Rates of the type in force",
    errors: [400, 404],
    handle: async (c) => {
      const { countryCode, taxType } = c.req.valid("param");
      const { date } = c.req.valid("query");
      return nonEmpty(
        c.get("db"),
        countryCode,
        await ratesOfType(c.get("db"), countryCode, taxType, inForceDay(date)),
        `${taxType} in ${countryCode}`,
        date,
      );
    },
  });
  route({
    method: "get",
    path: "/country/{countryCode}/standard",
    summary: "T5 · The standard VAT (GST, consumption tax) rate of a country in force today or on `date`",
    request: { params: z.object({ countryCode }), query: dateQuery },
    data: taxRateSchema,
    answer: "The standard rate",
    errors: [400, 404],
    handle: async (c) => {
      const { countryCode } = c.req.valid("param");
      const { date } = c.req.valid("query");
      const rate = await standardRate(c.get("db"), countryCode, inForceDay(date));
      return rate ?? noRate(c.get("db"), countryCode, `${countryCode} has no standard VAT or GST rate${date ? ` in force on ${date}` : ""}`);
    },
  });
  route({
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
      query: z.strictObject({
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, { error: "country must be an upper-case ISO 3166-1 alpha-2 code, e.g. PY" })
          .optional()
          .openapi({ description: "The country the number is from, where the caller knows it", example: "DE" }),
      }),
      params: z.object({
        taxNumber: z
          .string()
          .regex(/^[A-Za-z0-9 .\-/]{4,40}$/, { error: "taxNumber must be 4 to 40 of A–Z, 0–9, spaces, dots, dashes or slashes" })
          .openapi({ param: { name: "taxNumber", in: "path" }, example: "DE136695976" }),
      }),
    },
    data: taxNumberCheckSchema,
    answer: "The verdict and the rates",
    errors: [400, 404],
    handle: async (c) => {
      const { taxNumber } = c.req.valid("param");
      const { country } = c.req.valid("query");
      // The check-digit algorithms of 90 countries load with the first tax number, not with the Worker.
      const { checkTaxNumber } = await import("./tax-numbers");
      const check = await checkTaxNumber(c.get("db"), taxNumber, country);
      if (!check)
        throw notFound(country ? `${taxNumber} fits no tax number format of ${country}` : `${taxNumber} fits no country's tax number format`);
      return { ...check, ...(await checkLive(c.env, check)) };
    },
  });
  route({
    method: "get",
    path: "/changes",
    summary: "T12 · Changes of the records since a time: added, ended (an end set, which may lie ahead) or corrected, with their source",
    description:
      "Oldest first, `size` at a time; pass `next` as `after` for the rest (null at the end). Poll with the `changedAt` of " +
      "the last change you read, or keep `since` and move `after`.",
    request: { query: rateChangesQuery },
    data: rateChangesSchema,
    answer: "A page of changes",
    errors: [400],
    handle: async (c) => {
      const { since, after, size, country } = c.req.valid("query");
      return rateChanges(c.get("db"), { since: since.slice(0, 19), after, size, countryCode: country });
    },
  });
  taxWebhookRoutes(route);
  route({
    method: "get",
    path: "/{id}",
    summary: "T11 · One record by id, current or historical",
    request: { params: z.object({ id: idParam("id") }), query: noQuery },
    data: taxRateSchema,
    answer: "The record",
    errors: [400, 404],
    handle: async (c) => {
      const { id } = c.req.valid("param");
      const rate = await taxRateById(c.get("db"), id);
      if (!rate) throw notFound(`No tax rate record with id ${id}`);
      return rate;
    },
  });
  return router;
}
