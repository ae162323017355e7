import { z } from "@hono/zod-openapi";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const countries = sqliteTable(
  "countries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    name: text("name").notNull(),
    iso3: text("iso3").notNull(),
    phoneCode: text("phone_code"),
    currencyCode: text("currency_code"),
  },
  (t) => [uniqueIndex("countries_code").on(t.code)],
);

export type CountryRow = typeof countries.$inferSelect;

export const countrySchema = z
  .object({
    id: z.number().int(),
    code: z.string().openapi({ example: "DE", description: "ISO 3166-1 alpha-2" }),
    name: z.string().openapi({ example: "Germany" }),
    iso3: z.string().openapi({ example: "DEU", description: "ISO 3166-1 alpha-3" }),
    phoneCode: z.string().nullable().openapi({ example: "49", description: "International dialing code" }),
    currencyCode: z.string().nullable().openapi({ example: "EUR", description: "ISO 4217" }),
  })
  .openapi("Country");

/** O1 takes no parameters: an empty bizContent object, and nothing else. */
export const countryListParams = z.strictObject({});
