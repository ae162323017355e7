import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { countrySchema, currencySchema, languageSchema, platformSchema, zoneSchema } from "../../src/reference/schema";
import { createTestKey } from "../helpers/credentials";
import { call, envelope, secretHeaders } from "../helpers/requests";

const served = async (path: string, bizContent: unknown = {}) => {
  const key = await createTestKey({ scopes: ["reference:read"] });
  const res = await call(`/std/open${path}`, {
    method: "POST",
    headers: { ...secretHeaders(key), "Content-Type": "application/json" },
    body: JSON.stringify({ bizContent }),
  });
  return (await envelope<unknown[]>(res)).data;
};

describe("O's answers are their tables' rows, as documented", () => {
  it.each([
    ["/country/list", countrySchema],
    ["/zone/list", zoneSchema],
    ["/language/list", languageSchema],
    ["/currency/list", currencySchema],
    ["/manufacturer/all", platformSchema],
  ] as const)("every item of %s has exactly the documented fields", async (path, schema) => {
    const items = await served(path);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(schema.strict().safeParse(item).error).toBeUndefined();
  });

  it("types each answer by its table's columns, so a handler returning a wrong one does not compile (npm run typecheck)", () => {
    const germany: z.input<typeof countrySchema> = {
      id: 1,
      code: "DE",
      name: "Germany",
      iso3: "DEU",
      numericCode: "276",
      phoneCode: "49",
      currencyCode: "EUR",
    };
    // @ts-expect-error iso3 is a text column
    const wrong: z.input<typeof countrySchema> = { ...germany, iso3: 276 };
    expect(countrySchema.safeParse(germany).success).toBe(true);
    expect(countrySchema.safeParse(wrong).success).toBe(false);
  });
});
