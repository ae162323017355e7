import { and, asc, eq, gte, isNull, or, type SQL } from "drizzle-orm";
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
 * Compares the feed with the newest records in its scope (those with no end: current, or announced
 * to start later): equal rates stay untouched, a changed or vanished rate is closed the second
 * before its successor starts, new rates are inserted with the descriptive fields of the
 * country's existing records. A feed may state several periods of one rate (the one in force and
 * announced ones): they are applied oldest first, each closing the one before.
 *
 * A feed does not undo a newer record: a figure whose start (or, when the feed gives none, the
 * feed's own date) is not after the record's start is older news, and a record the feed does not
 * list is kept when it starts after what the feed knows of that country, or after today (an
 * announced change). Such records are counted as `outdated`, so a feed that lags behind a
 * correction shows in the run.
 */
export async function planRateChanges(db: Database, observed: ObservedRate[], context: RateFeedContext, now: string): Promise<JobPlan> {
  const sync = now.slice(0, 19);
  const today = startOf(now.slice(0, 10));
  const version = startOf(context.versionDate);
  // The records in force today or later (current, announced, and current ones whose end is announced), oldest first.
  const stored = await db
    .select()
    .from(taxRates)
    .where(and(or(isNull(taxRates.effectiveTo), gte(taxRates.effectiveTo, today)), context.scope))
    .orderBy(asc(taxRates.effectiveFrom));
  const current = stored.filter((row) => row.effectiveTo === null);
  const templates = new Map(current.map((row) => [`${row.countryCode}|${row.regionCode ?? ""}|${row.taxType}`, row]));
  const statedStart = (rate: ObservedRate) => startOf(rate.effectiveFrom ?? context.versionDate);

  const statements: BatchItem<"sqlite">[] = [];
  const inserts: NewTaxRateRow[] = [];
  const counts = { inserted: 0, updated: 0, closed: 0, unchanged: 0, outdated: 0 };
  // Each rate's records as the plan goes, oldest first: stored ones (with their id) and those the plan inserts.
  const timelines = new Map<string, NewTaxRateRow[]>();
  for (const row of stored) timelines.set(keyOf(row), [...(timelines.get(keyOf(row)) ?? []), row]);
  const seen = new Set<string>();
  // What the feed knows of each country and tax: the newest start it states, or its own date.
  const knownUntil = new Map<string, string>();
  for (const rate of observed) {
    const group = `${rate.countryCode}|${rate.regionCode ?? ""}|${rate.taxType}`;
    if ((knownUntil.get(group) ?? "") < statedStart(rate)) knownUntil.set(group, statedStart(rate));
  }

  for (const rate of [...observed].sort((a, b) => statedStart(a).localeCompare(statedStart(b)))) {
    const key = keyOf(rate);
    if (seen.has(`${key}|${statedStart(rate)}`)) throw new FeedError(`the feed lists ${key} twice`);
    seen.add(`${key}|${statedStart(rate)}`).add(key);
    const scaled = Math.round(rate.rateValue * RATE_SCALE);
    const timeline = timelines.get(key) ?? [];
    // The record the figure speaks of: the one in force at its start, or today for a period already in force.
    const at = statedStart(rate) > today ? statedStart(rate) : today;
    const compared = timeline.findLast((row) => row.effectiveFrom <= at) ?? timeline[0];
    if (compared?.rateValueScaled === scaled) {
      counts.unchanged++;
      continue;
    }
    const latest = timeline.at(-1);
    if (latest && statedStart(rate) <= latest.effectiveFrom) {
      counts.outdated++;
      continue;
    }
    const template = latest ?? templates.get(`${rate.countryCode}|${rate.regionCode ?? ""}|${rate.taxType}`);
    if (!template) throw new FeedError(`no record describes ${rate.countryCode} ${rate.taxType}; add it to the seed first`);
    // A start the feed does not give, or one not after the old record's, counts from today.
    const stated = rate.effectiveFrom ? startOf(rate.effectiveFrom) : undefined;
    const effectiveFrom = stated && (!latest || stated > latest.effectiveFrom) ? stated : today;
    if (latest?.id !== undefined) {
      statements.push(
        db
          .update(taxRates)
          .set({ effectiveTo: secondBefore(effectiveFrom), lastSyncTime: sync })
          .where(eq(taxRates.id, latest.id)),
      );
      counts.closed++;
    } else if (latest) {
      latest.effectiveTo = secondBefore(effectiveFrom);
    }
    const { id: _id, rateValueScaled: _old, ...described } = template;
    const row: NewTaxRateRow = {
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
    };
    inserts.push(row);
    timelines.set(key, [...timeline, row]);
    counts.inserted++;
  }

  for (const row of current) {
    if (seen.has(keyOf(row))) continue;
    const known = knownUntil.get(`${row.countryCode}|${row.regionCode ?? ""}|${row.taxType}`) ?? startOf(context.versionDate);
    if (row.effectiveFrom > known || row.effectiveFrom > today) {
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
