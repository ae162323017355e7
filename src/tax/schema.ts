import { createSelectSchema } from "../platform/row-answer";
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../platform/auth/tables";

export const TAX_TYPES = [
  "VAT",
  "GST",
  "SalesTax",
  "ConsumptionTax",
  "CorporateTax",
  "IncomeTax",
  "ExciseTax",
  "PropertyTax",
  "CustomsDuty",
] as const;
export type TaxType = (typeof TAX_TYPES)[number];

export const RATE_LEVELS = ["standard", "reduced", "reduced1", "reduced2", "super_reduced", "parking", "zero", "exempt"] as const;
export type RateLevel = (typeof RATE_LEVELS)[number];

export const RATE_LEVEL_NAMES: Record<RateLevel, string> = {
  standard: "Standard rate",
  reduced: "Reduced rate",
  reduced1: "Reduced rate 1 (lower)",
  reduced2: "Reduced rate 2 (higher)",
  super_reduced: "Super-reduced rate",
  parking: "Parking rate (transitional)",
  zero: "Zero rate",
  exempt: "Exempt",
};

export const DATA_SOURCES = ["EU_VAT", "OECD", "ENCYCLOPEDIA", "CUSTOM"] as const;
export type DataSource = (typeof DATA_SOURCES)[number];

/**
 * What a record's rate is: the rate the law states, or (corporate income tax) the OECD's combined
 * statutory rate: central and sub-central government, surcharges included, the top rate where progressive.
 */
export const RATE_DEFINITIONS = ["statutory", "oecd_combined_statutory"] as const;

/** Rates are kept as integers of 1/10000 percent, so that four decimals are exact. */
export const RATE_SCALE = 10_000;

/**
 * A record is in force from `effectiveFrom` to `effectiveTo` (null: no end known); a change ends the
 * old record the second before the new one starts, so the table is also the history, and an
 * announced change is a record that starts in the future.
 */
export const taxRates = sqliteTable(
  "tax_rates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    countryCode: text("country_code").notNull(),
    regionCode: text("region_code"),
    countryName: text("country_name").notNull(),
    regionName: text("region_name"),
    taxType: text("tax_type", { enum: TAX_TYPES }).notNull(),
    taxNameLocal: text("tax_name_local"),
    taxNameEn: text("tax_name_en").notNull(),
    taxAbbr: text("tax_abbr"),
    rateLevel: text("rate_level", { enum: RATE_LEVELS }).notNull(),
    rateLevelName: text("rate_level_name"),
    rateValueScaled: integer("rate_value_scaled").notNull(),
    rateDefinition: text("rate_definition", { enum: RATE_DEFINITIONS }).notNull().default("statutory"),
    effectiveFrom: text("effective_from").notNull(),
    effectiveTo: text("effective_to"),
    currencyCode: text("currency_code"),
    euMember: integer("eu_member", { mode: "boolean" }).notNull().default(false),
    oecdMember: integer("oecd_member", { mode: "boolean" }).notNull().default(false),
    taxIdFormat: text("tax_id_format"),
    taxIdPattern: text("tax_id_pattern"),
    filingFrequency: text("filing_frequency"),
    applicableScope: text("applicable_scope"),
    excludedScope: text("excluded_scope"),
    dataSource: text("data_source", { enum: DATA_SOURCES }).notNull(),
    sourceUrl: text("source_url"),
    versionDate: text("version_date").notNull(),
    lastSyncTime: text("last_sync_time").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    // NULLs are distinct in a unique index, so national and regional records get one each.
    uniqueIndex("tax_rates_national_key")
      .on(t.countryCode, t.taxType, t.rateLevel, t.effectiveFrom)
      .where(sql`${t.regionCode} IS NULL`),
    uniqueIndex("tax_rates_regional_key")
      .on(t.countryCode, t.regionCode, t.taxType, t.rateLevel, t.effectiveFrom)
      .where(sql`${t.regionCode} IS NOT NULL`),
    // Not partial: the records in force on a day (`?date=`) include ended and announced ones.
    index("tax_rates_by_country").on(t.countryCode, t.regionCode, t.taxType),
    index("tax_rates_by_type").on(t.taxType, t.countryCode),
  ],
);

export const RATE_CHANGE_KINDS = ["added", "ended", "corrected"] as const;

/**
 * Every change of a tax rate record, written by triggers on `tax_rates` (migration 0025) so that
 * the jobs, the seed and a hand-made fix all show: a record added, its end set (`ended`, which may
 * lie ahead), or its figure or start changed in place (`corrected`). The id is the feed's cursor.
 */
