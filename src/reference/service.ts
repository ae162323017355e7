import { and, asc, count, eq, isNull, like, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { z } from "@hono/zod-openapi";
import type { Database } from "../platform/database";
import { ApiError } from "../platform/errors";
import { IsolateCache } from "../platform/isolate-cache";
import { dataVersion } from "../platform/read-cache";
import type { countryListParams, hsCodeListParams, unitListParams, zoneQueryParams } from "./params";
import { type CountryRow, countries, currencies, type HsCodeRow, hsCodes, languages, platforms, units, zones, type ZoneRow } from "./schema";

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
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(asc(order))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ total: count() }).from(table).where(where),
  ]);
  return { total: total?.total ?? 0, page, size, items: items as T[] };
}

const contains = (column: SQLiteColumn, text: string | undefined) => (text ? like(column, `%${text}%`) : undefined);
const equals = <T>(column: SQLiteColumn, value: T | undefined) => (value === undefined ? undefined : eq(column, value));

/** What O1 asks of the country list; O2 the same fields and language. */
type CountryQuery = Partial<z.output<typeof countryListParams>>;

/** A country row as O1 and O2 answer it: its profile's fields beside its codes, cut to `fields`. */
export function countryAnswer(row: CountryRow, query: CountryQuery) {
  const { profile, ...codes } = row;
  const full = {
    ...codes,
    ...profile,
    ...(query.lang ? { translatedName: query.lang === "en" ? row.name : (profile?.names[query.lang] ?? row.name) } : {}),
  };
  if (!query.fields) return full;
  // `lang` asks for the translated name, whichever fields are named beside it.
  const kept = new Set<string>(["code", ...query.fields, ...(query.lang ? ["translatedName"] : [])]);
  return Object.fromEntries(Object.entries(full).filter(([field]) => kept.has(field))) as Partial<typeof full> & { code: string };
}

const lower = (text: string | null | undefined) => (text ?? "").toLowerCase();

/** Whether a country matches O1's filters: region or subregion, a currency in use, an official language. */
function matches(row: CountryRow, query: CountryQuery): boolean {
  const profile = row.profile;
  if (query.region && lower(profile?.region) !== lower(query.region) && lower(profile?.subregion) !== lower(query.region)) return false;
  if (query.currency && row.currencyCode !== query.currency && !profile?.currencies.includes(query.currency)) return false;
  if (query.language && !profile?.languages.some((l) => l.code === query.language)) return false;
  return true;
}

/** O1 answers the interface's fields unless `fields` asks for more: every profile of 249 countries is some 300 KB a request. */
const LIST_FIELDS = ["id", "name", "iso3", "numericCode", "phoneCode", "currencyCode"] as const;

export async function listCountries(db: Database, query: CountryQuery = {}) {
  const rows = await db.select().from(countries).orderBy(asc(countries.code));
  const fields = query.fields ?? [...LIST_FIELDS];
  return rows.filter((row) => matches(row, query)).map((row) => countryAnswer(row, { ...query, fields }));
}

export async function countryByCode(db: Database, code: string) {
  const [country] = await db.select().from(countries).where(eq(countries.code, code)).limit(1);
  return country;
}

/** Every country's alpha-2 code, kept per isolate under the reference data's version (a job run that changes them bumps it). */
const countryCodeSets = new IsolateCache<Set<string>>(2);

