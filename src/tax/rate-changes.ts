import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../platform/database";
import { chunkedInserts } from "../platform/jobs/batch";
import { FeedError, type JobPlan } from "../platform/jobs/runner";
import { RATE_LEVEL_NAMES, RATE_SCALE, type NewTaxRateRow, type RateLevel, type TaxRateRow, type TaxType, taxRates } from "./schema";

/** A rate as a feed states it: in force from `effectiveFrom` (a date, or undefined when the feed does not say). */
export interface ObservedRate {
  countryCode: string;
  regionCode: string | null;
  taxType: TaxType;
  rateLevel: RateLevel;
  rateValue: number;
  effectiveFrom?: string;
}

const keyOf = (r: { countryCode: string; regionCode: string | null; taxType: string; rateLevel: string }) =>
  `${r.countryCode}|${r.regionCode ?? ""}|${r.taxType}|${r.rateLevel}`;

const startOf = (date: string) => `${date}T00:00:00`;
const secondBefore = (dateTime: string) => new Date(Date.parse(`${dateTime}Z`) - 1000).toISOString().slice(0, 19);

export interface RateFeedContext {
  /** Which current records the feed speaks for; those it no longer lists are closed. */
  scope: SQL;
  dataSource: TaxRateRow["dataSource"];
  sourceUrl: string;
  versionDate: string;
}

/**
 * Compares the feed with the current records in its scope: equal rates stay untouched, a changed
 * or vanished rate is closed the second before its successor starts, new rates are inserted with
 * the descriptive fields of the country's existing records.
 *
 * A feed does not undo a newer record: a figure whose start (or, when the feed gives none, the
 * feed's own date) is not after the record's start is older news, and a record the feed does not
 * list is kept when it starts after what the feed knows of that country. Such records are
 * counted as `outdated`, so a feed that lags behind a correction shows in the run.
 */
export async function planRateChanges(db: Database, observed: ObservedRate[], context: RateFeedContext, now: string): Promise<JobPlan> {
  const current = await db
    .select()
    .from(taxRates)
    .where(and(isNull(taxRates.effectiveTo), context.scope));
  const byKey = new Map(current.map((row) => [keyOf(row), row]));
  const templates = new Map(current.map((row) => [`${row.countryCode}|${row.regionCode ?? ""}|${row.taxType}`, row]));
  const sync = now.slice(0, 19);
  const today = startOf(now.slice(0, 10));
  const version = startOf(context.versionDate);

  const statements: BatchItem<"sqlite">[] = [];
  const inserts: NewTaxRateRow[] = [];
  const counts = { inserted: 0, updated: 0, closed: 0, unchanged: 0, outdated: 0 };
  const seen = new Set<string>();
  // What the feed knows of each country and tax: the newest start it states, or its own date.
  const knownUntil = new Map<string, string>();
  for (const rate of observed) {
    const group = `${rate.countryCode}|${rate.regionCode ?? ""}|${rate.taxType}`;
    const stated = startOf(rate.effectiveFrom ?? context.versionDate);
    if ((knownUntil.get(group) ?? "") < stated) knownUntil.set(group, stated);
  }

  for (const rate of observed) {
    const key = keyOf(rate);
    if (seen.has(key)) throw new FeedError(`the feed lists ${key} twice`);
    seen.add(key);
    const scaled = Math.round(rate.rateValue * RATE_SCALE);
    const existing = byKey.get(key);
    if (existing?.rateValueScaled === scaled) {
      counts.unchanged++;
      continue;
    }
    if (existing && startOf(rate.effectiveFrom ?? context.versionDate) <= existing.effectiveFrom) {
      counts.outdated++;
      continue;
    }
    const template = existing ?? templates.get(`${rate.countryCode}|${rate.regionCode ?? ""}|${rate.taxType}`);
    if (!template) throw new FeedError(`no record describes ${rate.countryCode} ${rate.taxType}; add it to the seed first`);
    // A start the feed does not give, or one not after the old record's, counts from today.
    const stated = rate.effectiveFrom ? startOf(rate.effectiveFrom) : undefined;
    const effectiveFrom = stated && (!existing || stated > existing.effectiveFrom) ? stated : today;
    if (existing) {
      statements.push(
        db
          .update(taxRates)
          .set({ effectiveTo: secondBefore(effectiveFrom), lastSyncTime: sync })
          .where(eq(taxRates.id, existing.id)),
      );
      counts.closed++;
    }
    const { id: _id, rateValueScaled: _old, ...described } = template;
    inserts.push({
      ...described,
      rateLevel: rate.rateLevel,
      rateLevelName: RATE_LEVEL_NAMES[rate.rateLevel],
      rateValueScaled: scaled,
      effectiveFrom,
      effectiveTo: null,
      dataSource: context.dataSource,
      sourceUrl: context.sourceUrl,
      versionDate: version,
      lastSyncTime: sync,
    });
    counts.inserted++;
  }

  for (const row of current) {
    if (seen.has(keyOf(row))) continue;
    const known = knownUntil.get(`${row.countryCode}|${row.regionCode ?? ""}|${row.taxType}`) ?? startOf(context.versionDate);
    if (row.effectiveFrom > known) {
      counts.outdated++;
      continue;
    }
    statements.push(
      db
        .update(taxRates)
        .set({ effectiveTo: secondBefore(today), lastSyncTime: sync })
        .where(eq(taxRates.id, row.id)),
    );
    counts.closed++;
  }
  return { statements: [...statements, ...chunkedInserts(db, taxRates, inserts)], counts, existing: current.length };
}