export const taxRateChanges = sqliteTable(
  "tax_rate_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    changedAt: text("changed_at").notNull(),
    kind: text("kind", { enum: RATE_CHANGE_KINDS }).notNull(),
    rateId: integer("rate_id").notNull(),
    countryCode: text("country_code").notNull(),
    regionCode: text("region_code"),
    taxType: text("tax_type", { enum: TAX_TYPES }).notNull(),
    rateLevel: text("rate_level", { enum: RATE_LEVELS }).notNull(),
    rateValueScaled: integer("rate_value_scaled").notNull(),
    previousRateValueScaled: integer("previous_rate_value_scaled"),
    effectiveFrom: text("effective_from").notNull(),
    effectiveTo: text("effective_to"),
    dataSource: text("data_source", { enum: DATA_SOURCES }).notNull(),
    sourceUrl: text("source_url"),
  },
  (t) => [index("tax_rate_changes_by_time").on(t.changedAt), index("tax_rate_changes_by_country").on(t.countryCode, t.id)],
);

export type TaxRateRow = typeof taxRates.$inferSelect;
export type NewTaxRateRow = typeof taxRates.$inferInsert;

const dateTime = <T extends z.ZodType>(s: T, example = "2026-11-22T00:00:00") => s.openapi({ example, description: "yyyy-MM-ddTHH:mm:ss" });

// The examples are Germany's standard VAT record as the seed holds it (T5 for DE answers it).
const taxRateRow = createSelectSchema(taxRates, {
  // A row id, not a count: drizzle-zod's safe-integer bounds say nothing to a caller.
  id: z.number().int().openapi({ example: 23 }),
  countryCode: (s) => s.openapi({ example: "DE" }),
  regionCode: (s) => s.openapi({ example: null }),
  countryName: (s) => s.openapi({ example: "Germany" }),
  taxNameLocal: (s) => s.openapi({ example: "Umsatzsteuer" }),
  taxNameEn: (s) => s.openapi({ example: "Value-added tax" }),
  taxAbbr: (s) => s.openapi({ example: "USt" }),
  rateDefinition: (s) =>
    s.openapi({
      example: "statutory",
      description:
        "What the rate is: `statutory` (the rate the law states) or `oecd_combined_statutory` (corporate income tax: the OECD's combined rate)",
    }),
  rateLevelName: (s) => s.openapi({ example: "Standard rate" }),
  effectiveFrom: (s) => dateTime(s, "2021-01-01T00:00:00").openapi({ description: "UTC; the record is in force from this second" }),
  effectiveTo: (s) => dateTime(s).openapi({ example: null, description: "UTC; the last second the record is in force, null while no end is known" }),
  currencyCode: (s) => s.openapi({ example: "EUR" }),
  taxIdFormat: (s) => s.openapi({ example: "DE + 9 digits" }),
  taxIdPattern: (s) => s.openapi({ example: "^DE\\d{9}$" }),
  filingFrequency: (s) => s.openapi({ example: "monthly or quarterly" }),
  dataSource: (s) => s.openapi({ example: "EU_VAT" }),
  sourceUrl: (s) => s.openapi({ example: "https://ec.europa.eu/taxation_customs/tedb/" }),
  versionDate: (s) => dateTime(s),
  lastSyncTime: (s) => dateTime(s),
});

/** The one field that differs from its column: the rate as a percentage, where the table keeps it scaled. */
export const taxRateSchema = z
  .object({
    ...taxRateRow.omit({ rateValueScaled: true }).shape,
    rateValue: z.number().openapi({ example: 19, description: "Percentage, up to 4 decimals" }),
  })
  .openapi("TaxRate");

export type TaxRate = z.infer<typeof taxRateSchema>;

/** T8's verdict on a tax number from its format and check digits. */
const offlineCheckSchema = z.object({
  valid: z.boolean(),
  /** Null when several countries' formats fit and nothing singles one out. */
  countryCode: z.string().nullable().openapi({ example: "DE" }),
  normalized: z.string(),
  /** True when a check-digit algorithm confirmed the number, not only its pattern. */
  checkDigitVerified: z.boolean(),
  /** Other countries whose format the number also fits; every candidate when countryCode is null. */
  alternatives: z.array(z.string()).openapi({ example: [] }),
  /** The chosen country's current rates; empty when countryCode is null. */
  rates: z.array(taxRateSchema),
});

export type OfflineCheck = z.infer<typeof offlineCheckSchema>;

/** What the live services (VIES, HMRC) said, when T8 is configured to ask them (docs/tax.md). */
export const liveCheckSchema = z.object({
  source: z.enum(["offline", "live", "cache"]).openapi({
    example: "live",
    description: "offline: format and check digits only; live: the service answered now; cache: its last answer, the service being down",
  }),
  service: z.enum(["VIES", "HMRC"]).nullable().openapi({ example: "VIES" }),
  registered: z.boolean().nullable().openapi({ example: true, description: "Whether the service knows the number; null offline" }),
  consultedAt: z.string().nullable().openapi({ example: "2026-11-26T10:15:00Z", description: "When the service gave the answer (UTC)" }),
  name: z.string().nullable().openapi({ example: "Example GmbH", description: "The registered name, when the service gives it" }),
  address: z.string().nullable().openapi({ example: "Hauptstr. 1, 10115 Berlin", description: "The registered address, when the service gives it" }),
  ageSeconds: z.number().int().nullable().openapi({ example: 0, description: "How old the answer is: 0 when live, more from the cache" }),
  liveError: z.string().nullable().openapi({ example: null, description: "Why the service gave no answer now (down, slow), when it was asked" }),
});

