import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import { parseCsv } from "../platform/csv";
import { FeedError, type Feed, feedSetting, type JobDefinition, parseFeedJson } from "../platform/jobs/runner";
import { countriesByIso3 } from "../reference/service";
import { EU_MEMBERS, OECD_MEMBERS } from "./membership";
import { type ObservedRate, planRateChanges } from "./rate-changes";
import { RATE_LEVELS, TAX_TYPES, type RateLevel, taxRates } from "./schema";
import { taxSettings } from "./settings";
import { dispatchAfterJob } from "./webhooks";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const today = (now: string) => now.slice(0, 10);

/** The ibericode/vat-rates JSON (version 4): for each country its periods, each with its rates by level. */
const euVatFeed = z.object({
  items: z.record(
    z.string().regex(/^[A-Z]{2}$/),
    z.array(z.object({ effective_from: date, rates: z.record(z.string(), z.number().min(0).max(100)) })).min(1),
  ),
});

const isRateLevel = (level: string): level is RateLevel => (RATE_LEVELS as readonly string[]).includes(level);

export const euVatJob: JobDefinition = {
  name: "eu-vat",
  cron: "15 2 * * *",
  description: "EU VAT rates, daily, from the ibericode/vat-rates JSON",
  sources: [
    {
      name: "rates",
      setting: feedSetting(taxSettings, "EU_VAT_FEED_URL"),
      defaultUrl: "https://raw.githubusercontent.com/ibericode/vat-rates/master/vat-rates.json",
    },
  ],
  async plan(db, feed: Feed, now) {
    const { items } = parseFeedJson(feed.bodies.rates, euVatFeed, "the EU VAT feed");
    const missing = [...EU_MEMBERS].filter((country) => !items[country]);
    if (missing.length > 0) throw new FeedError(`the EU VAT feed is partial: no ${missing.join(", ")}`);
    const observed: ObservedRate[] = [];
    for (const country of EU_MEMBERS) {
      // Periods are newest first; the one in force is the newest that has started, later ones are announced.
      const periods = items[country]!.toSorted((a, b) => b.effective_from.localeCompare(a.effective_from));
      const inForce = periods.findIndex((p) => p.effective_from <= today(now));
      if (inForce < 0) throw new FeedError(`the EU VAT feed has no period in force for ${country}`);
      for (const period of periods.slice(0, inForce + 1)) {
        const from = period.effective_from.startsWith("0000") ? undefined : period.effective_from;
        for (const [level, value] of Object.entries(period.rates)) {
          if (isRateLevel(level))
            observed.push({ countryCode: country, regionCode: null, taxType: "VAT", rateLevel: level, rateValue: value, effectiveFrom: from });
        }
      }
    }
    return planRateChanges(
      db,
      observed,
      {
        scope: and(eq(taxRates.taxType, "VAT"), isNull(taxRates.regionCode), inArray(taxRates.countryCode, [...EU_MEMBERS]))!,
        dataSource: "EU_VAT",
        sourceUrl: feed.source,
        versionDate: today(now),
      },
      now,
    );
  },
};

/**
 * OECD corporate tax statistics as SDMX-CSV: REF_AREA (ISO alpha-3), TIME_PERIOD (year), OBS_VALUE
 * (the statutory rate). The newest year of each member is its current rate.
 */