/** Which of the given alpha-2 codes are countries: a pickup submission asks it three times a task. */
export async function existingCountryCodes(db: Database, codes: string[]): Promise<Set<string>> {
  const version = `v${await dataVersion(db)}`;
  let all = countryCodeSets.get(version);
  if (!all) {
    all = new Set((await db.select({ code: countries.code }).from(countries)).map((r) => r.code));
    countryCodeSets.set(version, all);
  }
  return new Set(codes.filter((code) => all.has(code)));
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

type ZoneQuery = z.output<typeof zoneQueryParams>;

export const queryZones = (db: Database, q: ZoneQuery) =>
  paged<ZoneRow>(
    db,
    zones,
    and(contains(zones.name, q.name), contains(zones.nameEn, q.name_en), equals(zones.code, q.code), equals(zones.parsent, q.parsent)),
    zones.code,
    q.page,
    q.size,
  );

type UnitQuery = z.output<typeof unitListParams>;

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

/** The words of a search, each quoted so that FTS5 syntax in the input is read as text; porter-stemmed by the index. */
function searchWords(keywords: string): string[] {
  const words = keywords.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) throw new ApiError(400, "bizContent.keywords: must contain a letter or digit");
  return words.map((word) => `"${word}"`);
}

type HsQuery = z.output<typeof hsCodeListParams>;

const hsFilters = (q: Omit<HsQuery, "page" | "size" | "keywords">) =>
  and(eq(hsCodes.version, q.version), equals(hsCodes.level, q.level), equals(hsCodes.parent, q.parent));

/** Without keywords: the codes in code order, a level or a parent's children. */
export async function queryHsCodes(db: Database, q: HsQuery): Promise<Paged<HsCodeRow>> {
  if (q.keywords) return searchHsCodes(db, { ...q, keywords: q.keywords });
  return paged<HsCodeRow>(db, hsCodes, hsFilters(q), hsCodes.code, q.page, q.size);
}

/**
 * Keywords, ranked: first the headings the everyday-word table names for them (hs-synonyms.ts),
 * then the codes whose description holds every word, then those holding some; within each, by
 * FTS5's bm25 relevance, a heading or subheading weighing more than a chapter or a section.
 */
async function searchHsCodes(db: Database, q: HsQuery & { keywords: string }): Promise<Paged<HsCodeRow>> {
  const words = searchWords(q.keywords);
  // The table is read on the first search, not when the Worker starts.
  const { headingsFor } = await import("./hs-synonyms");
  const named = headingsFor(q.keywords);
  const filters = hsFilters(q);
  const ranked = sql`
    WITH hits(id, tier, score) AS (
      SELECT id, 0, 0.0 FROM hs_codes WHERE code IN (${
        named.length
          ? sql.join(
              named.map((c) => sql`${c}`),
              sql`, `,
            )
          : sql`NULL`
      })
      UNION ALL SELECT rowid, 1, bm25(hs_codes_fts) FROM hs_codes_fts WHERE hs_codes_fts MATCH ${words.join(" ")}
      UNION ALL SELECT rowid, 2, bm25(hs_codes_fts) FROM hs_codes_fts WHERE hs_codes_fts MATCH ${words.join(" OR ")}
    ),
    best AS (SELECT id, min(tier) AS tier, min(score) AS score FROM hits GROUP BY id)
    SELECT ${hsCodes.id}, ${hsCodes.version}, ${hsCodes.code}, ${hsCodes.description}, ${hsCodes.parent}, ${hsCodes.level}, ${hsCodes.section},
      best.tier, best.score * (CASE ${hsCodes.level} WHEN 4 THEN 1.5 WHEN 6 THEN 1.2 ELSE 1.0 END) AS relevance
    FROM best JOIN ${hsCodes} ON ${hsCodes.id} = best.id
    WHERE ${filters}`;
  const [items, [total]] = await Promise.all([
    db.all<HsCodeRow>(sql`${ranked} ORDER BY best.tier, relevance, ${hsCodes.code} LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`),
    db.all<{ total: number }>(sql`SELECT count(*) AS total FROM (${ranked})`),
  ]);
  return {
    total: total?.total ?? 0,
    page: q.page,
    size: q.size,
    items: items.map(({ id, version, code, description, parent, level, section }) => ({ id, version, code, description, parent, level, section })),
  };
}

export const listPlatforms = (db: Database) => db.select().from(platforms).orderBy(asc(platforms.code));

export async function platformByCode(db: Database, code: string) {
  const [platform] = await db.select().from(platforms).where(eq(platforms.code, code)).limit(1);
  return platform;
}