export type LiveCheck = z.infer<typeof liveCheckSchema>;

export const taxNumberCheckSchema = z.object({ ...offlineCheckSchema.shape, ...liveCheckSchema.shape }).openapi("TaxNumberCheck");

export type TaxNumberCheck = z.infer<typeof taxNumberCheckSchema>;

export function toTaxRate({ rateValueScaled, ...row }: TaxRateRow): TaxRate {
  return { ...row, rateValue: rateValueScaled / RATE_SCALE };
}

const rateChangeRow = createSelectSchema(taxRateChanges, {
  id: z.number().int().openapi({ example: 1842, description: "The change's place in the feed: pass the last one as `after`" }),
  changedAt: (s) => s.openapi({ example: "2026-11-26T02:15:04", description: "UTC, when the record changed here" }),
  rateId: z.number().int().openapi({ example: 731, description: "The record (T11)" }),
  countryCode: (s) => s.openapi({ example: "DE" }),
  regionCode: (s) => s.openapi({ example: null }),
  effectiveFrom: (s) => s.openapi({ example: "2027-01-01T00:00:00" }),
  effectiveTo: (s) => s.openapi({ example: null }),
  sourceUrl: (s) => s.openapi({ example: "https://raw.githubusercontent.com/ibericode/vat-rates/master/vat-rates.json" }),
});

/** T12's item: the record's figures after the change, as percentages. */
export const rateChangeSchema = z
  .object({
    ...rateChangeRow.omit({ rateValueScaled: true, previousRateValueScaled: true }).shape,
    rateValue: z.number().openapi({ example: 21, description: "Percentage after the change" }),
    previousRateValue: z.number().nullable().openapi({ example: null, description: "Percentage before a correction; null otherwise" }),
  })
  .openapi("TaxRateChange");

export type RateChange = z.infer<typeof rateChangeSchema>;

export function toRateChange({ rateValueScaled, previousRateValueScaled, ...row }: typeof taxRateChanges.$inferSelect): RateChange {
  return {
    ...row,
    rateValue: rateValueScaled / RATE_SCALE,
    previousRateValue: previousRateValueScaled === null ? null : previousRateValueScaled / RATE_SCALE,
  };
}

/**
 * An endpoint a data key holder registered for `taxrate.changed` webhooks: of some countries, or
 * all (`countries` null). The signing secret is kept encrypted because it is used; during a
 * rotation the previous one signs too until `previousSecretUntil`. `afterChangeId` is how far the
 * change feed has been turned into its events.
 */
export const taxWebhookEndpoints = sqliteTable(
  "tax_webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    keyId: integer("key_id"),
    url: text("url").notNull(),
    countries: text("countries", { mode: "json" }).$type<string[]>(),
    encryptedSecret: text("encrypted_secret").notNull(),
    previousEncryptedSecret: text("previous_encrypted_secret"),
    previousSecretUntil: text("previous_secret_until"),
    afterChangeId: integer("after_change_id").notNull(),
    disabledAt: text("disabled_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("tax_webhook_endpoints_user").on(t.userId), index("tax_webhook_endpoints_cursor").on(t.afterChangeId)],
);

export const TAX_WEBHOOK_OUTCOMES = ["pending", "delivered", "retrying", "dead", "disabled"] as const;

/** One `taxrate.changed` notification of one change to one endpoint; its id and body stay the same across its attempts. */
export const taxWebhookEvents = sqliteTable(
  "tax_webhook_events",
  {
    id: text("id").primaryKey(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => taxWebhookEndpoints.id, { onDelete: "cascade" }),
    changeId: integer("change_id").notNull(),
    payload: text("payload").notNull(),
    createdAt: text("created_at").notNull(),
    outcome: text("outcome", { enum: TAX_WEBHOOK_OUTCOMES }).notNull().default("pending"),
  },
  (t) => [
    // A change becomes one event per endpoint, however many dispatches see it.
    uniqueIndex("tax_webhook_events_endpoint_change").on(t.endpointId, t.changeId),
    // The sweep looks for events still waiting for an attempt.
    index("tax_webhook_events_outcome_created").on(t.outcome, t.createdAt),
  ],
);

/** Every attempt to deliver an event: the status only, never what the receiver answered. */
export const taxWebhookDeliveries = sqliteTable(
  "tax_webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id")
      .notNull()
      .references(() => taxWebhookEvents.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    attemptedAt: text("attempted_at").notNull(),
    nextAttemptAt: text("next_attempt_at"),
  },
  (t) => [index("tax_webhook_deliveries_endpoint").on(t.endpointId, t.id), index("tax_webhook_deliveries_event").on(t.eventId)],
);

export type TaxWebhookEndpoint = typeof taxWebhookEndpoints.$inferSelect;
export type TaxWebhookDelivery = typeof taxWebhookDeliveries.$inferSelect;
