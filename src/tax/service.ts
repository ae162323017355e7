import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import type { Database } from "../platform/database";
import { taxRateChanges, taxRates, toRateChange, toTaxRate, type RateChange, type TaxRate, type TaxType } from "./schema";

/** A day (`YYYY-MM-DD`, UTC) that rates are asked for. */
export type Day = string;

/** Today in UTC: the day a request without `?date=` is answered for. */
export const today = (): Day => new Date().toISOString().slice(0, 10);

/**
 * The records in force at 00:00 UTC of `day`: started by then and not yet ended. An announced
 * change is a record that starts later, its predecessor ending the second before it.
 */
export function inForceOn(day: Day) {
  const start = `${day}T00:00:00`;
  return and(lte(taxRates.effectiveFrom, start), or(isNull(taxRates.effectiveTo), gte(taxRates.effectiveTo, start)), eq(taxRates.enabled, true));
}

/** National records first, then regions; within them by type and from the highest rate down. */
const displayOrder = [asc(taxRates.regionCode), asc(taxRates.taxType), desc(taxRates.rateValueScaled), asc(taxRates.id)];

/** The tax types that are a value-added tax under another name: T5 answers with one of them. */
const VALUE_ADDED_TYPES: TaxType[] = ["VAT", "GST", "ConsumptionTax"];

export function ratesInForceQuery(db: Database, day: Day, where: SQL | undefined) {
  return db
    .select()
    .from(taxRates)
    .where(and(inForceOn(day), where))
    .orderBy(...displayOrder);
}

async function ratesInForce(db: Database, day: Day, where: SQL | undefined): Promise<TaxRate[]> {
  return (await ratesInForceQuery(db, day, where)).map(toTaxRate);
}

/** T1: every record, history and announced changes included, in id order; with `day`, only those in force that day. */
export async function listTaxRates(db: Database, page: number, size: number, day?: Day) {
  const where = day ? inForceOn(day) : undefined;
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(taxRates)
      .where(where)
      .orderBy(asc(taxRates.id))
      .limit(size)
      .offset(page * size),
    db.select({ total: count() }).from(taxRates).where(where),
  ]);
  return { rates: rows.map(toTaxRate), total: total?.total ?? 0 };
}

export const ratesOfCountry = (db: Database, countryCode: string, day = today()) => ratesInForce(db, day, eq(taxRates.countryCode, countryCode));

export const ratesOfRegion = (db: Database, countryCode: string, regionCode: string, day = today()) =>
  ratesInForce(db, day, and(eq(taxRates.countryCode, countryCode), eq(taxRates.regionCode, regionCode)));

export const ratesOfType = (db: Database, countryCode: string, taxType: TaxType, day = today()) =>
  ratesInForce(db, day, and(eq(taxRates.countryCode, countryCode), eq(taxRates.taxType, taxType)));

export async function standardRate(db: Database, countryCode: string, day = today()): Promise<TaxRate | undefined> {
  const [rate] = await ratesInForce(
    db,
    day,
    and(
      eq(taxRates.countryCode, countryCode),
      isNull(taxRates.regionCode),
      inArray(taxRates.taxType, VALUE_ADDED_TYPES),
      eq(taxRates.rateLevel, "standard"),
    ),
  );
  return rate;
}

export const euVatRates = (db: Database, day = today()) => ratesInForce(db, day, and(eq(taxRates.taxType, "VAT"), eq(taxRates.euMember, true)));

export const oecdRates = (db: Database, taxType: TaxType, day = today()) =>
  ratesInForce(db, day, and(eq(taxRates.taxType, taxType), eq(taxRates.oecdMember, true)));

export async function taxRateById(db: Database, id: number): Promise<TaxRate | undefined> {
  const [row] = await db.select().from(taxRates).where(eq(taxRates.id, id)).limit(1);
  return row && toTaxRate(row);
}

/** Each country's current tax id patterns, for telling which country a tax number belongs to. */
export async function taxIdPatterns(db: Database): Promise<Map<string, string[]>> {
  const rows = await db
    .selectDistinct({ countryCode: taxRates.countryCode, pattern: taxRates.taxIdPattern })
    .from(taxRates)
    .where(and(inForceOn(today()), isNull(taxRates.regionCode)));
  const patterns = new Map<string, string[]>();
  for (const { countryCode, pattern } of rows) {
    if (pattern) patterns.set(countryCode, [...(patterns.get(countryCode) ?? []), pattern]);
  }
  return patterns;
}

export interface RateChangesQuery {
  /** UTC, `YYYY-MM-DDTHH:mm:ss`: changes made at or after it. */
  since: string;
  /** The id of the last change already read. */
  after: number;
  size: number;
  countryCode?: string;
}

/** T12: the changes made since a time, oldest first, `size` at a time; `next` is the cursor for the rest, null at the end. */
export async function rateChanges(db: Database, query: RateChangesQuery): Promise<{ changes: RateChange[]; next: number | null }> {
  const rows = await db
    .select()
    .from(taxRateChanges)
    .where(
      and(
        gte(taxRateChanges.changedAt, query.since),
        gt(taxRateChanges.id, query.after),
        query.countryCode ? eq(taxRateChanges.countryCode, query.countryCode) : undefined,
      ),
    )
    .orderBy(asc(taxRateChanges.id))
    .limit(query.size + 1);
  const page = rows.slice(0, query.size);
  return { changes: page.map(toRateChange), next: rows.length > query.size ? page.at(-1)!.id : null };
}
