import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { parseCsv } from "../platform/csv";
import type { Database } from "../platform/database";
import { chunkedInserts } from "../platform/jobs/batch";
import { FeedError, feedSetting, type JobDefinition, type JobPlan, parseFeedJson } from "../platform/jobs/runner";
import { COMMERCE_UNITS } from "./commerce-units";
import { HS_VERSIONS } from "./params";
import { countries, currencies, hsCodes, languages, units } from "./schema";
import { referenceSettings } from "./settings";

function requireColumns(rows: Record<string, string>[], columns: string[], what: string) {
  const missing = rows.length === 0 ? columns : columns.filter((c) => !(c in rows[0]!));
  if (missing.length > 0) throw new FeedError(`${what} is malformed: missing the columns ${missing.join(", ")}`);
}

/** Rows keyed by code, compared field by field: new ones inserted, changed ones updated, missing ones deleted. */
function planByCode<Row extends { code: string }>(
  db: Database,
  existing: (Row & { id: number })[],
  incoming: Row[],
  fields: (keyof Row)[],
  write: {
    insert: (rows: Row[]) => BatchItem<"sqlite">[];
    update: (id: number, row: Row) => BatchItem<"sqlite">;
    remove?: (id: number) => BatchItem<"sqlite">;
  },
): JobPlan {
  const byCode = new Map(existing.map((row) => [row.code, row]));
  const counts = { inserted: 0, updated: 0, closed: 0, unchanged: 0 };
  const statements: BatchItem<"sqlite">[] = [];
  const fresh: Row[] = [];
  const seen = new Set<string>();
  for (const row of incoming) {
    if (seen.has(row.code)) throw new FeedError(`the feed lists ${row.code} twice`);
    seen.add(row.code);
    const old = byCode.get(row.code);
    if (!old) {
      fresh.push(row);
      counts.inserted++;
    } else if (fields.every((f) => old[f] === row[f])) counts.unchanged++;
    else {
      statements.push(write.update(old.id, row));
      counts.updated++;
    }
  }
  if (write.remove) {
    for (const old of existing) {
      if (seen.has(old.code)) continue;
      statements.push(write.remove(old.id));
      counts.closed++;
    }
  }
  return { statements: [...statements, ...write.insert(fresh)], counts, existing: existing.length };
}

const HS_EDITION = HS_VERSIONS[0];
const HS_DIGITS = /^(\d{2}|\d{4}|\d{6})$/;
/** "Commodities not specified according to kind" at each level: a statistical placeholder, not an HS code. */
const NOT_HS_CODES = new Set(["TOTAL", "99", "9999", "999999"]);

export type HsRow = Omit<typeof hsCodes.$inferInsert, "id">;

/** The HS rows of the datasets/harmonized-system CSVs (codes, and sections where given); the seed loads the same. */
export function hsRowsFromCsv(codesCsv: string, sectionsCsv?: string): HsRow[] {
  const rows = parseCsv(codesCsv);
  requireColumns(rows, ["section", "hscode", "description", "parent", "level"], "the HS feed");
  const incoming: HsRow[] = [];
  for (const row of rows) {
    if (NOT_HS_CODES.has(row.hscode!)) continue;
    const level = Number(row.level);
    if (!HS_DIGITS.test(row.hscode!) || row.hscode!.length !== level || !row.description || !row.section) {
      throw new FeedError(`the HS feed is malformed at code ${JSON.stringify(row.hscode)}`);
    }
    incoming.push({
      code: row.hscode!,
      version: HS_EDITION,
      description: row.description,
      parent: row.parent === "TOTAL" ? row.section : row.parent!,
      level,
      section: row.section,
    });
  }
  const chapters = incoming.filter((r) => r.level === 2).length;
  if (chapters < 90) throw new FeedError(`the HS feed is partial: ${chapters} chapters of 97`);
  if (sectionsCsv) {
    const sections = parseCsv(sectionsCsv);
    requireColumns(sections, ["section", "name"], "the HS sections feed");
    for (const s of sections)
      incoming.push({ code: s.section!, version: HS_EDITION, description: s.name!, parent: null, level: 0, section: s.section! });
  }
  return incoming;
}