export const oecdJob: JobDefinition = {
  name: "oecd",
  cron: "30 3 1 * *",
  description: "Corporate income tax rates of the OECD members, monthly, from OECD SDMX-CSV",
  sources: [
    {
      name: "rates",
      setting: feedSetting(taxSettings, "OECD_CIT_FEED_URL"),
      defaultUrl:
        "https://sdmx.oecd.org/public/rest/data/OECD.CTP.TPS,DSD_TAX_CIT@DF_CIT,1.0/.CIT_C..ST?format=csvfile&dimensionAtObservation=AllDimensions",
    },
  ],
  async plan(db, feed, now) {
    const rows = parseCsv(feed.bodies.rates ?? "");
    if (rows.length === 0 || !("REF_AREA" in rows[0]!) || !("TIME_PERIOD" in rows[0]) || !("OBS_VALUE" in rows[0])) {
      throw new FeedError("the OECD feed is malformed: it needs the columns REF_AREA, TIME_PERIOD and OBS_VALUE");
    }
    const alpha2 = await countriesByIso3(db);
    const newest = new Map<string, { year: string; value: number }>();
    for (const row of rows) {
      const country = alpha2.get(row.REF_AREA!);
      const value = Number(row.OBS_VALUE);
      if (!country || !OECD_MEMBERS.has(country) || !/^\d{4}$/.test(row.TIME_PERIOD!) || row.OBS_VALUE === "" || !Number.isFinite(value)) continue;
      const seen = newest.get(country);
      if (!seen || row.TIME_PERIOD! > seen.year) newest.set(country, { year: row.TIME_PERIOD!, value });
    }
    if (newest.size < OECD_MEMBERS.size / 2)
      throw new FeedError(`the OECD feed is partial: rates for ${newest.size} of ${OECD_MEMBERS.size} members`);
    const observed: ObservedRate[] = [...newest].map(([countryCode, { year, value }]) => ({
      countryCode,
      regionCode: null,
      taxType: "CorporateTax",
      rateLevel: "standard",
      rateValue: value,
      effectiveFrom: `${year}-01-01`,
    }));
    return planRateChanges(
      db,
      observed,
      {
        scope: and(eq(taxRates.taxType, "CorporateTax"), isNull(taxRates.regionCode), inArray(taxRates.countryCode, [...newest.keys()]))!,
        dataSource: "OECD",
        sourceUrl: feed.source,
        versionDate: today(now),
      },
      now,
    );
  },
};

/** The documented JSON for sources without a machine-readable feed of their own (docs/operations.md: "Rate feeds"). */
export const rateFeedSchema = z.object({
  versionDate: date,
  rates: z
    .array(
      z.object({
        countryCode: z.string().regex(/^[A-Z]{2}$/),
        regionCode: z
          .string()
          .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/)
          .nullable()
          .default(null),
        taxType: z.enum(TAX_TYPES),
        rateLevel: z.enum(RATE_LEVELS),
        rateValue: z.number().min(0).max(100),
        effectiveFrom: date.optional(),
      }),
    )
    .min(1),
});

function documentedFeedJob(
  name: string,
  description: string,
  setting: "ENCYCLOPEDIA_FEED_URL" | "CHINA_FEED_URL",
  dataSource: "ENCYCLOPEDIA" | "CUSTOM",
  onlyCountry?: string,
): JobDefinition {
  return {
    name,
    cron: "30 3 1 * *",
    description,
    sources: [{ name: "rates", setting: feedSetting(taxSettings, setting) }],
    async plan(db, feed, now) {
      const { versionDate, rates } = parseFeedJson(feed.bodies.rates, rateFeedSchema, `the ${name} feed`);
      const outside = rates.find((r) => onlyCountry && r.countryCode !== onlyCountry);
      if (outside) throw new FeedError(`the ${name} feed lists ${outside.countryCode}; it may only list ${onlyCountry}`);
      const countries = [...new Set(rates.map((r) => r.countryCode))];
      const types = [...new Set(rates.map((r) => r.taxType))];
      const plan = await planRateChanges(
        db,
        rates,
        {
          scope: and(inArray(taxRates.countryCode, countries), inArray(taxRates.taxType, types), eq(taxRates.dataSource, dataSource))!,
          dataSource,
          sourceUrl: feed.source,
          versionDate,
        },
        now,
      );
      // The feed may list a few countries; the share a run may change is of all the job looks after.
      const [looked] = await db
        .select({ n: count() })
        .from(taxRates)
        .where(
          and(isNull(taxRates.effectiveTo), eq(taxRates.dataSource, dataSource), onlyCountry ? eq(taxRates.countryCode, onlyCountry) : undefined),
        );
      return { ...plan, existing: looked?.n ?? plan.existing };
    },
  };
}

export const encyclopediaJob = documentedFeedJob(
  "encyclopedia",
  "VAT and GST rates of countries without an official feed, monthly, documented JSON at ENCYCLOPEDIA_FEED_URL",
  "ENCYCLOPEDIA_FEED_URL",
  "ENCYCLOPEDIA",
);

export const chinaJob = documentedFeedJob(
  "china",
  "China's VAT levels, monthly, documented JSON at CHINA_FEED_URL",
  "CHINA_FEED_URL",
  "CUSTOM",
  "CN",
);

// A run that changed rates queues their webhooks at once; the 5-minute task catches up on the rest.
export const TAX_JOBS = [euVatJob, oecdJob, encyclopediaJob, chinaJob].map((job): JobDefinition => ({ ...job, afterStored: dispatchAfterJob }));
