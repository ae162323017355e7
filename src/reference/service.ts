import { and, asc, count, eq, inArray, isNull, like, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { countries, currencies, hsCodes, languages, platforms, units, zones, type ZoneRow } from "./schema";

export interface Paged<T> {
  total: number;
  page: number;
  size: number;
  items: T[];
}

async function paged<T>(
  db: Database,
  table: SQLiteTable,
  where: SQL | undefined,
  order: SQLiteColumn,
  page: number,
  size: number,
): Promise<Paged<T>> {
  const [items, [total]] = await db.batch([
    db.select().from(table).where(where).orderBy(asc(order)).limit(size).offset((page - 1) * size),
    db.select({ total: count() }).from(table).where(where),
  ]);
  return { total: total?.total ?? 0, page, size, items: items as T[] };
}

const contains = (column: SQLiteColumn, text: string | undefined) => (text ? like(column, `%${text}%`) : undefined);
const equals = <T>(column: SQLiteColumn, value: T | undefined) => (value === undefined ? undefined : eq(column, value));

export const listCountries = (db: Database) => db.select().from(countries).orderBy(asc(countries.code));

export async function countryByCode(db: Database, code: string) {
  const [country] = await db.select().from(countries).where(eq(countries.code, code)).limit(1);
  return country;
}

/** Which of the given alpha-2 codes are countries, in one query. */
export async function existingCountryCodes(db: Database, codes: string[]): Promise<Set<string>> {
  const rows = await db.select({ code: countries.code }).from(countries).where(inArray(countries.code, [...new Set(codes)]));
  return new Set(rows.map((r) => r.code));
}

/** ISO alpha-3 to alpha-2, for feeds that name countries by alpha-3. */
export async function countriesByIso3(db: Database): Promise<Map<string, string>> {
  const rows = await db.select({ iso3: countries.iso3, code: countries.code }).from(countries);
  return new Map(rows.map((r) => [r.iso3, r.code]));
}

/** The current codes; a withdrawn one is still found by code (O10). */
export const listCurrencies = (db: Database) => db.select().from(currencies).where(isNull(currencies.withdrawn)).orderBy(asc(currencies.code));

export async function currencyByCode(db: Database, code: string) {
  const [currency] = await db.select().from(currencies).where(eq(currencies.code, code)).limit(1);
  return currency;
}

export const listLanguages = (db: Database, withVariants: boolean) =>
  db
    .select()
    .from(languages)
    .where(withVariants ? undefined : sql`${languages.baseCode} IS NULL`)
    .orderBy(asc(languages.code));

export async function languageByCode(db: Database, code: string) {
  const [language] = await db.select().from(languages).where(eq(languages.code, code)).limit(1);
  return language;
}

export const topLevelZones = (db: Database) => db.select().from(zones).where(eq(zones.parsent, 0)).orderBy(asc(zones.code));

export interface ZoneQuery {
  name?: string;
  name_en?: string;
  code?: string;
  parsent?: number;
  page: number;
  size: number;
}

export const queryZones = (db: Database, q: ZoneQuery) =>
  paged<ZoneRow>(
    db,
    zones,
    and(contains(zones.name, q.name), contains(zones.nameEn, q.name_en), equals(zones.code, q.code), equals(zones.parsent, q.parsent)),
    zones.code,
    q.page,
    q.size,
  );

export interface UnitQuery {
  origin: "base" | "unece";
  ref_unit_id?: number;
  name?: string;
  code?: string;
  name_zh?: string;
  id?: number;
  page: number;
  size: number;
}

export const queryUnits = (db: Database, q: UnitQuery) =>
  paged<typeof units.$inferSelect>(
    db,
    units,
    and(
      eq(units.origin, q.origin),
      equals(units.refUnit, q.ref_unit_id),
      contains(units.name, q.name),
      equals(units.code, q.code),
      contains(units.nameZh, q.name_zh),
      equals(units.id, q.id),
    ),
    units.code,
    q.page,
    q.size,
  );

/** Each word must occur (as a prefix, after stemming); FTS5 syntax in the input is treated as text. */
export function ftsQuery(keywords: string): string {
  const words = keywords.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) throw new ApiError(400, "bizContent.keywords: must contain a letter or digit");
  return words.map((word) => `"${word}"*`).join(" ");
}

export interface HsQuery {
  version: string;
  keywords?: string;
  level?: number;
  parent?: string;
  page: number;
  size: number;
}

export function hsWhere(q: Omit<HsQuery, "page" | "size">): SQL | undefined {
  const matching = q.keywords
    ? inArray(hsCodes.id, sql`(SELECT rowid FROM hs_codes_fts WHERE hs_codes_fts MATCH ${ftsQuery(q.keywords)})`)
    : undefined;
  return and(eq(hsCodes.version, q.version), equals(hsCodes.level, q.level), equals(hsCodes.parent, q.parent), matching);
}

export const queryHsCodes = (db: Database, q: HsQuery) =>
  paged<typeof hsCodes.$inferSelect>(db, hsCodes, hsWhere(q), hsCodes.code, q.page, q.size);

export const listPlatforms = (db: Database) => db.select().from(platforms).orderBy(asc(platforms.code));

export async function platformByCode(db: Database, code: string) {
  const [platform] = await db.select().from(platforms).where(eq(platforms.code, code)).limit(1);
  return platform;
}
