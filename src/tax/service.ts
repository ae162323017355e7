import { and, asc, count, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../platform/database";
import { taxRates, toTaxRate, type TaxRate, type TaxType } from "./schema";

const isCurrent = and(isNull(taxRates.effectiveTo), eq(taxRates.enabled, true));

/** National records first, then regions; within them by type and from the highest rate down. */
const displayOrder = [asc(taxRates.regionCode), asc(taxRates.taxType), desc(taxRates.rateValueScaled), asc(taxRates.id)];

/** The tax types that are a value-added tax under another name: T5 answers with one of them. */
const VALUE_ADDED_TYPES: TaxType[] = ["VAT", "GST", "ConsumptionTax"];

export function currentRatesQuery(db: Database, where: SQL | undefined) {
  return db
    .select()
    .from(taxRates)
    .where(and(isCurrent, where))
    .orderBy(...displayOrder);
}

async function currentRates(db: Database, where: SQL | undefined): Promise<TaxRate[]> {
  return (await currentRatesQuery(db, where)).map(toTaxRate);
}

/** T1: every record, history included, in id order. */
export async function listTaxRates(db: Database, page: number, size: number) {
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(taxRates)
      .orderBy(asc(taxRates.id))
      .limit(size)
      .offset(page * size),
    db.select({ total: count() }).from(taxRates),
  ]);
  return { rates: rows.map(toTaxRate), total: total?.total ?? 0 };
}

export const ratesOfCountry = (db: Database, countryCode: string) => currentRates(db, eq(taxRates.countryCode, countryCode));

export const ratesOfRegion = (db: Database, countryCode: string, regionCode: string) =>
  currentRates(db, and(eq(taxRates.countryCode, countryCode), eq(taxRates.regionCode, regionCode)));

export const ratesOfType = (db: Database, countryCode: string, taxType: TaxType) =>
  currentRates(db, and(eq(taxRates.countryCode, countryCode), eq(taxRates.taxType, taxType)));

export async function standardRate(db: Database, countryCode: string): Promise<TaxRate | undefined> {
  const [rate] = await currentRates(
    db,
    and(
      eq(taxRates.countryCode, countryCode),
      isNull(taxRates.regionCode),
      inArray(taxRates.taxType, VALUE_ADDED_TYPES),
      eq(taxRates.rateLevel, "standard"),
    ),
  );
  return rate;
}

export const euVatRates = (db: Database) => currentRates(db, and(eq(taxRates.taxType, "VAT"), eq(taxRates.euMember, true)));

export const oecdRates = (db: Database, taxType: TaxType) => currentRates(db, and(eq(taxRates.taxType, taxType), eq(taxRates.oecdMember, true)));

export async function taxRateById(db: Database, id: number): Promise<TaxRate | undefined> {
  const [row] = await db.select().from(taxRates).where(eq(taxRates.id, id)).limit(1);
  return row && toTaxRate(row);
}

/** Each country's current tax id patterns, for telling which country a tax number belongs to. */
export async function taxIdPatterns(db: Database): Promise<Map<string, string[]>> {
  const rows = await db
    .selectDistinct({ countryCode: taxRates.countryCode, pattern: taxRates.taxIdPattern })
    .from(taxRates)
    .where(and(isCurrent, isNull(taxRates.regionCode)));
  const patterns = new Map<string, string[]>();
  for (const { countryCode, pattern } of rows) {
    if (pattern) patterns.set(countryCode, [...(patterns.get(countryCode) ?? []), pattern]);
  }
  return patterns;
}