/** The datasets/harmonized-system CSVs: codes with their parents and levels, and the section names. */
export const hsJob: JobDefinition = {
  name: "hs",
  cron: "45 4 1 1,4,7,10 *",
  description: `HS ${HS_EDITION} codes, quarterly, from the datasets/harmonized-system CSV`,
  sources: [
    {
      name: "codes",
      setting: feedSetting(referenceSettings, "HS_FEED_URL"),
      defaultUrl: "https://raw.githubusercontent.com/datasets/harmonized-system/master/data/harmonized-system.csv",
    },
    {
      name: "sections",
      setting: feedSetting(referenceSettings, "HS_SECTIONS_FEED_URL"),
      defaultUrl: "https://raw.githubusercontent.com/datasets/harmonized-system/master/data/sections.csv",
      optional: true,
    },
  ],
  async plan(db, feed) {
    const incoming = hsRowsFromCsv(feed.bodies.codes ?? "", feed.bodies.sections);
    // Without the sections feed, the sections already loaded are left as they are.
    const loaded = await db.select().from(hsCodes).where(eq(hsCodes.version, HS_EDITION));
    const existing = feed.bodies.sections ? loaded : loaded.filter((row) => row.level !== 0);
    return planByCode(db, existing, incoming, ["description", "parent", "level", "section"], {
      insert: (rows) => chunkedInserts(db, hsCodes, rows),
      update: (id, row) => db.update(hsCodes).set(row).where(eq(hsCodes.id, id)),
      remove: (id) => db.delete(hsCodes).where(eq(hsCodes.id, id)),
    });
  },
};

/** A unit as the feed and the commerce table describe it; `refCode` names the unit it converts to. */
export type UnitFeedRow = {
  code: string;
  name: string;
  nameZh: string | null;
  origin: "base" | "unece";
  kind: string | null;
  symbol: string | null;
  factor: string | null;
  refCode: string | null;
};

/** The units of UN/ECE Recommendation 20 (datasets/unece-units-of-measure) in use: status X and D are withdrawn. */
export function unitRowsFromCsv(csv: string): UnitFeedRow[] {
  const rows = parseCsv(csv);
  requireColumns(rows, ["Status", "CommonCode", "Name", "Symbol"], "the units feed");
  const active = rows.filter((r) => r.Status !== "X" && r.Status !== "D" && /^[A-Z0-9]{2,3}$/.test(r.CommonCode!));
  if (active.length < 1000) throw new FeedError(`the units feed is partial: ${active.length} active units`);
  return active.map((r) => {
    const commerce = COMMERCE_UNITS[r.CommonCode!];
    return {
      code: r.CommonCode!,
      name: r.Name!,
      nameZh: commerce?.nameZh ?? null,
      origin: commerce ? "base" : "unece",
      kind: commerce?.kind ?? null,
      symbol: r.Symbol || null,
      factor: commerce?.factor ?? null,
      refCode: commerce?.ref ?? null,
    };
  });
}

/** UN/ECE Recommendation 20 (datasets/unece-units-of-measure): status X and D are withdrawn. */
export const unitsJob: JobDefinition = {
  name: "units",
  cron: "45 4 1 1,4,7,10 *",
  description: "UN/ECE Recommendation 20 units of measure, quarterly",
  sources: [
    {
      name: "units",
      setting: feedSetting(referenceSettings, "UNITS_FEED_URL"),
      defaultUrl: "https://raw.githubusercontent.com/datasets/unece-units-of-measure/master/data/units-of-measure.csv",
    },
  ],
  async plan(db, feed) {
    const incoming = unitRowsFromCsv(feed.bodies.units ?? "");
    const existing = await db.select().from(units);
    const codeOfId = new Map(existing.map((u) => [u.id, u.code]));
    const refId = (code: string | null) => (code ? sql<number>`(SELECT id FROM units WHERE code = ${code})` : null);
    const stored = existing.map((u) => ({ ...u, refCode: u.refUnit ? (codeOfId.get(u.refUnit) ?? null) : null }));
    const plan = planByCode(db, stored, incoming, ["name", "nameZh", "origin", "kind", "symbol", "factor", "refCode"], {
      insert: (rows) =>
        chunkedInserts(
          db,
          units,
          rows.map(({ refCode: _ref, ...row }) => row),
        ),
      update: (id, { refCode: _ref, ...row }) => db.update(units).set(row).where(eq(units.id, id)),
      remove: (id) => db.delete(units).where(eq(units.id, id)),
    });
    // Reference units are linked once every unit exists, in the same batch.
    const links = incoming
      .filter((u) => u.refCode)
      .map((u) =>
        db
          .update(units)
          .set({ refUnit: refId(u.refCode) })
          .where(eq(units.code, u.code)),
      );
    return { ...plan, statements: [...plan.statements, ...(plan.counts.inserted + plan.counts.updated > 0 ? links : [])] };
  },
};

/** The documented JSON of country, currency and language data (docs/operations.md: "Reference feed"). */
const referenceFeed = z.object({
  countries: z
    .array(
      z.object({
        code: z.string().regex(/^[A-Z]{2}$/),
        name: z.string().min(1),
        iso3: z.string().regex(/^[A-Z]{3}$/),
        phoneCode: z.string().nullable(),
        currencyCode: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .nullable(),
      }),
    )
    .min(200),
  currencies: z
    .array(
      z.object({
        code: z.string().regex(/^[A-Z]{3}$/),
        name: z.string().min(1),
        symbol: z.string().nullable(),
        numericCode: z.string().nullable(),
        minorUnits: z.number().int().nullable(),
      }),
    )
    .min(100),
  languages: z
    .array(
      z.object({
        code: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/),
        name: z.string().min(1),
        nameEn: z.string().min(1),
        baseCode: z.string().nullable(),
      }),
    )
    .min(100),
});

export const referenceJob: JobDefinition = {
  name: "reference",
  cron: "30 3 1 * *",
  description: "Countries, currencies and languages, monthly, documented JSON at REFERENCE_FEED_URL",
  sources: [{ name: "reference", setting: feedSetting(referenceSettings, "REFERENCE_FEED_URL") }],
  async plan(db, feed) {
    const { countries: c, currencies: cur, languages: lang } = parseFeedJson(feed.bodies.reference, referenceFeed, "the reference feed");
    // Reference records are never deleted by a feed: callers may hold their codes.
    const plans = [
      planByCode(db, await db.select().from(countries), c, ["name", "iso3", "phoneCode", "currencyCode"], {
        insert: (rows) => chunkedInserts(db, countries, rows),
        update: (id, row) => db.update(countries).set(row).where(eq(countries.id, id)),
      }),
      planByCode(db, await db.select().from(currencies), cur, ["name", "symbol", "numericCode", "minorUnits"], {
        insert: (rows) => chunkedInserts(db, currencies, rows),
        update: (id, row) => db.update(currencies).set(row).where(eq(currencies.id, id)),
      }),
      planByCode(db, await db.select().from(languages), lang, ["name", "nameEn", "baseCode"], {
        insert: (rows) => chunkedInserts(db, languages, rows),
        update: (id, row) => db.update(languages).set(row).where(eq(languages.id, id)),
      }),
    ];
    return {
      statements: plans.flatMap((p) => p.statements),
      counts: {
        inserted: plans.reduce((n, p) => n + p.counts.inserted, 0),
        updated: plans.reduce((n, p) => n + p.counts.updated, 0),
        closed: 0,
        unchanged: plans.reduce((n, p) => n + p.counts.unchanged, 0),
      },
      existing: plans.reduce((n, p) => n + p.existing, 0),
    };
  },
};

export const REFERENCE_JOBS = [hsJob, unitsJob, referenceJob];
